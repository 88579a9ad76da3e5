/**
 * The canonical rules of a ground game (compact.ts's {@link CompactRules}: bodies ascending
 * without duplicates, rules sorted by head, then positive, then negative body, each once), made
 * from instantiation's rule buffer over the atoms' new ids in one copy. The rules used to be
 * renumbered into a first copy, then sorted and copied again (compact.ts's `canonicalRules`):
 * two copies of every literal and the sort keys read back from the first. Here the keys are
 * taken in one pass over the buffer, the counting passes sort the rule indices, only runs the
 * keys leave tied have their bodies made to be compared, and each rule is renumbered, its bodies
 * sorted, straight into its place in the one copy.
 *
 * Why the result is `canonicalRules(renumbered)` exactly. The keys are those of `canonicalRules`:
 * the renumbered head, and the smallest and second smallest distinct renumbered positive
 * literals (+ 1; 0 when the body has fewer), which are the first two literals of the sorted
 * positive body. Stable counting passes by the second, the first, then the head order the rules
 * by these keys; a run of equal keys is then sorted by its full canonical bodies. So the rules
 * come in the canonical order, which is total on distinct rules, and equal rules (equal keys)
 * are adjacent: each is written once.
 */
import { type CompactRules, compareBodies } from './compact.js';
import type { RuleBuffer } from './rule-buffer.js';
import { grow } from '../datalog/terms.js';
import { countingPass } from './text-order.js';

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

/** Rules being written: `count` of them so far, their literals up to `end`. */
interface Written {
  readonly heads: Int32Array;
  readonly starts: Int32Array;
  readonly negAt: Int32Array;
  readonly lits: Int32Array;
  count: number;
  end: number;
}

/** Rules with room for `rules` rules and `lits` literals, none written. */
function written(rules: number, lits: number): Written {
  return { heads: new Int32Array(rules), starts: new Int32Array(rules + 1), negAt: new Int32Array(rules), lits: new Int32Array(lits), count: 0, end: 0 };
}

/** Writes rule `i` of `buf` over new ids (`renumber`), bodies ascending without duplicates, as the next rule of `out`. */
function writeRule(buf: RuleBuffer, i: number, renumber: Int32Array, out: Written): void {
  const { starts: from, lits: source } = buf;
  const lits = out.lits;
  const n = out.count;
  const start = out.end;
  const end = from[i + 1]!;
  // The buffer's layout (rule-buffer.ts): the positive literals first, then the negative ones.
  let m = from[i]!;
  let k = start;
  for (; m < end && (source[m]! & 1) === 0; m++) lits[k++] = renumber[source[m]! >> 1]!;
  k = sortRange(lits, start, k);
  const negAt = k;
  for (; m < end; m++) lits[k++] = renumber[source[m]! >> 1]!;
  k = sortRange(lits, negAt, k);
  out.heads[n] = renumber[buf.heads[i]!]!;
  out.starts[n] = start;
  out.negAt[n] = negAt;
  out.starts[n + 1] = k;
  out.count = n + 1;
  out.end = k;
}

/** The sort keys of every rule of `buf`: renumbered head, first and second positive literal + 1 (0 when none). */
interface SortKeys {
  readonly heads: Int32Array;
  readonly first: Int32Array;
  readonly second: Int32Array;
}

/** The {@link SortKeys} of `buf`'s rules over new ids, in one pass and without sorting a body. */
function sortKeys(buf: RuleBuffer, renumber: Int32Array): SortKeys {
  const { count, starts, lits } = buf;
  const heads = new Int32Array(count);
  const first = new Int32Array(count);
  const second = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    heads[i] = renumber[buf.heads[i]!]!;
    // The two smallest distinct new ids of the positive body (ids are at least 0: -1 is none).
    let a = -1;
    let b = -1;
    // The positive literals come first (rule-buffer.ts).
    for (let m = starts[i]!; m < starts[i + 1]! && (lits[m]! & 1) === 0; m++) {
      const x = renumber[lits[m]! >> 1]!;
      if (a < 0 || x < a) (b = a), (a = x);
      else if (x !== a && (b < 0 || x < b)) b = x;
    }
    first[i] = a + 1;
    second[i] = b + 1;
  }
  return { heads, first, second };
}

/** Whether rules `x` and `y` have the same sort keys. */
function sameKeys(keys: SortKeys, x: number, y: number): boolean {
  return keys.heads[x] === keys.heads[y] && keys.first[x] === keys.first[y] && keys.second[x] === keys.second[y];
}

