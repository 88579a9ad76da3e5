/**
 * The ground simulator's rules compiled once into flat typed arrays: rules reordered so that
 * each strongly connected component of the atom graph is one contiguous range, the ranges in
 * dependency order (bodies first), split into what depends only on the state and what depends
 * on the joint move. Evaluating a range is a loop over integer arrays, linear in its size; a
 * range on a positive cycle gets its least fixpoint by counting unsatisfied body atoms
 * (Dowling-Gallier). Negation only reaches earlier ranges when the game is stratified; a
 * negative literal inside a component is refused here.
 *
 * Most rules that depend on the joint move read a `(does R M)` atom positively, and only one
 * does atom per role holds: such a rule is filed under that atom (its trigger) and looked at
 * only when the atom holds, so a joint move costs what its own rules cost, not the whole game.
 * Likewise most rules that depend only on the state read a `(true F)` atom positively, and a
 * state holds few of the fluents: such a rule is filed under one of them and looked at only
 * when that fluent holds (shogi_ctk: 322,551 of its 336,083 state rules; docs/mutex.md, snake25).
 */
import { NO_POS } from '../gdl/ast.js';
import { GdlError, checkDeadline, deadlineTicker, diag } from '../gdl/diagnostics.js';
import { atomText } from '../ground/atoms.js';
import type { GroundGame } from '../ground/types.js';
import { type AtomGraph, atomComponents, atomGraph, dependOnDoesGraph, selfLoop } from './ground-graph.js';
import { fileUnderTriggers, firstOf, leastRead } from './ground-triggers.js';
import type { Deadline } from '../deadline.js';

/** The compiled rules; rule `k` is the k-th in evaluation order. */
interface CompiledRules {
  /** Number of atoms (the length of a valuation). */
  readonly atoms: number;
  readonly head: Int32Array;
  /** Positive body of rule k: `pos[posStart[k] .. posStart[k+1]-1]`. */
  readonly posStart: Int32Array;
  readonly pos: Int32Array;
  /** Negative body of rule k: `neg[negStart[k] .. negStart[k+1]-1]`. */
  readonly negStart: Int32Array;
  readonly neg: Int32Array;
  /** Per cyclic rule, how many of its positive body atoms lie in its own component. */
  readonly internal: Int32Array;
  /** Component of each atom that lies on a cycle, -1 for the others. */
  readonly cycleOf: Int32Array;
  /** Rules (k) of its own component reading atom a positively: `watch[watchStart[a] .. watchStart[a+1]-1]`. */
  readonly watchStart: Int32Array;
  readonly watch: Int32Array;
  /**
   * Ranges that depend only on the state, as quintuples like {@link moveRanges}'s, their rules
   * filed under `(true F)` atoms ({@link stateTriggers}) instead of does atoms.
   */
  readonly stateRanges: Int32Array;
  /** Rules (k) of acyclic state ranges that no true atom triggers, range by range. */
  readonly statePlain: Int32Array;
  /** Rules (k) triggered by true atom a, ascending: `stateTriggers[stateTriggerStart[a] .. stateTriggerStart[a+1]-1]`. */
  readonly stateTriggerStart: Int32Array;
  readonly stateTriggers: Int32Array;
  /**
   * Ranges that depend on the joint move, as quintuples (from, to, component or -1, plainFrom,
   * plainTo): an acyclic range evaluates `plain[plainFrom .. plainTo-1]` and, of its other rules,
   * those whose trigger holds.
   */
  readonly moveRanges: Int32Array;
  /** Rules (k) of acyclic move ranges that no does atom triggers, range by range. */
  readonly plain: Int32Array;
  /** Rules (k) triggered by does atom d, ascending: `triggers[triggerStart[d] .. triggerStart[d+1]-1]`. */
  readonly triggerStart: Int32Array;
  readonly triggers: Int32Array;
  /** Heads of the move ranges (reset before every joint move). */
  readonly moveHeads: Int32Array;
}

/** The rules in evaluation order as flat arrays (the {@link CompiledRules} fields read per rule). */
type FlatRules = Pick<CompiledRules, 'head' | 'posStart' | 'pos' | 'negStart' | 'neg'>;

