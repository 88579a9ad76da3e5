/**
 * Differential propagation over a compiled {@link Net} (a propnet's forward propagation): the
 * simulator changes input atoms (`true` and `does` atoms), and only what depends on a change
 * is looked at. Each change of an atom adjusts the counters of the rules that read it; a rule
 * whose counter of unmet literals reaches or leaves zero adjusts its head's support; a head whose support
 * crosses zero (or a cyclic component one of whose inputs changed) is queued by component, and
 * the queue is emptied in topological order, so every component is settled once, after all its
 * inputs. Nothing is allocated per step. Atoms the simulator watches (legal and next atoms)
 * report their changes into {@link Outputs} as they happen.
 */
import { countDown } from '../ground-plan.js';
import type { Net } from './net.js';

/** What the simulator reads, kept up to date by every change. */
export interface Outputs {
  /** Per atom: 0 unwatched, 1 a legal atom, 2 a next atom. */
  readonly kind: Uint8Array;
  /** Per legal atom, its role; the legal moves of role r are `legalList[legalBase[r] .. + legalCount[r]-1]`, in no order. */
  readonly legalRole: Int32Array;
  readonly legalBase: Int32Array;
  readonly legalCount: Int32Array;
  readonly legalList: Int32Array;
  /** Position of a holding legal atom in `legalList`. */
  readonly legalPos: Int32Array;
  /** Per next atom, its fluent; bit f of `nextBits` is set while `(next f)` holds. */
  readonly nextFluent: Int32Array;
  readonly nextBits: Uint32Array;
}

/** The values of a net and the operations on them. */
export interface Propagator {
  /** 1 when the atom holds (read only for callers). */
  readonly val: Uint8Array;
  /** Per counted rule, its literals not satisfied now (read only for callers; fast/lazy.ts reads it). */
  readonly unmet: Int32Array | Uint16Array | Uint8Array;
  /** The outputs it keeps up to date: those it was given, or (wasm-propagate.ts) views of the same tables on its memory. */
  readonly out: Outputs;
  /** Sets an input atom (one no rule derives); the change takes effect at the next {@link propagate}. */
  setInput(atom: number, value: number): void;
  /** Settles every queued component, in topological order. */
  propagate(): void;
  /**
   * Evaluates the rules does atom `d` triggers; call it once the net is settled and every does
   * atom of the joint move is set, before {@link propagate}.
   */
  fire(d: number): void;
  /** Withdraws every triggered rule that fired; call it before clearing the does atoms. */
  unfire(): void;
  /**
   * Adds `delta` (1 or -1) to an atom's support from outside the rules (the heads lazy rules
   * make, fast/lazy.ts); takes effect at the next {@link propagate}.
   */
  addSupport(atom: number, delta: number): void;
  /**
   * Remembers the net's values now (settled, no does atom set, nothing fired), to return to by
   * {@link restore}: the fast simulator saves its initial state, and restarts a playout by
   * copying when that is cheaper than undoing a playout's changes one by one.
   */
  save(): void;
  /** Returns to the values of the last {@link save} (none: nothing happens). The caller restores its outputs (the WebAssembly propagator's own restore does, wasm-propagate.ts). */
  restore(): void;
  /** Bytes a {@link restore} copies. */
  savedBytes(): number;
}

/**
 * The queued components as a two-level bitset: `queued` (bit c for component c) and `summary`
 * (bit w when word w of `queued` is not zero), with the lowest summary word that may hold a bit
 * (`low`). Components are numbered in topological order and a settled component only queues
 * later ones, so the lowest queued one is found by scanning forward from `low`: no ordering
 * work per component, as a heap would need, and a scan of one summary word per 1,024
 * components (speedChess and hex have tens of thousands: one level scanned hundreds of empty
 * words per step).
 */
interface Queue {
  readonly queued: Uint32Array;
  readonly summary: Uint32Array;
  low: number;
  size: number;
}

/**
 * Creates the propagator of `net` with every atom false, then settles the net (facts and rules
 * with only negative bodies fire). Its code is a fresh copy of {@link buildPropagator} per net
 * when the platform allows (see `freshBuilder`).
 *
 * `stackOrder` (for a net without cyclic components; ignored otherwise): an atom whose support
 * crosses zero is pushed on a stack of atoms to settle (once while it is on it) and the last
 * pushed is settled first, instead of queueing components to settle in topological order. Why:
 * the queue's bookkeeping (two-level bitset, component-to-atom table) was a large part of a step
 * on speedChess, whose 18 settlings per step are cheap; the stack is two stores and a load
 * (docs/play.md, "speedChess's step cut"). Why it keeps the values: every atom whose value
 * differs from `support > 0` is on the stack (pushed when its support crosses zero, taken off
 * only to be settled) and the counters count the current values, so once the stack is empty
 * every atom holds exactly when a rule of it fires: the one solution of an acyclic net for its
 * inputs, as in topological order. An atom may change more than once in one propagation (on,
 * then off again); each change is counted exactly. The legal lists then see an append and a
 * swap-remove, so their order (not their contents) may differ from the topological order's.
 * The WebAssembly propagator does the same in the same order; the game with a lazy part keeps
 * the topological order (its evaluator decides atoms as their inputs settle).
 */
