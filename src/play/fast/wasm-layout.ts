/**
 * Where the WebAssembly propagator's arrays lie in its memory (wasm-propagate.ts): the net's
 * tables, the values that change (saved and restored as one range), the step's arrays and the
 * frames'; and the atoms' records, numbered by component (docs/play.md, "Atoms by component").
 */
import type { Frames } from './frames.js';
import type { Net } from './net.js';
import type { Outputs } from './propagate.js';
import { frameArrays } from './wasm-frames.js';

/** Byte addresses of the arrays in memory. */
export interface Layout {
  readonly [array: string]: number;
}

/** Lays the arrays out one after the other, each at a cache line (64 bytes): (name, elements, bytes per element). */
export function layout(arrays: readonly (readonly [string, number, number])[]): { at: Layout; bytes: number } {
  const at: Record<string, number> = {};
  let next = 64;
  for (const [name, count, size] of arrays) {
    at[name] = next;
    next += (count * size + 63) & ~63;
  }
  return { at, bytes: next };
}

/** The arrays of `net` and `out` in memory: (name, elements, bytes per element). From `val` to `nextBits` they change, and are saved and restored. */
export function arraysOf(net: Net, out: Outputs, t: StepTables): [string, number, number][] {
  const words = (net.components + 31) >>> 5;
  const state = out.nextBits.length;
  return [
    ['entries', 2 * net.readers.length, 4], ['rec', 4 * net.atoms, 4], ['legalBase', out.legalBase.length, 4],
    ['head', net.rules, 4], ['posStart', net.rules + 1, 4], ['pos', net.pos.length, 4], ['negStart', net.rules + 1, 4], ['neg', net.neg.length, 4],
    ['trigger', net.rules, 4], ['triggerStart', net.atoms + 1, 4], ['countedPos', net.rules, 4], ['newOf', net.atoms, 4],
    ['val', net.atoms, 1], ['dyn', 2 * net.atoms, 4], ['unmet', net.rules, 4], ['queued', words, 4], ['summary', (words + 31) >>> 5, 4],
    ['armed', net.triggers.length, 4], ['armedCount', net.atoms, 4], ['armedPos', net.rules, 4], ['fired', net.triggers.length, 4],
    ['legalCount', out.legalCount.length, 4], ['legalList', out.legalList.length, 4], ['legalPos', out.legalPos.length, 4], ['nextBits', state, 4],
    ['doesOf', t.doesOf.length, 4], ['trueAtom', t.trueAtom.length, 4], ['watched', state, 4], ['loaded', state, 4], ['scratch', state, 4],
    ['chosen', t.roles, 4], ['doesOn', t.roles, 4],
    ...frameArrays(t.frames),
  ];
}

/**
 * Per atom by component (the net acyclic: component c has the one atom `compAtoms[compAtomStart[c]]`),
 * its static record `[2 readStart, 2 readEnd, game number, how]` (wasm-propagate.ts's START .. HOW), and per
 * atom of the game its component.
 */
export function records(net: Net, out: Outputs): { rec: Int32Array; newOf: Int32Array } {
  const rec = new Int32Array(4 * net.atoms);
  const newOf = Int32Array.from(net.comp);
  for (let n = 0; n < net.atoms; n++) {
    const a = net.compAtoms[net.compAtomStart[n]!]!;
    const sink = net.readStart[a + 1] === net.readStart[a] ? 1 : 0;
    const kind = out.kind[a]!;
    const payload = kind === 1 ? out.legalRole[a]! : kind === 2 ? out.nextFluent[a]! : 0;
    rec.set([2 * net.readStart[a]!, 2 * net.readStart[a + 1]!, a, (payload << 3) | (kind << 1) | sink], 4 * n);
  }
  return { rec, newOf };
}

/** What the step of a playout reads besides the net (charge.ts's `ChargeGame` and `Machine.watched`). */
export interface StepTables {
  readonly roles: number;
  /** Per legal atom, its does atom (-1 for none). */
  readonly doesOf: Int32Array;
  /** Per fluent, its true atom (-1 for none). */
  readonly trueAtom: Int32Array;
  /** The fluents whose true atom something reads. */
  readonly watched: Uint32Array;
  /** The fluents whose successor frames.ts computes, if any. */
  readonly frames: Frames | undefined;
}

