/**
 * The WebAssembly propagator's counters (wasm-propagate.ts): how wide its unmet and support
 * arrays are, their loads and stores, and the reader entries of rules of one literal, which
 * update their head's support without a counter. Both leave every value the same as the JS
 * interpreter's (propagate.ts), so the same seeded games.
 */
import type { Net } from './net.js';
import { type Code, ld, ld16, ld8, st, st16, st8 } from './wasm-encode.js';

/** Byte addresses of the arrays in memory. */
type Layout = Readonly<Record<string, number>>;

/**
 * Bytes per element of the two counter arrays, the narrowest their values fit: a rule's unmet
 * literals are at most its literals, an atom's support at most its rules. Why: on speedChess the
 * step waits mostly on loads of reader entries and of the counters they point to (docs/play.md,
 * "speedChess's step"); its 7,248 rule counters take 7 KB as bytes instead of 29 KB, its 13,154
 * supports 26 KB instead of 53 KB, so more of them stay in a core's first-level cache.
 */
export interface Widths {
  readonly unmet: 1 | 2 | 4;
  readonly support: 1 | 2 | 4;
}

/** The narrowest width whose unsigned values reach `max`. */
const widthFor = (max: number): 1 | 2 | 4 => (max < 0x100 ? 1 : max < 0x10000 ? 2 : 4);

/** The counter widths of `net` (see {@link Widths}). */
export function widthsOf(net: Net): Widths {
  let literals = 0;
  for (let k = 0; k < net.rules; k++) literals = Math.max(literals, net.posStart[k + 1]! - net.posStart[k]! + net.negStart[k + 1]! - net.negStart[k]!);
  const rulesOf = new Int32Array(net.atoms);
  let rules = 0;
  for (let k = 0; k < net.rules; k++) rules = Math.max(rules, ++rulesOf[net.head[k]!]!);
  return { unmet: widthFor(literals), support: widthFor(rules) };
}

/** Loads and stores of an array of `bytes`-wide unsigned elements. */
function access(bytes: 1 | 2 | 4): { load: (base: number, idx: Code) => Code; store: (base: number, idx: Code, v: Code) => Code } {
  return bytes === 1 ? { load: ld8, store: st8 } : bytes === 2 ? { load: ld16, store: st16 } : { load: ld, store: st };
}

/** The counters' loads and stores over the arrays at `m`. */
export function counters(m: Layout, w: Widths) {
  const u = access(w.unmet), s = access(w.support);
  return {
    ldU: (idx: Code): Code => u.load(m.unmet!, idx),
    stU: (idx: Code, v: Code): Code => u.store(m.unmet!, idx, v),
    ldS: (idx: Code): Code => s.load(m.support!, idx),
    stS: (idx: Code, v: Code): Code => s.store(m.support!, idx, v),
  };
}

/**
 * The first word of a reader entry for reader `r` (`2k`, or `2k+1` for a negative literal): `r`,
 * or for a counted rule of one literal -2 (positive) or -1 (negative). Such a rule fires exactly
 * when its literal is satisfied, so the change of its atom updates its head's support directly
 * and its counter is never read (it keeps its first value). speedChess's nets are mostly such
 * rules (3,646 of 5,488 once copies.ts has merged the legal moves: `playerInCell`, `occupied`,
 * `hasAnyLegalMove` of each cell or move): a counter's load and store fewer per change, the same
 * supports crossing zero in the same order.
 */
export function entryOf(net: Net, r: number): number {
  const k = r >> 1;
  const literals = net.posStart[k + 1]! - net.posStart[k]! + net.negStart[k + 1]! - net.negStart[k]!;
  return net.trigger[k]! < 0 && literals === 1 ? -2 + (r & 1) : r;
}