/** The rules `order` of `g` (evaluation order) as flat arrays, bodies as they are. */
function flatRules(g: AtomGraph, order: Int32Array): FlatRules {
  const { heads, starts, negAt, lits } = g.rules;
  const k0 = order.length;
  const head = new Int32Array(k0);
  const posStart = new Int32Array(k0 + 1);
  const negStart = new Int32Array(k0 + 1);
  for (let k = 0; k < k0; k++) {
    const r = order[k]!;
    head[k] = heads[r]!;
    posStart[k + 1] = posStart[k]! + negAt[r]! - starts[r]!;
    negStart[k + 1] = negStart[k]! + starts[r + 1]! - negAt[r]!;
  }
  const pos = new Int32Array(posStart[k0]!);
  const neg = new Int32Array(negStart[k0]!);
  for (let k = 0; k < k0; k++) {
    const r = order[k]!;
    pos.set(lits.subarray(starts[r]!, negAt[r]!), posStart[k]!);
    neg.set(lits.subarray(negAt[r]!, starts[r + 1]!), negStart[k]!);
  }
  return { head, posStart, pos, negStart, neg };
}

/** The rules in evaluation order and the ranges: each strongly connected component's rules contiguous, bodies first. */
interface Ordered {
  readonly order: Int32Array;
  readonly cycleOf: Int32Array;
  readonly stateRanges: number[];
  readonly moveRanges: number[];
  readonly moveHeads: number[];
}

/**
 * Orders the rules of `g` by component (Tarjan lists a component after everything it feeds; bodies
 * must come first), the components that depend only on the state before those that depend on the
 * joint move: no state atom reads a move atom, so that order keeps bodies first, and the state's
 * acyclic ranges follow one another, to be joined (ground-triggers.ts).
 */
function orderRules(g: AtomGraph, onDoes: Uint8Array, tick: () => void, check: () => void): Ordered {
  const comps = atomComponents(g, tick);
  check();
  const { byHeadStart, byHead } = g;
  const order = new Int32Array(g.rules.count);
  const out: Ordered = { order, cycleOf: new Int32Array(g.atoms).fill(-1), stateRanges: [], moveRanges: [], moveHeads: [] };
  let length = 0;
  for (const onMove of [0, 1]) {
    for (let t = comps.count - 1; t >= 0; t--) {
      tick();
      const first = comps.start[t]!;
      const last = comps.start[t + 1]!;
      if (onDoes[comps.atoms[first]!] !== onMove) continue;
      // c numbers the components in Tarjan's order reversed.
      const c = comps.count - 1 - t;
      const from = length;
      for (let j = first; j < last; j++) {
        const a = comps.atoms[j]!;
        for (let i = byHeadStart[a]!; i < byHeadStart[a + 1]!; i++) order[length++] = byHead[i]!;
      }
      if (length === from) continue;
      const cyclic = last - first > 1 || selfLoop(g, comps.atoms[first]!);
      if (cyclic) for (let j = first; j < last; j++) out.cycleOf[comps.atoms[j]!] = c;
      if (onMove === 0) out.stateRanges.push(from, length, cyclic ? c : -1, 0, 0);
      else {
        out.moveRanges.push(from, length, cyclic ? c : -1, 0, 0);
        for (let j = first; j < last; j++) out.moveHeads.push(comps.atoms[j]!);
      }
    }
  }
  return out;
}

/**
 * Compiles the rules of `game`; throws a GdlError when negation lies on a cycle, or a limit error
 * once `deadline` passes: on gt_attrition's 4.2 million rules this takes about 8 processor
 * seconds, which a mutex stage's sampling budget or a run's own limit can pass. It reads the
 * compact rules and the atoms' term ids only (ground-graph.ts), never their objects.
 */
