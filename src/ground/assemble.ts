/**
 * The one canonicalization of a ground game (the contract of {@link GroundGame}): atoms in text
 * order (code point order) and renumbered, rule bodies ascending without duplicates, rules
 * sorted and unique, so that the same game always gives the same ground game, byte for byte.
 * Instantiation ends with it ({@link assembleGame}), reading its rules from the compact buffer
 * it made them in (rule-buffer.ts); pruning and unused-instance removal only restrict a game
 * already canonical (restrict.ts).
 */
import { Deadline } from '../deadline.js';
import { checkDeadline, deadlineTicker } from '../gdl/diagnostics.js';
import type { TermReader, TermTable } from '../datalog/terms.js';
import type { RuleBuffer } from './rule-buffer.js';
import { vocabularyOfTerms } from './vocabulary.js';
import { type CompactRules, gameWithRules } from './compact.js';
import { countingPass, sortTermsByText } from './text-order.js';
import type { GroundGame, GroundRule, LazyPart } from './types.js';

const NONE: readonly number[] = Object.freeze([]);

/** Lexicographic order of two ascending id lists. */
function compareLists(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Rules by head, then positive body, then negative body. */
export function compareRules(a: GroundRule, b: GroundRule): number {
  return a.head - b.head || compareLists(a.pos, b.pos) || compareLists(a.neg, b.neg);
}

/** What {@link canonicalGame} builds from: rules and init over some atom keys. */
interface GameDraft {
  readonly file: string;
  readonly terms: TermReader;
  /** Role term ids, in description order. */
  readonly roles: readonly number[];
  /** The term ids of all atoms used, already in text order (code point order). */
  readonly atomTerms: readonly number[];
  /** The new atom id (index into `atomTerms`) of each term id used in `init` and `rules`. */
  readonly renumber: Int32Array;
  readonly init: readonly number[];
  readonly rules: RuleBuffer;
  /** The lazy part (docs/lazy.md), handed on unchanged (its ids are term ids). */
  readonly lazy?: LazyPart;
}

/** Maps keys to new ids, ascending, duplicates dropped. */
function ascending(ids: readonly number[], renumber: Int32Array): readonly number[] {
  if (ids.length === 0) return NONE;
  const out = ids.map((id) => renumber[id]!);
  out.sort((x, y) => x - y);
  let n = 1;
  for (let i = 1; i < out.length; i++) if (out[i] !== out[n - 1]) out[n++] = out[i]!;
  out.length = n;
  return out;
}

/**
 * Sorts `lits[from .. to - 1]` ascending and drops duplicates in place; returns the new end.
 * Bodies are short: an insertion sort, the typed array's own sort for long ones.
 */
function sortRange(lits: Int32Array, from: number, to: number): number {
  if (to - from > 16) lits.subarray(from, to).sort();
  else {
    for (let i = from + 1; i < to; i++) {
      const x = lits[i]!;
      let j = i - 1;
      for (; j >= from && lits[j]! > x; j--) lits[j + 1] = lits[j]!;
      lits[j + 1] = x;
    }
  }
  if (to - from < 2) return to;
  let n = from + 1;
  for (let i = from + 1; i < to; i++) if (lits[i] !== lits[n - 1]) lits[n++] = lits[i]!;
  return n;
}

/** Renumbers (`renumber`) the literals of rule `i` of `buf` of one sign (`sign` 0 positive, 1 negative) into `out` from `k`, ascending; returns the end. */
function bodyInto(buf: RuleBuffer, i: number, sign: number, renumber: Int32Array, out: Int32Array, k: number): number {
  const { starts, lits } = buf;
  const from = k;
  for (let m = starts[i]!; m < starts[i + 1]!; m++) if ((lits[m]! & 1) === sign) out[k++] = renumber[lits[m]! >> 1]!;
  return sortRange(out, from, k);
}

/**
 * The sort keys of the rules of `buf` over new ids: per rule its head, and its two smallest
 * positive literals plus one (0 where the body has fewer), which are the first two literals of
 * its renumbered, ascending positive body (compact.ts's `literalKey`).
 */
function ruleKeys(buf: RuleBuffer, renumber: Int32Array, tick: () => void): { heads: Int32Array; first: Int32Array; second: Int32Array } {
  const { count, starts, lits } = buf;
  const heads = new Int32Array(count);
  const first = new Int32Array(count);
  const second = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    tick();
    heads[i] = renumber[buf.heads[i]!]!;
    let a = 0x7fffffff;
    let b = 0x7fffffff;
    for (let m = starts[i]!; m < starts[i + 1]!; m++) {
      if ((lits[m]! & 1) !== 0) continue;
      const id = renumber[lits[m]! >> 1]!;
      // A literal twice (appendRule's callers promise none) still counts once, as in the body made.
      if (id < a) (b = a), (a = id);
      else if (id > a && id < b) b = id;
    }
    first[i] = a === 0x7fffffff ? 0 : a + 1;
    second[i] = b === 0x7fffffff ? 0 : b + 1;
  }
  return { heads, first, second };
}

