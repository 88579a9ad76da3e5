/**
 * The propagator of propagate.ts (in its stack order) as WebAssembly the project writes itself
 * (wasm-encode.ts): the same operations in the same order over the same arrays, which live in the module's
 * linear memory, so the same playouts, seed for seed. The JS side reads the values and the
 * outputs (legal lists, next bits) through typed-array views on that memory. Why: the
 * interpreter's loop in JS pays a bounds check and a type check per typed-array access, and
 * code generated as JS per net was slower still (docs/play.md, "Generated updates"); compiled
 * WebAssembly has neither, and its code is compiled once, with no type feedback to wait for.
 * Only nets without cyclic components (recursive axioms) are compiled; the others, and
 * platforms that refuse WebAssembly, keep the JS interpreter.
 */
import type { Frames } from './frames.js';
import type { Net } from './net.js';
import { frameArrays, successorCode } from './wasm-frames.js';
import { type Widths, counters } from './wasm-counters.js';
import type { Outputs } from './propagate.js';
import {
  type Code, type WasmFunction, add, and, c, call, ctz, eq, eqz, geS, get, gget, gset, gtS, ld, ld8, ltS, ne, or, ret, seq, set, shl, shrS, shrU, st, st8, sub, when, whileDo, xor,
} from './wasm-encode.js';

/** Byte addresses of the arrays in memory. */
interface Layout {
  readonly [array: string]: number;
}

/** Lays the arrays out one after the other from byte `base`, each 4-byte aligned: (name, elements, bytes per element). */
export function layout(arrays: readonly (readonly [string, number, number])[], base: number): { at: Layout; bytes: number } {
  const at: Record<string, number> = {};
  let next = base;
  for (const [name, count, size] of arrays) {
    at[name] = next;
    next += (count * size + 3) & ~3;
  }
  return { at, bytes: next };
}

// Function indices, in the order of `functions` below, from the net's first (`fo`); globals:
// (unused), the stack's size (shared by a group's nets: the stack is empty between calls), then
// each net's fired count.
const SCHEDULE = 0, ARM = 1, SUPPORT_CHANGED = 2, CHANGE = 3, PROPAGATE = 4, SET_INPUT = 5, HOLDS = 6, FIRE = 7, UNFIRE = 8, PLAY = 11, ADVANCE = 12, SUCCESSOR = 14;
const SIZE = 1;

/** Adds one to local l. */
const inc = (l: number): Code => set(l, add(get(l), c(1)));
/** The bit of position x mod 32. */
const bit = (x: Code): Code => shl(c(1), and(x, c(31)));

