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
 * The segments of the terms `ids`, read from the table in one pass: `codes[p * n + i]` is the
 * segment code + 1 of argument `p` of term `ids[i]` (0 when it has fewer arguments), `width`
 * the largest arity, `top` the largest code. One pass, since every later pass reads these
 * typed arrays alone: assembly runs each of its loops once on large input, mostly before V8
 * has optimized them, where every table call per term and pass counted (racer4: the passes'
 * keys took 45 ms cold, 2-3 ms once optimized).
 */
function segmentCodes(terms: TermReader, ids: readonly number[]): { codes: Int32Array; width: number; top: number } {
  const n = ids.length;
  let width = 0;
  for (let i = 0; i < n; i++) width = Math.max(width, terms.arity(ids[i]!));
  const codes = new Int32Array(width * n);
  let top = -1;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const arity = terms.arity(id);
    for (let p = 0; p < arity; p++) {
      const code = segment(terms.arg(id, p), p === arity - 1);
      codes[p * n + i] = code + 1;
      if (code > top) top = code;
    }
  }
  return { codes, width, top };
}

/**
 * The rank (1 ..) of every segment in `codes` (codes + 1, 0 for none: {@link segmentCodes}),
 * indexed by segment code, and the number of ranks plus one; ranks follow the text order of the
 * segments. Constants' segments are sorted as texts (few: names repeat). Compound arguments
 * (amazons: 87,000 distinct `(play ...)` moves, whose texts were most of the sort) are sorted
 * by this module's own radix sort, one level deeper: a compound's text is never a prefix of
 * another's (its first parenthesis closes at its end), so its two segments (`... ` then `...)`)
 * are adjacent, in the order of its text; and it meets a constant's segment at the first
 * character, `(` against the constant's, which is never `(`.
 */
function segmentRanks(terms: TermReader, codes: Int32Array, top: number, depth: number): { rank: Int32Array; range: number } {
  // Sized by the largest argument, not the whole table (amazonsTorus: 2.7 million terms,
  // arguments below 0.6 million; every typed array allocated counts towards the next full collection).
  const rank = new Int32Array((top >> 1) * 2 + 2);
  const constants: number[] = [];
  const compounds: number[] = [];
  for (let k = 0; k < codes.length; k++) {
    const code = codes[k]! - 1;
    if (code < 0 || rank[code] !== 0) continue;
    const arg = code >> 1;
    if (terms.arity(arg) === 0 || depth >= MAX_NESTED) (rank[code] = 1), constants.push(code);
    else (rank[segment(arg, false)] = 1), (rank[segment(arg, true)] = 1), compounds.push(arg);
  }
  const text = (code: number): string => terms.text(code >> 1) + ((code & 1) === 1 ? ')' : ' ');
  sortByCodePoints(constants, text);
  // Constants' segments before `(` (their first character below it), then the compounds, then the rest.
  let before = 0;
  while (before < constants.length && terms.text(constants[before]! >> 1).codePointAt(0)! < OPEN) before++;
  let r = 0;
  for (let k = 0; k < before; k++) rank[constants[k]!] = ++r;
  const inner = sortTerms(terms, compounds, depth + 1);
  for (let k = 0; k < inner.length; k++) (rank[segment(inner[k]!, false)] = ++r), (rank[segment(inner[k]!, true)] = ++r);
  for (let k = before; k < constants.length; k++) rank[constants[k]!] = ++r;
  return { rank, range: r + 1 };
}

/** The code point of `(`, with which every compound term's text starts. */
const OPEN = 0x28;

/**
 * The rank of each term's group (0 ..): groups are the compound terms of one functor (keyed
 * by `(f `) and each constant alone (keyed by its text), in the text order of their keys.
 */
function groupRanks(terms: TermReader, ids: readonly number[]): Int32Array {
  // The key of each functor, by symbol (-1: none yet): few functors, read per term without a map.
  const functorKey = new Int32Array(terms.symbolCount).fill(-1);
  const texts: string[] = [];
  const keyOf = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (terms.arity(id) === 0) {
      keyOf[i] = texts.length;
      texts.push(terms.text(id));
      continue;
    }
    const f = terms.functor(id);
    if (functorKey[f] === -1) (functorKey[f] = texts.length), texts.push(`(${terms.symbolName(f)} `);
    keyOf[i] = functorKey[f]!;
  }
  const byText = sortByCodePoints(Array.from(texts, (_, k) => k), (k) => texts[k]!);
  const rankOf = new Int32Array(texts.length);
  for (let r = 0; r < byText.length; r++) rankOf[byText[r]!] = r;
  for (let i = 0; i < keyOf.length; i++) keyOf[i] = rankOf[keyOf[i]!]!;
  return keyOf;
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

/** {@link sortTermsByText} on a table whose names are plain, `depth` levels inside an atom. */
function sortTerms(terms: TermReader, ids: readonly number[], depth: number): number[] {
  if (ids.length < 2) return [...ids];
  const n = ids.length;
  const { codes, width, top } = segmentCodes(terms, ids);
  const { rank, range } = segmentRanks(terms, codes, top, depth);
  // Codes to ranks in place; a term without a position keeps 0 there, never the deciding key.
  for (let k = 0; k < codes.length; k++) if (codes[k] !== 0) codes[k] = rank[codes[k]! - 1]!;
  let order = new Int32Array(n);
  let other = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const begin = new Int32Array(Math.max(range, n) + 1);
  // Last position first.
  for (let p = width - 1; p >= 0; p--) {
    countingPass(order, codes.subarray(p * n, (p + 1) * n), range, begin, other);
    [order, other] = [other, order];
  }
  countingPass(order, groupRanks(terms, ids), n, begin, other);
  order = other;
  const out: number[] = [];
  for (let j = 0; j < n; j++) out.push(ids[order[j]!]!);
  return out;
}
