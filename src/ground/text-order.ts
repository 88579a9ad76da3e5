/**
 * Ground terms in the order of their KIF text (code point order) without sorting a million
 * strings: the order of every ground game's atoms (types.ts). Sorting the atoms' texts was the
 * largest part of assembling amazons' ground game (1.1 million texts, about 2 s).
 *
 * Why the text order decomposes. The text of `f(a1 .. an)` is `(f ` followed by the segments
 * `text(a1) + ' '`, ..., `text(an) + ')'`. No symbol name is empty or holds a space or a
 * parenthesis (the lexer ends a name there; {@link sortTermsByText} checks it and otherwise
 * sorts the texts), so:
 * - the keys `(f ` of compound terms and the texts of constants are decided against each other
 *   before either ends (a constant never starts with `(`; two keys differ before the shorter's
 *   space ends it), so they order the terms into groups, one per functor, and single constants;
 * - no segment is a proper prefix of another (a constant's text is followed by a space or `)`,
 *   which no name holds; a compound's text closes its own first parenthesis at its end), so
 *   two terms of one group compare as their lists of segments do, segment by segment, each
 *   segment by its rank among all segments in text order;
 * - two terms of one group first differ at a position both have: were all positions of the
 *   shorter equal, its last segment would end in `)` where the longer's ends in a space.
 * So the distinct segments are sorted as text (few: the arguments repeat), and the terms by a
 * radix sort over their segments' ranks, last position first, then by group.
 */
import type { TermReader } from '../datalog/terms.js';
import { sortByCodePoints } from '../gdl/terms.js';

/** A name the decomposition holds for: not empty, no space, no parenthesis. */
const PLAIN_NAME = /^[^ ()]+$/;

/** Whether every symbol name of `terms` is plain (checked once per table, not per term). */
function plainNames(terms: TermReader): boolean {
  for (let s = 0; s < terms.symbolCount; s++) if (!PLAIN_NAME.test(terms.symbolName(s))) return false;
  return true;
}

/** The segment code of argument `arg` followed by a space (`last` false) or `)` (`last` true). */
function segment(arg: number, last: boolean): number {
  return arg * 2 + (last ? 1 : 0);
}

/**
 * How deep {@link segmentRanks} sorts compound arguments by their own segments (a term nested
 * deeper has its arguments' texts sorted instead): depth is bounded so that the walk stays
 * iterative in the input, while the usual atoms (`(legal white (play 1 2 3 4 5 6))`) never reach it.
 */
const MAX_NESTED = 8;

/**
 * The rank (1 ..) of every segment used by the compound terms of `ids`, indexed by segment
 * code, and the number of ranks plus one; ranks follow the text order of the segments.
 * Constants' segments are sorted as texts (few: names repeat). Compound arguments (amazons:
 * 87,000 distinct `(play ...)` moves, whose texts were most of the sort) are sorted by this
 * module's own radix sort, one level deeper: a compound's text is never a prefix of another's
 * (its first parenthesis closes at its end), so its two segments (`... ` then `...)`) are
 * adjacent, in the order of its text; and it meets a constant's segment at the first
 * character, `(` against the constant's, which is never `(`.
 */
function segmentRanks(terms: TermReader, ids: ArrayLike<number>, depth: number): { rank: Int32Array; range: number } {
  const rank = new Int32Array(2 * (largestArgument(terms, ids) + 1));
  const codes: number[] = [];
  const compounds: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const n = terms.arity(id);
    for (let p = 0; p < n; p++) {
      const arg = terms.arg(id, p);
      const code = segment(arg, p === n - 1);
      if (rank[code] !== 0) continue;
      if (terms.arity(arg) === 0 || depth >= MAX_NESTED) (rank[code] = 1), codes.push(code);
      else (rank[segment(arg, false)] = 1), (rank[segment(arg, true)] = 1), compounds.push(arg);
    }
  }
  const text = (code: number): string => terms.text(code >> 1) + ((code & 1) === 1 ? ')' : ' ');
  sortByCodePoints(codes, text);
  // Constants' segments before `(` (their first character below it), then the compounds, then the rest.
  let before = 0;
  while (before < codes.length && terms.text(codes[before]! >> 1).codePointAt(0)! < OPEN) before++;
  let r = 0;
  for (let k = 0; k < before; k++) rank[codes[k]!] = ++r;
  for (const arg of sortTerms(terms, compounds, depth + 1)) (rank[segment(arg, false)] = ++r), (rank[segment(arg, true)] = ++r);
  for (let k = before; k < codes.length; k++) rank[codes[k]!] = ++r;
  return { rank, range: r + 1 };
}