export function compileRules(game: GroundGame, deadline: Deadline): CompiledRules {
  const what = 'compiling the ground game';
  const tick = deadlineTicker(deadline, game.file, what);
  const check = (): void => checkDeadline(deadline, game.file, what);
  const g = atomGraph(game, tick);
  const n = g.atoms;
  const onDoes = dependOnDoesGraph(g);
  check();
  const { order, cycleOf, stateRanges, moveRanges, moveHeads } = orderRules(g, onDoes, tick, check);
  const flat = flatRules(g, order);
  const { head, posStart, pos, negStart, neg } = flat;
  const internal = new Int32Array(order.length);
  const watchCount = new Int32Array(n + 1);
  check();
  for (let k = 0; k < order.length; k++) {
    tick();
    const c = cycleOf[head[k]!]!;
    if (c < 0) continue;
    for (let i = negStart[k]!; i < negStart[k + 1]!; i++) {
      if (cycleOf[neg[i]!] !== c) continue;
      const message = `ground game is not stratified: ${atomText(game, head[k]!)} depends negatively on itself`;
      throw new GdlError([diag('error', game.file, NO_POS, message)]);
    }
    for (let i = posStart[k]!; i < posStart[k + 1]!; i++) if (cycleOf[pos[i]!] === c) (internal[k]!++, watchCount[pos[i]! + 1]!++);
  }
  const watchStart = new Int32Array(n + 1);
  for (let a = 0; a < n; a++) watchStart[a + 1] = watchStart[a]! + watchCount[a + 1]!;
  const watch = new Int32Array(watchStart[n]!);
  const fill = watchStart.slice(0, n);
  for (let k = 0; k < order.length; k++) {
    const c = cycleOf[head[k]!]!;
    if (c >= 0) for (let i = posStart[k]!; i < posStart[k + 1]!; i++) if (cycleOf[pos[i]!] === c) watch[fill[pos[i]!]!++] = k;
  }
  // The does atom of a move rule: the first in its body. A state rule's true atom: the one fewest
  // state rules read (a rarely read fluent is rarely true, as a board square's piece against
  // whose turn it is); none for a game with lazy axioms, whose evaluator may set any atom.
  const onState = game.lazy === undefined ? trueAtoms(game, n) : new Uint8Array(n);
  const byMove = fileUnderTriggers(flat, moveRanges, firstOf(g.isDoes), n);
  const byState = fileUnderTriggers(flat, stateRanges, leastRead(flat, stateRanges, onState), n);
  return {
    atoms: n,
    moveRanges: byMove.ranges, plain: byMove.plain, triggerStart: byMove.triggerStart, triggers: byMove.triggers,
    stateRanges: byState.ranges, statePlain: byState.plain, stateTriggerStart: byState.triggerStart, stateTriggers: byState.triggers,
    ...flat,
    internal,
    cycleOf,
    watchStart,
    watch,
    moveHeads: Int32Array.from(moveHeads),
  };
}

/** 1 for the `(true F)` atoms of `game`'s fluents (of its `n` atoms). */
function trueAtoms(game: GroundGame, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (const f of game.vocabulary.fluents) if (f.trueId >= 0) out[f.trueId] = 1;
  return out;
}

/** Scratch space of an evaluation, allocated once per simulator. */
interface Scratch {
  readonly missing: Int32Array;
  readonly stack: Int32Array;
  /** Room for the triggered rules of a joint move. */
  readonly enabled: Int32Array;
  /** Room for the triggered rules of a state. */
  readonly stateEnabled: Int32Array;
  /** One bit per rule, all 0 between evaluations: triggered rules put in order ({@link inOrder}). */
  readonly ruleBits: Uint32Array;
}

/** Scratch space for evaluating `rules`. */
export function scratchFor(rules: CompiledRules): Scratch {
  return { missing: new Int32Array(rules.head.length), stack: new Int32Array(rules.atoms), enabled: new Int32Array(rules.triggers.length), stateEnabled: new Int32Array(rules.stateTriggers.length), ruleBits: new Uint32Array((rules.head.length + 31) >>> 5) };
}

/**
 * Decides a lazy atom (docs/lazy.md) that `val` marks {@link UNKNOWN}: sets `val[atom]` to 0 or
 * 1 and returns it. Games without lazy axioms have no such atom and never call it.
 */
export type Resolve = (atom: number) => number;

/** The value of a lazy atom not asked yet in this state. */
export const UNKNOWN = 2;