/** The operations of propagate.ts as macros over the arrays at `m` (see the comment inside). */
function macros(m: Layout, w: Widths) {
  const { ldU, stU, ldS, stS } = counters(m, w);
  // The small operations are macros, written out where they are used (the engine's own inlining
  // of WebAssembly calls is not to be relied on): each names the locals it reads and the first
  // of the locals it may use.
  /** Pushes atom `cc` (local) on the stack of atoms to settle unless it is on it; local w. */
  const scheduleM = (cc: number, w: number): Code => seq(
    set(w, gget(SIZE)),
    when(eqz(ld8(m.onStack!, get(cc))), seq(st8(m.onStack!, get(cc), c(1)), st(m.stack!, get(w), get(cc)), gset(SIZE, add(get(w), c(1))))),
  );
  /** Reports the change of watched atom `a` to `v` (locals); locals l .. l+5. */
  const reportM = (a: number, v: number, l: number): Code => {
    const [r, base, cnt, at, last, f] = [l, l + 1, l + 2, l + 3, l + 4, l + 5];
    return when(eq(ld8(m.kind!, get(a)), c(1)), seq(
      set(r, ld(m.legalRole!, get(a))),
      set(base, ld(m.legalBase!, get(r))),
      when(eq(get(v), c(1)),
        seq(set(cnt, ld(m.legalCount!, get(r))), st(m.legalPos!, get(a), get(cnt)), st(m.legalList!, add(get(base), get(cnt)), get(a)), st(m.legalCount!, get(r), add(get(cnt), c(1)))),
        seq(
          set(at, ld(m.legalPos!, get(a))), set(cnt, sub(ld(m.legalCount!, get(r)), c(1))), st(m.legalCount!, get(r), get(cnt)),
          set(last, ld(m.legalList!, add(get(base), get(cnt)))), st(m.legalList!, add(get(base), get(at)), get(last)), st(m.legalPos!, get(last), get(at)),
        )),
    ), seq(set(f, ld(m.nextFluent!, get(a))), st(m.nextBits!, shrU(get(f), c(5)), xor(ld(m.nextBits!, shrU(get(f), c(5))), bit(get(f))))));
  };
  /** Arms triggered rule `k` (local); locals l, l+1. */
  const armM = (k: number, l: number): Code => {
    const [d, cnt] = [l, l + 1];
    return seq(set(d, ld(m.trigger!, get(k))), set(cnt, ld(m.armedCount!, get(d))), st(m.armedPos!, get(k), get(cnt)),
      st(m.armed!, add(ld(m.triggerStart!, get(d)), get(cnt)), get(k)), st(m.armedCount!, get(d), add(get(cnt), c(1))));
  };
  /** Disarms triggered rule `k` (local); locals l .. l+4. */
  const disarmM = (k: number, l: number): Code => {
    const [d, cnt, ts, last, pp] = [l, l + 1, l + 2, l + 3, l + 4];
    return seq(set(d, ld(m.trigger!, get(k))), set(cnt, sub(ld(m.armedCount!, get(d)), c(1))), st(m.armedCount!, get(d), get(cnt)),
      set(ts, ld(m.triggerStart!, get(d))), set(last, ld(m.armed!, add(get(ts), get(cnt)))), set(pp, ld(m.armedPos!, get(k))),
      st(m.armed!, add(get(ts), get(pp)), get(last)), st(m.armedPos!, get(last), get(pp)));
  };
  /** Head `h` (local) whose support crossed zero: pushed to be settled, or a sink's value taken (and reported); locals l .. l+8. */
  const supportChangedM = (h: number, l: number): Code => {
    const [how, v] = [l, l + 1];
    return seq(set(how, ld(m.settle!, get(h))), when(geS(get(how), c(0)), scheduleM(h, l + 2), seq(
      set(v, gtS(ldS(get(h)), c(0))),
      when(ne(get(v), ld8(m.val!, get(h))), seq(st8(m.val!, get(h), get(v)), when(eq(get(how), c(-2)), reportM(h, v, l + 3)))),
    )));
  };
  /** Support of `h` (local) up or down one into local s; a crossing of zero settles h (locals l .. l+8). */
  const support = (h: number, s: number, up: boolean, l: number): Code =>
    seq(set(s, (up ? add : sub)(ldS(get(h)), c(1))), stS(get(h), get(s)), when(up ? eq(get(s), c(1)) : eqz(get(s)), supportChangedM(h, l)));
  /** Atom `a` takes value `v` (locals): its readers' counters updated (propagate.ts's `change`); locals l .. l+20. */
  const changeM = (a: number, v: number, l: number): Code => {
    const [i, end, r, h, k, u, sv] = [l, l + 1, l + 2, l + 3, l + 4, l + 5, l + 6];
    return seq(
      st8(m.val!, get(a), get(v)),
      when(ne(ld8(m.kind!, get(a)), c(0)), reportM(a, v, l + 7)),
      set(i, shl(ld(m.readStart!, get(a)), c(1))), set(end, shl(ld(m.readStart!, add(get(a), c(1))), c(1))),
      whileDo(ltS(get(i), get(end)),
        set(r, ld(m.entries!, get(i))), set(h, ld(m.entries!, add(get(i), c(1)))), set(k, shrS(get(r), c(1))),
        // A rule of one literal (entry -2, or -1 for a negative one; see `entryOf`) fires exactly
        // when its literal is satisfied: its head's support changes without a counter.
        when(ltS(get(r), c(0)),
          when(eq(xor(get(v), and(get(r), c(1))), c(1)), support(h, sv, true, l + 7), support(h, sv, false, l + 7)),
          when(eq(xor(get(v), and(get(r), c(1))), c(1)),
            seq(set(u, sub(ldU(get(k)), c(1))), stU(get(k), get(u)),
              when(eqz(get(u)), when(ltS(get(h), c(0)), armM(k, l + 16), support(h, sv, true, l + 7)))),
            seq(set(u, ldU(get(k))), stU(get(k), add(get(u), c(1))),
              when(eqz(get(u)), when(ltS(get(h), c(0)), disarmM(k, l + 16), support(h, sv, false, l + 7)))))),
        set(i, add(get(i), c(2)))),
    );
  };
  return { scheduleM, armM, supportChangedM, support, changeM };
}