export function createPropagator(net: Net, out: Outputs, stackOrder = false): Propagator {
  return freshBuilder()(net, out, countDown, stackOrder && !net.cyclic.includes(1));
}

type Builder = typeof buildPropagator;

/**
 * A copy of {@link buildPropagator} made from its source text, so that V8 compiles and
 * optimizes it for this net alone: the nets of one game (one per control fluent,
 * specialize.ts) and of several games in one process would otherwise share one compiled
 * function whose closures are specialized to none of them, which halves the speed of small
 * games. The builder names nothing outside its parameters and the global typed arrays; when its
 * text shows otherwise (a test runner's rewritten source) or `new Function` is refused (a
 * browser's content security policy), the shared builder is used: same results, slower.
 */
function freshBuilder(): Builder {
  const text = buildPropagator.toString();
  if (!/^function buildPropagator\(/.test(text) || /__vi|__name|_js_1|require\(/.test(text)) return buildPropagator;
  try {
    return new Function(`return ${text}`)() as Builder;
  } catch {
    return buildPropagator;
  }
}

/** The propagator's code: everything it calls is inside, or passed in (`countDownFn`), so that it can be copied by its text. */
function buildPropagator(net: Net, out: Outputs, countDownFn: typeof countDown, stackOrder: boolean): Propagator {
  function push(q: Queue, c: number): void {
    const w = c >>> 5;
    if (q.queued[w] === 0) q.summary[w >>> 5]! |= 1 << (w & 31);
    q.queued[w]! |= 1 << (c & 31);
    if (w >>> 5 < q.low) q.low = w >>> 5;
    q.size++;
  }

  /** Removes and returns the lowest queued component (the queue is not empty). */
  function pop(q: Queue): number {
    let s = q.low;
    while (q.summary[s] === 0) s++;
    const top = q.summary[s]!;
    const w = (s << 5) | (31 - Math.clz32(top & -top));
    const bits = q.queued[w]!;
    q.queued[w] = bits & (bits - 1);
    if (q.queued[w] === 0) q.summary[s] = top & (top - 1);
    q.low = s;
    q.size--;
    return (w << 5) | (31 - Math.clz32(bits & -bits));
  }

  /** Reports a change of a watched atom into `out`. */
  function report(out: Outputs, a: number, v: number): void {
    if (out.kind[a] === 1) {
      const r = out.legalRole[a]!;
      const base = out.legalBase[r]!;
      if (v === 1) {
        out.legalPos[a] = out.legalCount[r]!;
        out.legalList[base + out.legalCount[r]!++] = a;
      } else {
        // Swap-remove: the last move takes the place of the one leaving.
        const at = out.legalPos[a]!;
        const last = out.legalList[base + --out.legalCount[r]!]!;
        out.legalList[base + at] = last;
        out.legalPos[last] = at;
      }
    } else {
      const f = out.nextFluent[a]!;
      out.nextBits[f >>> 5]! ^= 1 << (f & 31);
    }
  }

  const { head, readStart, readers, cycleReadStart, cycleReaders, comp, trigger, triggerStart } = net;
  const val = new Uint8Array(net.atoms);
  const unmet = new Int32Array(net.rules);
  const support = new Int32Array(net.atoms);
  const words = (net.components + 31) >>> 5;
  const queue: Queue = { queued: new Uint32Array(words), summary: new Uint32Array((words + 31) >>> 5), low: 0, size: 0 };
  const fresh = new Uint8Array(net.atoms);
  const missing = new Int32Array(net.rules);
  const stack = new Int32Array(net.atoms);
  // The cyclic component being settled: changes inside it must not queue it again.
  let active = -1;

  // The armed triggered rules of does atom d: `armed[triggerStart[d] .. + armedCount[d]-1]`, in no order.
  const armed = new Int32Array(net.triggers.length);
  const armedCount = new Int32Array(net.atoms);
  const armedPos = new Int32Array(net.rules);
  const arm = (k: number): void => {
    const d = trigger[k]!;
    armedPos[k] = armedCount[d]!;
    armed[triggerStart[d]! + armedCount[d]!++] = k;
  };
  const disarm = (k: number): void => {
    // Swap-remove: the last armed rule of d takes the place of the one leaving.
    const d = trigger[k]!;
    const last = armed[triggerStart[d]! + --armedCount[d]!]!;
    armed[triggerStart[d]! + armedPos[k]!] = last;
    armedPos[last] = armedPos[k]!;
  };

  const schedule = (c: number): void => {
    if (((queue.queued[c >>> 5]! >>> (c & 31)) & 1) === 0 && c !== active) push(queue, c);
  };

  // An atom no counted rule reads (a legal, next, goal or terminal atom, mostly) is settled at
  // once when its support crosses zero: nothing waits for it, so no order is needed.
  const sink = new Uint8Array(net.atoms);
  for (let a = 0; a < net.atoms; a++) {
    const unread = readStart[a + 1] === readStart[a] && cycleReadStart[a + 1] === cycleReadStart[a];
    sink[a] = unread && net.cyclic[comp[a]!] === 0 ? 1 : 0;
  }
  // What a head does when its support crosses zero, as one number (one memory access, not
  // three: sink, component, output kind): its component to queue (>= 0), or a sink's value to
  // take at once, -1 unwatched, -2 with a report.
  const settle = new Int32Array(net.atoms);
  for (let a = 0; a < net.atoms; a++) settle[a] = sink[a] === 0 ? comp[a]! : out.kind[a] === 0 ? -1 : -2;
  // The stack order (see `createPropagator`): atoms whose support crossed zero, each once.
  const changed = new Int32Array(stackOrder ? net.atoms : 0);
  const onStack = new Uint8Array(stackOrder ? net.atoms : 0);
  let top = 0;
  const stackAtom = (a: number): void => {
    if (onStack[a] === 0) (onStack[a] = 1), (changed[top++] = a);
  };
  const supportChanged = (h: number): void => {
    const how = settle[h]!;
    if (how >= 0) stackOrder ? stackAtom(h) : schedule(how);
    else {
      const v = support[h]! > 0 ? 1 : 0;
      if (v !== val[h]) (val[h] = v), how === -2 && report(out, h, v);
    }
  };

  // The reader entries with their rule's head beside them (-1 for a triggered rule): the
  // entries are read in order, so the head comes with them, where `head[k]` and `trigger[k]`
  // were two more accesses at scattered places (the cost on large nets is in such misses).
  const entries = new Int32Array(2 * readers.length);
  for (let i = 0; i < readers.length; i++) {
    const k = readers[i]! >> 1;
    entries[2 * i] = readers[i]!;
    entries[2 * i + 1] = trigger[k]! >= 0 ? -1 : head[k]!;
  }

  /**
   * Atom a now has value v. Per counted reader rule k (its literal satisfied when v differs from its sign):
   *   unmet(k) = literals not satisfied;  k fires iff unmet(k) = 0;  support(h) = firing rules of h.
   * Cyclic components reading a are queued to be settled again.
   */
  const change = (a: number, v: number): void => {
    val[a] = v;
    if (out.kind[a] !== 0) report(out, a, v);
    for (let i = 2 * readStart[a]!, end = 2 * readStart[a + 1]!; i < end; i += 2) {
      const r = entries[i]!;
      const h = entries[i + 1]!;
      const k = r >> 1;
      if ((v ^ (r & 1)) === 1) {
        if (--unmet[k]! === 0) {
          if (h < 0) arm(k);
          else if (++support[h]! === 1) supportChanged(h);
        }
      } else if (unmet[k]!++ === 0) {
        if (h < 0) disarm(k);
        else if (--support[h]! === 0) supportChanged(h);
      }
    }
    for (let i = cycleReadStart[a]!, end = cycleReadStart[a + 1]!; i < end; i++) schedule(cycleReaders[i]!);
  };

  /** Whether the literals of rule k outside component c hold. */
  const outsideHolds = (k: number, c: number): boolean => {
    for (let i = net.posStart[k]!; i < net.posStart[k + 1]!; i++) {
      const p = net.pos[i]!;
      if (val[p] === 0 && comp[p] !== c) return false;
    }
    for (let i = net.negStart[k]!; i < net.negStart[k + 1]!; i++) if (val[net.neg[i]!] === 1) return false;
    return true;
  };

  /**
   * Least fixpoint of cyclic component c, its outside literals final (Dowling-Gallier):
   *   h <= b1..bn  fires once its outside literals hold and its inside atoms all were derived.
   */
  const settleCyclic = (c: number): void => {
    active = c;
    let top = 0;
    for (let i = net.compRuleStart[c]!; i < net.compRuleStart[c + 1]!; i++) {
      const k = net.compRules[i]!;
      missing[k] = outsideHolds(k, c) ? net.internal[k]! : -1;
      const h = head[k]!;
      if (missing[k] === 0 && fresh[h] === 0) (fresh[h] = 1), (stack[top++] = h);
    }
    countDownFn(net, missing, fresh, stack, top);
    for (let i = net.compAtomStart[c]!; i < net.compAtomStart[c + 1]!; i++) {
      const a = net.compAtoms[i]!;
      if (fresh[a] !== val[a]) change(a, fresh[a]!);
      fresh[a] = 0;
    }
    active = -1;
  };

  const propagate = (): void => {
    while (top > 0) {
      const a = changed[--top]!;
      onStack[a] = 0;
      const v = support[a]! > 0 ? 1 : 0;
      if (v !== val[a]) change(a, v);
    }
    while (queue.size > 0) {
      const c = pop(queue);
      if (net.cyclic[c] === 1) {
        settleCyclic(c);
        continue;
      }
      const a = net.compAtoms[net.compAtomStart[c]!]!;
      const v = support[a]! > 0 ? 1 : 0;
      if (v !== val[a]) change(a, v);
    }
  };

  const setInput = (atom: number, value: number): void => {
    if (val[atom] !== value) change(atom, value);
  };

  // The triggered rules that fired since the does atoms were last cleared.
  const fired = new Int32Array(net.triggers.length);
  let firedCount = 0;

  /** Whether every literal of rule k holds now. */
  const holds = (k: number): boolean => {
    for (let i = net.posStart[k]!; i < net.posStart[k + 1]!; i++) if (val[net.pos[i]!] === 0) return false;
    for (let i = net.negStart[k]!; i < net.negStart[k + 1]!; i++) if (val[net.neg[i]!] === 1) return false;
    return true;
  };

  const fire = (d: number): void => {
    // Only armed rules can fire: their does-free literals all hold.
    for (let i = triggerStart[d]!, end = i + armedCount[d]!; i < end; i++) {
      const k = armed[i]!;
      if (!holds(k)) continue;
      fired[firedCount++] = k;
      const h = head[k]!;
      if (++support[h]! === 1) supportChanged(h);
    }
  };

  const unfire = (): void => {
    for (let i = 0; i < firedCount; i++) {
      const h = head[fired[i]!]!;
      if (--support[h]! === 0) supportChanged(h);
    }
    firedCount = 0;
  };

  const addSupport = (h: number, delta: number): void => {
    const before = support[h]! > 0;
    support[h]! += delta;
    if (before !== support[h]! > 0) supportChanged(h);
  };

  // Every atom false: a rule's negative literals hold, its positive ones do not (a triggered
  // rule with no does-free positive literal is armed; it fires only once its does atom is set).
  for (let k = 0; k < net.rules; k++) {
    unmet[k] = net.countedPos[k]!;
    if (unmet[k] === 0 && trigger[k]! >= 0) arm(k);
    else if (unmet[k] === 0) support[head[k]!]!++;
  }
  if (stackOrder) {
    for (let a = 0; a < net.atoms; a++) if (sink[a] === 0) stackAtom(a);
  } else for (let c = 0; c < net.components; c++) schedule(c);
  for (let a = 0; a < net.atoms; a++) if (sink[a] === 1 && support[a]! > 0) supportChanged(a);
  propagate();
  // The values at the state the simulator returns to (its initial state), as copies; see save().
  const snapshot: { val?: Uint8Array; unmet?: Int32Array; support?: Int32Array; armed?: Int32Array; armedCount?: Int32Array; armedPos?: Int32Array } = {};
  const save = (): void => {
    snapshot.val = val.slice();
    snapshot.unmet = unmet.slice();
    snapshot.support = support.slice();
    snapshot.armed = armed.slice();
    snapshot.armedCount = armedCount.slice();
    snapshot.armedPos = armedPos.slice();
  };
  const restore = (): void => {
    if (snapshot.val === undefined) return;
    val.set(snapshot.val);
    unmet.set(snapshot.unmet!);
    support.set(snapshot.support!);
    armed.set(snapshot.armed!);
    armedCount.set(snapshot.armedCount!);
    armedPos.set(snapshot.armedPos!);
    firedCount = 0;
  };
  const savedBytes = (): number => val.byteLength + unmet.byteLength + support.byteLength + armed.byteLength + armedCount.byteLength + armedPos.byteLength;
  return { val, unmet, out, setInput, propagate, fire, unfire, addSupport, save, restore, savedBytes };
}