/** Whether negated atom `a` holds, asking the lazy part only now that the rule needs it. */
function negHolds(val: Uint8Array, a: number, resolve: Resolve | undefined): boolean {
  const v = val[a]!;
  return v === 1 || (v === UNKNOWN && resolve!(a) === 1);
}

/** Whether every literal of rule k holds, atoms of component `c` counted as true. */
function outsideHolds(p: CompiledRules, k: number, c: number, val: Uint8Array, resolve?: Resolve): boolean {
  for (let i = p.posStart[k]!; i < p.posStart[k + 1]!; i++) {
    const a = p.pos[i]!;
    if (val[a] === 0 && p.cycleOf[a] !== c) return false;
  }
  for (let i = p.negStart[k]!; i < p.negStart[k + 1]!; i++) if (negHolds(val, p.neg[i]!, resolve)) return false;
  return true;
}

/**
 * Least fixpoint of the cyclic range from..to of component c; the literals outside it are final:
 *   h <= b1..bn  fires once the rule's outside literals hold and its inside atoms all were derived.
 */
function evaluateCyclic(p: CompiledRules, from: number, to: number, c: number, val: Uint8Array, s: Scratch, resolve?: Resolve): void {
  const { missing, stack } = s;
  let top = 0;
  for (let k = from; k < to; k++) {
    // A rule is live when its literals outside the component hold; -1 marks it dead.
    missing[k] = outsideHolds(p, k, c, val, resolve) ? p.internal[k]! : -1;
    const h = p.head[k]!;
    if (missing[k] === 0 && val[h] === 0) (val[h] = 1), (stack[top++] = h);
  }
  countDown(p, missing, val, stack, top);
}

/** What the count-down of a cyclic component reads: rule heads, and per atom the rules of its own component that read it positively. */
interface Watches {
  readonly head: Int32Array;
  readonly watchStart: Int32Array;
  readonly watch: Int32Array;
}

/**
 * Dowling-Gallier's count-down, shared with the fast simulator: the atoms `stack[0..top-1]`
 * were just derived (marked in `derived`); each rule watching one misses one inside atom less,
 * and a live rule (missing ≥ 0) that misses none derives its head:
 *   h <= b1..bn  fires once its inside atoms all were derived.
 */
export function countDown(w: Watches, missing: Int32Array, derived: Uint8Array, stack: Int32Array, top: number): void {
  while (top > 0) {
    const a = stack[--top]!;
    for (let i = w.watchStart[a]!; i < w.watchStart[a + 1]!; i++) {
      const k = w.watch[i]!;
      if (missing[k]! <= 0 || --missing[k]! !== 0) continue;
      const h = w.head[k]!;
      if (derived[h] === 0) (derived[h] = 1), (stack[top++] = h);
    }
  }
}

/**
 * One acyclic rule over the valuation `val` (1 = holds):
 *   h <= p1..pn, not q1..qm   holds when every p holds and no q does.
 */
function fire(p: CompiledRules, k: number, val: Uint8Array, resolve?: Resolve): void {
  const h = p.head[k]!;
  if (val[h] === 1) return;
  for (let i = p.posStart[k]!; i < p.posStart[k + 1]!; i++) if (val[p.pos[i]!] === 0) return;
  for (let i = p.negStart[k]!; i < p.negStart[k + 1]!; i++) if (negHolds(val, p.neg[i]!, resolve)) return;
  val[h] = 1;
}

/**
 * Evaluates the state ranges in order over the valuation `val` (lazy atoms decided by
 * `resolve`), whose true atoms `held[0 .. count-1]` are those of the state loaded (every other
 * atom 0): per acyclic range its plain rules and the rules those true atoms trigger in it.
 */
export function evaluateState(p: CompiledRules, held: Int32Array, count: number, val: Uint8Array, s: Scratch, resolve?: Resolve): void {
  let n = 0;
  for (let j = 0; j < count; j++) {
    const a = held[j]!;
    for (let i = p.stateTriggerStart[a]!; i < p.stateTriggerStart[a + 1]!; i++) s.stateEnabled[n++] = p.stateTriggers[i]!;
  }
  const enabled = inOrder(s.stateEnabled.subarray(0, n), s.ruleBits);
  evaluateRanges(p, p.stateRanges, p.statePlain, enabled, val, s, resolve);
}