/** A net's sizes, for the initial settling and the step. */
interface NetSizes {
  readonly rules: number;
  readonly atoms: number;
  readonly words: number;
  readonly frames: Frames | undefined;
  readonly widths: Widths;
}

/**
 * A net's functions over its arrays at `m` (`n` its sizes for the initial settling), placed from
 * index `fo` of the module, its fired count in global `fired`.
 */
export function functions(m: Layout, n: NetSizes, fo: number, fired: number): WasmFunction[] {
  const { scheduleM, armM, supportChangedM, support, changeM } = macros(m, n.widths);
  const { stU, ldS, stS } = counters(m, n.widths);
  const schedule = scheduleM(0, 1);
  const arm = armM(0, 1);
  const supportChanged = supportChangedM(0, 1);
  const change = changeM(0, 1, 2);
  // propagate(): a 1, v 2, change's 7 .. 27 (0, 3 .. 6 unused).
  const popM = seq(
    gset(SIZE, sub(gget(SIZE), c(1))),
    set(1, ld(m.stack!, gget(SIZE))),
    st8(m.onStack!, get(1), c(0)),
  );
  const propagate = whileDo(gtS(gget(SIZE), c(0)), popM, set(2, gtS(ldS(get(1)), c(0))),
    when(ne(get(2), ld8(m.val!, get(1))), changeM(1, 2, 7)));
  const setInput = when(ne(ld8(m.val!, get(0)), get(1)), call(fo + CHANGE, get(0), get(1)));
  // holds(k 0): i 1, end 2.
  const holds = seq(
    set(1, ld(m.posStart!, get(0))), set(2, ld(m.posStart!, add(get(0), c(1)))),
    whileDo(ltS(get(1), get(2)), when(eqz(ld8(m.val!, ld(m.pos!, get(1)))), ret(c(0))), inc(1)),
    set(1, ld(m.negStart!, get(0))), set(2, ld(m.negStart!, add(get(0), c(1)))),
    whileDo(ltS(get(1), get(2)), when(ne(ld8(m.val!, ld(m.neg!, get(1))), c(0)), ret(c(0))), inc(1)),
    c(1),
  );
  // fire(d 0): i 1, end 2, k 3, h 4, s 5, n 6.
  const fire = seq(set(1, ld(m.triggerStart!, get(0))), set(2, add(get(1), ld(m.armedCount!, get(0)))),
    whileDo(ltS(get(1), get(2)), set(3, ld(m.armed!, get(1))),
      when(call(fo + HOLDS, get(3)), seq(set(6, gget(fired)), st(m.fired!, get(6), get(3)), gset(fired, add(get(6), c(1))), set(4, ld(m.head!, get(3))), support(4, 5, true, 7))),
      inc(1)));
  // unfire(): i 0, n 1, h 2, s 3.
  const unfire = seq(set(1, gget(fired)), whileDo(ltS(get(0), get(1)), set(2, ld(m.head!, ld(m.fired!, get(0)))), support(2, 3, false, 4), inc(0)), gset(fired, c(0)));
  // init(): k 0, comp 1, a 2, n 3 (every atom false, then settled: createPropagator's start).
  const init = seq(
    whileDo(ltS(get(0), c(n.rules)), set(3, ld(m.countedPos!, get(0))), stU(get(0), get(3)),
      when(eqz(get(3)), when(geS(ld(m.trigger!, get(0)), c(0)), call(fo + ARM, get(0)), seq(set(2, ld(m.head!, get(0))), stS(get(2), add(ldS(get(2)), c(1)))))),
      inc(0)),
    whileDo(ltS(get(1), c(n.atoms)), when(geS(ld(m.settle!, get(1)), c(0)), call(fo + SCHEDULE, get(1))), inc(1)),
    set(2, c(0)),
    whileDo(ltS(get(2), c(n.atoms)), when(and(ltS(ld(m.settle!, get(2)), c(0)), gtS(ldS(get(2)), c(0))), call(fo + SUPPORT_CHANGED, get(2))), inc(2)),
    call(fo + PROPAGATE),
  );
  return [
    { params: 1, result: false, locals: 1, body: schedule },
    { params: 1, result: false, locals: 2, body: arm },
    { params: 1, result: false, locals: 9, body: supportChanged },
    { params: 2, result: false, locals: 21, body: change },
    { params: 0, result: false, locals: 28, body: propagate, export: 'propagate' },
    { params: 2, result: false, locals: 0, body: setInput, export: 'setInput' },
    { params: 1, result: true, locals: 2, body: holds },
    { params: 1, result: false, locals: 15, body: fire, export: 'fire' },
    { params: 0, result: false, locals: 13, body: unfire, export: 'unfire' },
    { params: 0, result: false, locals: 4, body: init, export: 'init' },
    { params: 0, result: false, locals: 0, body: gset(fired, c(0)), export: 'resetFired' },
    ...stepFunctions(m, n.words, fo),
    { params: 1, result: false, locals: 11, body: successorCode(m, n.words, n.frames), export: 'successor' },
    // playNext(roles): play, then the successor (the step of a net per control fluent, one call).
    { params: 1, result: true, locals: 1, body: seq(set(1, call(fo + PLAY, get(0))), call(fo + SUCCESSOR, get(1)), get(1)), export: 'playNext' },
  ];
}