/** Sorts `order[from .. to - 1]` (rules of `buf` tied on their keys) by their renumbered bodies, positive then negative. */
function sortTied(buf: RuleBuffer, renumber: Int32Array, order: Int32Array, from: number, to: number): void {
  const bodies = Array.from(order.subarray(from, to), (i) => {
    const scratch = new Int32Array(buf.starts[i + 1]! - buf.starts[i]!);
    const negAt = bodyInto(buf, i, 0, renumber, scratch, 0);
    return { i, pos: [...scratch.subarray(0, negAt)], neg: [...scratch.subarray(negAt, bodyInto(buf, i, 1, renumber, scratch, negAt))] };
  });
  bodies.sort((x, y) => compareLists(x.pos, y.pos) || compareLists(x.neg, y.neg));
  bodies.forEach((b, k) => (order[from + k] = b.i));
}

/**
 * The rules of `buf` over new ids (`renumber`, below `atoms`), bodies ascending without
 * duplicates, sorted by head, then bodies, each kept once: compact.ts's `canonicalRules` of
 * them, made without first copying them renumbered in the buffer's order (a third array of
 * every literal, written and read back; hex: a fifth of its assembly). The same stable
 * counting passes on the same keys ({@link ruleKeys}), the rare runs they leave tied sorted
 * by their bodies ({@link sortTied}), then one copy in that order, renumbering each body.
 */
function canonicalBufferRules(buf: RuleBuffer, renumber: Int32Array, atoms: number, tick: () => void): CompactRules {
  const count = buf.count;
  const keys = ruleKeys(buf, renumber, tick);
  let order = new Int32Array(count);
  let other = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  const begin = new Int32Array(atoms + 2);
  countingPass(order, keys.second, atoms + 1, begin, other);
  countingPass(other, keys.first, atoms + 1, begin, order);
  countingPass(order, keys.heads, atoms, begin, other);
  [order, other] = [other, order];
  const { heads: h, first, second } = keys;
  for (let from = 0; from < count; ) {
    const x = order[from]!;
    let to = from + 1;
    while (to < count && h[order[to]!] === h[x] && first[order[to]!] === first[x] && second[order[to]!] === second[x]) to++;
    if (to - from > 1) sortTied(buf, renumber, order, from, to);
    from = to;
  }
  return copyRenumbered(buf, renumber, h, order, tick);
}

/** The rules of `buf` in `order` over new ids (`heads` already renumbered), each kept once (equal rules are adjacent in `order`). */
function copyRenumbered(buf: RuleBuffer, renumber: Int32Array, renumberedHeads: Int32Array, order: Int32Array, tick: () => void): CompactRules {
  const count = buf.count;
  const heads = new Int32Array(count);
  const starts = new Int32Array(count + 1);
  const negAt = new Int32Array(count);
  const lits = new Int32Array(buf.starts[count]!);
  let n = 0;
  let k = 0;
  for (let j = 0; j < count; j++) {
    tick();
    const i = order[j]!;
    const neg = bodyInto(buf, i, 0, renumber, lits, k);
    const end = bodyInto(buf, i, 1, renumber, lits, neg);
    if (n > 0 && heads[n - 1] === renumberedHeads[i] && sameRanges(lits, starts[n - 1]!, negAt[n - 1]!, k, neg) && sameRanges(lits, negAt[n - 1]!, k, neg, end)) continue;
    heads[n] = renumberedHeads[i]!;
    starts[n] = k;
    negAt[n] = neg;
    k = end;
    n++;
  }
  starts[n] = k;
  return { count: n, heads: heads.subarray(0, n), starts: starts.subarray(0, n + 1), negAt: negAt.subarray(0, n), lits: lits.subarray(0, k) };
}

