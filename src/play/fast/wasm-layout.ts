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

/**
 * Lays the arrays out one after the other, each 4-byte aligned, one of a kilobyte or more at a
 * cache line (64 bytes): (name, elements, bytes per element). Not all at cache lines: the small
 * nets restart by copying the range of values, which padding would lengthen.
 */
export function layout(arrays: readonly (readonly [string, number, number])[]): { at: Layout; bytes: number } {
  const at: Record<string, number> = {};
  let next = 64;
  for (const [name, count, size] of arrays) {
    const bytes = (count * size + 3) & ~3;
    if (bytes >= 1024) next = (next + 63) & ~63;
    at[name] = next;
    next += bytes;
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
    ['trigger', net.rules, 4], ['triggerStart', net.atoms + 1, 4], ['countedPos', net.rules, 4], ['newOf', net.atoms, 4], ['ruleOf', net.rules, 4],
    ['val', net.atoms, 1], ['dyn', 2 * net.atoms, 4], ['unmet', net.rules, 4], ['queued', words, 4], ['summary', (words + 31) >>> 5, 4],
    ['armed', net.triggers.length, 4], ['armedCount', net.atoms, 4], ['armedPos', net.rules, 4], ['fired', net.triggers.length, 4],
    ['legalCount', out.legalCount.length, 4], ['legalList', out.legalList.length, 4], ['legalPos', out.legalPos.length, 4], ['nextBits', state, 4],
    ['doesOf', t.doesOf.length, 4], ['trueAtom', t.trueAtom.length, 4], ['watched', state, 4], ['loaded', state, 4], ['scratch', state, 4],
    ['chosen', t.roles, 4], ['doesOn', t.roles, 4],
    ...frameArrays(t.frames),
  ];
}

/** The net's tables as the module holds them (see {@link renumbered}). */
export interface Renumbered {
  /** Per atom by component: `[2 readStart, 2 readEnd, game number, how]` (wasm-propagate.ts's START .. HOW). */
  readonly rec: Int32Array;
  /** Per atom of the game, its component. */
  readonly newOf: Int32Array;
  /** Reader entries `[4k + 2 single + sign, head or -1]` (single: the rule's one counted literal), rules and heads renumbered, each atom's block in component order. */
  readonly entries: Int32Array;
  /** Per rule of the net, its number in the module. */
  readonly ruleOf: Int32Array;
  /** Per rule in the module's order: head (by component), body (by game number), trigger, counted literals. */
  readonly head: Int32Array;
  readonly posStart: Int32Array;
  readonly pos: Int32Array;
  readonly negStart: Int32Array;
  readonly neg: Int32Array;
  readonly trigger: Int32Array;
  readonly countedPos: Int32Array;
}

/**
 * The net renumbered for the module. Atoms by component (the net acyclic: component c has the one
 * atom `compAtoms[compAtomStart[c]]`), so that the queue's numbers are atoms; each atom's reader
 * entries in its component's place, so that a propagation, which settles atoms in that order,
 * reads them forward; rules in the order of their first reader entry there, so that the counters
 * of one atom's readers lie together. Why: a step's cost on large nets is in the loads of the
 * entries and the counters (docs/play.md, "Atoms and rules by component"). The order of the
 * entries of one atom, and so the order of every operation, is the net's.
 */
export function renumbered(net: Net, out: Outputs): Renumbered {
  const rec = new Int32Array(4 * net.atoms);
  const newOf = Int32Array.from(net.comp);
  const ruleOf = new Int32Array(net.rules).fill(-1);
  const entries = new Int32Array(2 * net.readers.length);
  // A rule read by one entry (one counted literal) keeps no count: it fires exactly when that literal holds.
  const entriesOf = new Int32Array(net.rules);
  for (const r of net.readers) entriesOf[r >> 1]!++;
  let rules = 0;
  let at = 0;
  for (let n = 0; n < net.atoms; n++) {
    const a = net.compAtoms[net.compAtomStart[n]!]!;
    const from = net.readStart[a]!, to = net.readStart[a + 1]!;
    const kind = out.kind[a]!;
    const payload = kind === 1 ? out.legalRole[a]! : kind === 2 ? out.nextFluent[a]! : 0;
    rec.set([at, at + 2 * (to - from), a, (payload << 3) | (kind << 1) | (from === to ? 1 : 0)], 4 * n);
    for (let i = from; i < to; i++, at += 2) {
      const k = net.readers[i]! >> 1;
      if (ruleOf[k] === -1) ruleOf[k] = rules++;
      entries[at] = (ruleOf[k]! << 2) | (entriesOf[k] === 1 ? 2 : 0) | (net.readers[i]! & 1);
      entries[at + 1] = net.trigger[k]! >= 0 ? -1 : newOf[net.head[k]!]!;
    }
  }
  for (let k = 0; k < net.rules; k++) if (ruleOf[k] === -1) ruleOf[k] = rules++;
  return { rec, newOf, entries, ruleOf, ...rulesInOrder(net, ruleOf, newOf) };
}

/** The rules' tables in the order `ruleOf` gives them, heads by component. */
function rulesInOrder(net: Net, ruleOf: Int32Array, newOf: Int32Array): Pick<Renumbered, 'head' | 'posStart' | 'pos' | 'negStart' | 'neg' | 'trigger' | 'countedPos'> {
  const n = net.rules;
  const head = new Int32Array(n), trigger = new Int32Array(n), countedPos = new Int32Array(n);
  const oldOf = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const nk = ruleOf[k]!;
    oldOf[nk] = k;
    head[nk] = newOf[net.head[k]!]!;
    trigger[nk] = net.trigger[k]!;
    countedPos[nk] = net.countedPos[k]!;
  }
  const list = (start: Int32Array, items: Int32Array): { start: Int32Array; items: Int32Array } => {
    const s = new Int32Array(n + 1), out = new Int32Array(items.length);
    for (let nk = 0; nk < n; nk++) {
      const k = oldOf[nk]!;
      out.set(items.subarray(start[k]!, start[k + 1]!), s[nk]!);
      s[nk + 1] = s[nk]! + start[k + 1]! - start[k]!;
    }
    return { start: s, items: out };
  };
  const pos = list(net.posStart, net.pos), neg = list(net.negStart, net.neg);
  return { head, posStart: pos.start, pos: pos.items, negStart: neg.start, neg: neg.items, trigger, countedPos };
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