/**
 * The step of charge.ts's loops (`chargeOneNet`, `chargeTurns`) over `chosen`, `doesOn`,
 * `loaded` and `scratch` in memory, so that a step is one or two calls from JS, not one per
 * atom set: `play(roles)` sets the does atoms of the joint move `chosen` (each once), fires
 * them and settles, returning how many it set (`doesOn[0 .. n-1]`); `advance(n)` withdraws
 * them and loads the successor in `scratch` by its differences from `loaded` (watched fluents
 * only) and settles; `step(roles)` is both, with the successor made by `successor` (wasm-frames.ts).
 */
function stepFunctions(m: Layout, words: number, fo: number): WasmFunction[] {
  // play(roles 0): r 1, set 2, d 3, i 4.
  const play = seq(
    whileDo(ltS(get(1), get(0)), set(3, ld(m.doesOf!, ld(m.chosen!, get(1)))),
      when(geS(get(3), c(0)), when(eqz(ld8(m.val!, get(3))), seq(call(fo + CHANGE, get(3), c(1)), st(m.doesOn!, get(2), get(3)), inc(2)))),
      inc(1)),
    whileDo(ltS(get(4), get(2)), call(fo + FIRE, ld(m.doesOn!, get(4))), inc(4)),
    call(fo + PROPAGATE),
    get(2),
  );
  // advance(count 0): i 1, w 2, now 3, diff 4, b 5, atom 6.
  const advance = seq(
    call(fo + UNFIRE),
    whileDo(ltS(get(1), get(0)), call(fo + SET_INPUT, ld(m.doesOn!, get(1)), c(0)), inc(1)),
    whileDo(ltS(get(2), c(words)),
      set(3, ld(m.scratch!, get(2))),
      set(4, and(xor(ld(m.loaded!, get(2)), get(3)), ld(m.watched!, get(2)))),
      whileDo(ne(get(4), c(0)),
        set(5, ctz(get(4))), set(6, ld(m.trueAtom!, or(shl(get(2), c(5)), get(5)))),
        when(geS(get(6), c(0)), call(fo + SET_INPUT, get(6), and(shrU(get(3), get(5)), c(1)))),
        set(4, and(get(4), sub(get(4), c(1))))),
      st(m.loaded!, get(2), get(3)),
      inc(2)),
    call(fo + PROPAGATE),
  );
  // step(roles 0): set 1.
  const step = seq(set(1, call(fo + PLAY, get(0))), call(fo + SUCCESSOR, get(1)), call(fo + ADVANCE, get(1)), get(1));
  return [
    { params: 1, result: true, locals: 4, body: play, export: 'play' },
    { params: 1, result: false, locals: 6, body: advance, export: 'advance' },
    { params: 1, result: true, locals: 1, body: step, export: 'step' },
  ];
}