/** Whether `lits[a0 .. a1 - 1]` and `lits[b0 .. b1 - 1]` are equal. */
function sameRanges(lits: Int32Array, a0: number, a1: number, b0: number, b1: number): boolean {
  if (a1 - a0 !== b1 - b0) return false;
  for (let i = 0; i < a1 - a0; i++) if (lits[a0 + i] !== lits[b0 + i]) return false;
  return true;
}

/** Marks (1) every atom that `init` or a rule of `buf` mentions, over `count` atoms. */
function usedInBuffer(count: number, init: readonly number[], buf: RuleBuffer): Uint8Array {
  const used = new Uint8Array(count);
  for (const id of init) used[id] = 1;
  for (let i = 0; i < buf.count; i++) used[buf.heads[i]!] = 1;
  const end = buf.starts[buf.count]!;
  for (let k = 0; k < end; k++) used[buf.lits[k]! >> 1] = 1;
  return used;
}

/**
 * The canonical ground game of a draft whose atoms are already in text order; past a limit of
 * `deadline` (looked at per atom and rule, and after the sort) it throws a limit error.
 */
function canonicalGame(draft: GameDraft, deadline: Deadline): GroundGame {
  const { terms, renumber } = draft;
  const tick = deadlineTicker(deadline, draft.file, 'building the ground game');
  // Atoms as term ids: their objects are made only if a reader asks for them (compact.ts).
  const atoms = Int32Array.from(draft.atomTerms);
  // Rules that became equal (negations resolved late) are kept once.
  const rules = canonicalBufferRules(draft.rules, renumber, atoms.length, tick);
  checkDeadline(deadline, draft.file, 'building the ground game');
  // The vocabulary is made here, once, so that no reader of the game classifies its atoms again.
  const vocabulary = vocabularyOfTerms(terms, atoms);
  const fields = { file: draft.file, terms, roles: draft.roles, init: ascending(draft.init, renumber), vocabulary };
  return gameWithRules(draft.lazy === undefined ? fields : { ...fields, lazy: draft.lazy }, atoms, rules);
}

/**
 * Builds the ground game from internal ids: `roles` are term ids (in description order),
 * `init` atom ids of `(true F)`, `drafts` the ground rules, all over term ids of `table`.
 * Past a limit of `deadline` it throws a limit error.
 */
export function assembleGame(
  file: string,
  table: TermTable,
  roles: readonly number[],
  init: readonly number[],
  drafts: RuleBuffer,
  deadline: Deadline,
  lazy?: LazyPart,
): GroundGame {
  const tick = deadlineTicker(deadline, file, 'building the ground game');
  // Term ids are dense (0 .. table.size - 1): a byte per term marks the atoms used.
  const used = usedInBuffer(table.size, init, drafts);
  // The heads lazy rules may make are atoms of the game though no ground rule makes them.
  for (const h of lazy?.heads ?? []) used[h] = 1;
  const usedIds: number[] = [];
  for (let id = 0; id < used.length; id++) {
    if (used[id] === 0) continue;
    tick();
    usedIds.push(id);
  }
  const atomTerms = sortTermsByText(table, usedIds);
  checkDeadline(deadline, file, 'building the ground game');
  const renumber = new Int32Array(table.size).fill(-1);
  for (let i = 0; i < atomTerms.length; i++) renumber[atomTerms[i]!] = i;
  return canonicalGame({ file, terms: table, roles: [...roles], atomTerms, renumber, init, rules: drafts, ...(lazy === undefined ? {} : { lazy }) }, deadline);
}