/** Rule indices of `buf` in the order of their keys (head, first, second literal), stably. */
function keyOrder(keys: SortKeys, atoms: number): Int32Array {
  const count = keys.heads.length;
  let order = new Int32Array(count);
  let other = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  const begin = new Int32Array(atoms + 2);
  countingPass(order, keys.second, atoms + 1, begin, other);
  countingPass(other, keys.first, atoms + 1, begin, order);
  countingPass(order, keys.heads, atoms, begin, other);
  return other;
}

/**
 * Scratch arrays that {@link sortWritten} reuses from run to run, grown as needed: a game sorts
 * hundreds of thousands of short runs (attritionWar: 717,739, 45,355 of them already in order),
 * and arrays made per run cost more than the sorts.
 */
interface Scratch {
  /** Compares two rules of the run by their bodies (made once: one closure, not one per run). */
  readonly byBodies: (x: number, y: number) => number;
  order: Int32Array<ArrayBuffer>;
  duplicate: Uint8Array;
  starts: Int32Array<ArrayBuffer>;
  negAt: Int32Array<ArrayBuffer>;
  lits: Int32Array<ArrayBuffer>;
}

/**
 * Sorts the rules `first ..` of `out` (written last: one run of equal keys, so one head) by
 * their bodies in place, each kept once (equal rules are adjacent once sorted).
 */
function sortWritten(out: Written, first: number, scratch: Scratch): void {
  const n = out.count - first;
  const order = (scratch.order = grow(scratch.order, n)).subarray(0, n);
  for (let r = 0; r < n; r++) order[r] = first + r;
  order.sort(scratch.byBodies);
  // Duplicates found before any rule moves.
  if (scratch.duplicate.length < n) scratch.duplicate = new Uint8Array(Math.max(n, 2 * scratch.duplicate.length));
  const duplicate = scratch.duplicate;
  for (let r = 1; r < n; r++) duplicate[r] = compareBodies(out, order[r - 1]!, order[r]!) === 0 ? 1 : 0;
  // The run's rules copied out, so that the moves below read them unchanged.
  const base = out.starts[first]!;
  const starts = (scratch.starts = grow(scratch.starts, n + 1));
  const negAt = (scratch.negAt = grow(scratch.negAt, n));
  const lits = (scratch.lits = grow(scratch.lits, out.end - base));
  starts.set(out.starts.subarray(first, out.count + 1));
  negAt.set(out.negAt.subarray(first, out.count));
  lits.set(out.lits.subarray(base, out.end));
  let w = first;
  let k = base;
  for (let r = 0; r < n; r++) {
    if (r > 0 && duplicate[r] === 1) continue;
    const x = order[r]! - first;
    out.starts[w] = k;
    out.negAt[w] = k + negAt[x]! - starts[x]!;
    for (let m = starts[x]! - base; m < starts[x + 1]! - base; m++) out.lits[k++] = lits[m]!;
    w++;
  }
  out.starts[w] = k;
  out.count = w;
  out.end = k;
}

/**
 * The canonical rules of `buf` over new atom ids (`renumber`: term id to atom id, `atoms` of
 * them), as `canonicalRules` of the buffer renumbered would give (the module comment says why).
 * `tick` is called per rule.
 */
export function canonicalFromBuffer(buf: RuleBuffer, renumber: Int32Array, atoms: number, tick: () => void): CompactRules {
  const keys = sortKeys(buf, renumber);
  const order = keyOrder(keys, atoms);
  const out = written(buf.count, buf.starts[buf.count]!);
  const scratch: Scratch = {
    byBodies: (x, y) => compareBodies(out, x, y),
    order: new Int32Array(16),
    duplicate: new Uint8Array(16),
    starts: new Int32Array(16),
    negAt: new Int32Array(16),
    lits: new Int32Array(64),
  };
  // Rules of different keys differ; a run of equal keys is sorted, and its duplicates dropped, once written.
  for (let from = 0; from < order.length; ) {
    let to = from + 1;
    while (to < order.length && sameKeys(keys, order[from]!, order[to]!)) to++;
    const first = out.count;
    for (let j = from; j < to; j++) {
      tick();
      writeRule(buf, order[j]!, renumber, out);
    }
    if (to - from > 1) sortWritten(out, first, scratch);
    from = to;
  }
  const { count, end } = out;
  return { count, heads: out.heads.subarray(0, count), starts: out.starts.subarray(0, count + 1), negAt: out.negAt.subarray(0, count), lits: out.lits.subarray(0, end) };
}