/** The arrays of `net` and `out` in memory: (name, elements, bytes per element). */
export function arraysOf(net: Net, out: Outputs, t: StepTables, w: Widths): [string, number, number][] {
  const state = out.nextBits.length;
  return [
    ['entries', 2 * net.readers.length, 4], ['readStart', net.atoms + 1, 4], ['settle', net.atoms, 4], ['kind', net.atoms, 1],
    ['legalRole', net.atoms, 4], ['legalBase', out.legalBase.length, 4], ['nextFluent', net.atoms, 4],
    ['head', net.rules, 4], ['posStart', net.rules + 1, 4], ['pos', net.pos.length, 4], ['negStart', net.rules + 1, 4], ['neg', net.neg.length, 4],
    ['trigger', net.rules, 4], ['triggerStart', net.atoms + 1, 4], ['countedPos', net.rules, 4],
    // The stack of atoms to settle is empty (and onStack all 0) whenever the net is settled: before `val`, outside what save copies.
    ['stack', net.atoms, 4], ['onStack', net.atoms, 1],
    ['val', net.atoms, 1], ['unmet', net.rules, w.unmet], ['support', net.atoms, w.support],
    ['armed', net.triggers.length, 4], ['armedCount', net.atoms, 4], ['armedPos', net.rules, 4], ['fired', net.triggers.length, 4],
    ['legalCount', out.legalCount.length, 4], ['legalList', out.legalList.length, 4], ['legalPos', out.legalPos.length, 4], ['nextBits', state, 4],
    ['doesOf', t.doesOf.length, 4], ['trueAtom', t.trueAtom.length, 4], ['watched', state, 4], ['loaded', state, 4], ['scratch', state, 4],
    ['chosen', t.roles, 4], ['doesOn', t.roles, 4],
    // For the restart inside the playout's call (wasm-charge.ts): the initial state, and per fluent what changing it costs.
    ['init', t.init === undefined ? 0 : state, 4], ['fluentCost', t.fluentCost?.length ?? 0, 4],
    ...frameArrays(t.frames),
  ];
}

/** What a head does when its support crosses zero (propagate.ts's `settle`): its component, or a sink's -1 (unwatched) or -2 (reported). */
export function settleOf(net: Net, out: Outputs): Int32Array {
  const settle = new Int32Array(net.atoms);
  for (let a = 0; a < net.atoms; a++) {
    const unread = net.readStart[a + 1] === net.readStart[a] && net.cycleReadStart[a + 1] === net.cycleReadStart[a];
    const sink = unread && net.cyclic[net.comp[a]!] === 0;
    settle[a] = !sink ? net.comp[a]! : out.kind[a] === 0 ? -1 : -2;
  }
  return settle;
}

/** What the step of a playout reads besides the net (charge.ts's `ChargeGame` and `Machine.watched`). */
export interface StepTables {
  readonly roles: number;
  /** The terminal atom (-1 or absent: none), for the playout in one call (wasm-charge.ts). */
  readonly terminal?: number;
  /** Per legal atom, its does atom (-1 for none). */
  readonly doesOf: Int32Array;
  /** Per fluent, its true atom (-1 for none). */
  readonly trueAtom: Int32Array;
  /** The fluents whose true atom something reads. */
  readonly watched: Uint32Array;
  /** The fluents whose successor frames.ts computes, if any. */
  readonly frames: Frames | undefined;
  /** The initial state and charge.ts's `Machine.fluentCost`, for the restart inside the playout's call (absent: no such restart). */
  readonly init?: Uint32Array;
  readonly fluentCost?: Int32Array;
}