/**
 * The rule indices `ks` ascending (sorted in place; the view returned has each once when they
 * went through `bits`, one bit per rule, all 0 and left so), through the bits when they are many for the game's rules: a state may hold fluents triggering most of the
 * game's rules (blokbox_simple: a sort per state doubled its sampling's time), or only a few of
 * millions (merrills: a scan of every rule's bit per state cost more than the sort).
 */
function inOrder(ks: Int32Array, bits: Uint32Array): Int32Array {
  if (ks.length * 16 < bits.length) return ks.sort();
  for (let i = 0; i < ks.length; i++) bits[ks[i]! >>> 5]! |= 1 << (ks[i]! & 31);
  let n = 0;
  for (let w = 0; w < bits.length; w++) {
    for (let b = bits[w]!; b !== 0; b &= b - 1) ks[n++] = (w << 5) | (31 - Math.clz32(b & -b));
    bits[w] = 0;
  }
  return ks.subarray(0, n);
}

/**
 * Evaluates `ranges` (quintuples, {@link CompiledRules.moveRanges}) in order: a cyclic one whole,
 * an acyclic one its `plain` rules and those of `enabled` (ascending) that lie in it, all in rule
 * order (a joined range, ground-triggers.ts, holds components that read one another).
 */
function evaluateRanges(p: CompiledRules, ranges: Int32Array, plain: Int32Array, enabled: Int32Array, val: Uint8Array, s: Scratch, resolve?: Resolve): void {
  let next = 0;
  for (let r = 0; r < ranges.length; r += 5) {
    const from = ranges[r]!;
    const to = ranges[r + 1]!;
    const c = ranges[r + 2]!;
    if (c >= 0) evaluateCyclic(p, from, to, c, val, s, resolve);
    // Every rule plain (none filed, as merrills' state rules): the range itself, no list read.
    else if (ranges[r + 4]! - ranges[r + 3]! === to - from) for (let k = from; k < to; k++) fire(p, k, val, resolve);
    else next = evaluateMerged(p, plain, ranges[r + 3]!, ranges[r + 4]!, enabled, next, to, val, resolve);
  }
}

/**
 * Fires the plain rules `plain[i .. end-1]` and the rules `enabled[next ..]` below `to`, merged in
 * rule order; returns where `enabled` stops. The plain rules before a triggered one are found by
 * a binary search, so a run of plain rules is one loop with no comparison per rule.
 */
function evaluateMerged(p: CompiledRules, plain: Int32Array, i: number, end: number, enabled: Int32Array, next: number, to: number, val: Uint8Array, resolve?: Resolve): number {
  for (; next < enabled.length && enabled[next]! < to; next++) {
    const e = enabled[next]!;
    if (i < end && plain[i]! < e) {
      let lo = i + 1;
      let hi = end;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (plain[mid]! < e) lo = mid + 1;
        else hi = mid;
      }
      for (; i < lo; i++) fire(p, plain[i]!, val, resolve);
    }
    fire(p, e, val, resolve);
  }
  for (; i < end; i++) fire(p, plain[i]!, val, resolve);
  return next;
}

/**
 * Evaluates the move ranges in order, given the does atoms that hold: per acyclic range its
 * plain rules and the rules those does atoms trigger in it (the others cannot fire).
 */
export function evaluateMove(p: CompiledRules, does: readonly number[], val: Uint8Array, s: Scratch, resolve?: Resolve): void {
  let count = 0;
  for (const d of does) for (let i = p.triggerStart[d]!; i < p.triggerStart[d + 1]!; i++) s.enabled[count++] = p.triggers[i]!;
  // Each trigger's list is ascending already; several does atoms (one per role) need a merge.
  const triggered = s.enabled.subarray(0, count);
  const enabled = does.length > 1 ? inOrder(triggered, s.ruleBits) : triggered;
  evaluateRanges(p, p.moveRanges, p.plain, enabled, val, s, resolve);
}