/**
 * The largest argument id of the terms `ids` (-1 if none): the segment ranks are indexed by it,
 * and sized by it rather than by the whole table (amazonsTorus: 2.7 million terms, arguments
 * below 0.6 million; every typed array allocated counts towards the next full collection).
 */
function largestArgument(terms: TermReader, ids: ArrayLike<number>): number {
  let max = -1;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    for (let p = terms.arity(id) - 1; p >= 0; p--) max = Math.max(max, terms.arg(id, p));
  }
  return max;
}

/** The code point of `(`, with which every compound term's text starts. */
const OPEN = 0x28;

/**
 * The rank of each term's group (0 ..): groups are the compound terms of one functor (keyed
 * by `(f `) and each constant alone (keyed by its text), in the text order of their keys.
 */
function groupRanks(terms: TermReader, ids: ArrayLike<number>): Int32Array {
  const functorKey = new Map<number, number>();
  const keys: { text: string; rank: number }[] = [];
  const keyOf = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (terms.arity(id) === 0) {
      keyOf[i] = keys.length;
      keys.push({ text: terms.text(id), rank: 0 });
      continue;
    }
    const f = terms.functor(id);
    let k = functorKey.get(f);
    if (k === undefined) functorKey.set(f, (k = keys.length)), keys.push({ text: `(${terms.symbolName(f)} `, rank: 0 });
    keyOf[i] = k;
  }
  sortByCodePoints([...keys], (k) => k.text).forEach((k, r) => (k.rank = r));
  const out = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) out[i] = keys[keyOf[i]!]!.rank;
  return out;
}

/**
 * `order` (indices of `keys`) sorted stably by `keys[index]`, values `0 .. range - 1`, into
 * `out`: one counting pass (here and in compact.ts's rule sort). `begin` (at least `range + 1`
 * entries) is scratch; the passes share it and swap two orders, since every typed array
 * allocated counts towards V8's next full collection (external memory), which walks the whole heap.
 */
export function countingPass(order: Int32Array, keys: Int32Array, range: number, begin: Int32Array, out: Int32Array): void {
  begin.fill(0, 0, range + 1);
  for (let j = 0; j < order.length; j++) begin[keys[order[j]!]! + 1]!++;
  for (let v = 0; v < range; v++) begin[v + 1]! += begin[v]!;
  for (let j = 0; j < order.length; j++) out[begin[keys[order[j]!]!]!++] = order[j]!;
}

/**
 * The term ids `ids` (distinct) sorted by the code point order of their KIF text, as
 * `sortByCodePoints(ids, terms.text)` sorts them, without comparing their texts: a radix sort
 * over the ranks of their arguments' texts (the module comment says why that is the same order).
 */
export function sortTermsByText(terms: TermReader, ids: readonly number[]): number[] {
  if (ids.length < 2 || !plainNames(terms)) return sortByCodePoints([...ids], (id) => terms.text(id));
  return sortTerms(terms, ids, 0);
}

/**
 * The compound terms `ids` sorted by the text of their argument lists alone, `(a1 .. an)`, their
 * functors left out (the order of the vocabulary's moves, `(R M)`, read off their `does` or
 * `legal` atoms); `ids` must differ in their arguments. The same radix sort, without the last
 * pass by functor.
 */
export function sortByArgumentTexts(terms: TermReader, ids: readonly number[]): number[] {
  if (ids.length < 2 || !plainNames(terms)) return sortByCodePoints([...ids], (id) => `(${terms.args(id).map((a) => terms.text(a)).join(' ')})`);
  return sortTerms(terms, ids, 0, false);
}

/**
 * {@link sortTermsByText} on a table whose names are plain, `depth` levels inside an atom;
 * `byFunctor` false: by the argument lists only ({@link sortByArgumentTexts}).
 */
function sortTerms(terms: TermReader, ids: readonly number[], depth: number, byFunctor = true): number[] {
  if (ids.length < 2) return [...ids];
  const { rank, range } = segmentRanks(terms, ids, depth);
  let width = 0;
  for (const id of ids) width = Math.max(width, terms.arity(id));
  let order = new Int32Array(ids.length);
  let other = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) order[i] = i;
  const begin = new Int32Array(Math.max(range, ids.length) + 1);
  // Last position first; a term without that position takes 0, never the deciding key.
  const keys = new Int32Array(ids.length);
  for (let p = width - 1; p >= 0; p--) {
    for (let i = 0; i < ids.length; i++) {
      const n = terms.arity(ids[i]!);
      keys[i] = p < n ? rank[segment(terms.arg(ids[i]!, p), p === n - 1)]! : 0;
    }
    countingPass(order, keys, range, begin, other);
    [order, other] = [other, order];
  }
  if (byFunctor) {
    countingPass(order, groupRanks(terms, ids), ids.length, begin, other);
    order = other;
  }
  return Array.from(order, (i) => ids[i]!);
}
