/**
 * The relation store of the Datalog core: a relation is a set of tuples of term ids, kept as
 * flat rows in one typed array (append-only, so a row number never changes and the rows added
 * since some point form a contiguous range: the delta of a semi-naive round). Membership is a
 * hash index on all columns; joins use hash indexes on column subsets, built on first use and
 * brought up to date with the rows appended since when they are next read.
 */

import { IdBits } from './id-bits.js';
import { RelationIndex, grow, identity } from './relation-index.js';

/**
 * How sparse a column's bits may grow, in words per distinct value (256 bytes; a hash index
 * takes at least 28 bytes per row, and a column has far fewer values than rows). The window
 * starts at 32 words and doubles: the stores' limit (8) refused a column of a few hundred
 * values over a few hundred ids at its second value.
 */
const DISTINCT_WORDS_PER_VALUE = 64;

/**
 * A relation: tuples of `arity` term ids, as rows in insertion order. {@link insert} keeps it a
 * set; {@link append} skips the membership test for callers whose rows are distinct by
 * construction. A relation must not grow while a join reads it (rows are read in place).
 */
export class Relation {
  private data: Int32Array<ArrayBuffer>;
  private count = 0;
  private readonly indexes = new Map<string, RelationIndex>();
  /** Per column, the distinct values counted so far without an index ({@link distinct}). */
  private readonly seen: ({ readonly bits: IdBits; rows: number; count: number } | undefined)[] = [];
  private members: RelationIndex | undefined;
  /** Rows before this one were there before the last {@link markRound}. */
  private roundStart = 0;
  /** Rows before this one were there at the last {@link markRound}. */
  private roundEnd = 0;
  /** Scratch tuple of the unary helpers (read within one call only). */
  private readonly one = new Int32Array(1);

  constructor(readonly arity: number) {
    this.data = new Int32Array(Math.max(1, arity) * 8);
  }

  /** Number of rows. */
  get size(): number {
    return this.count;
  }

  /**
   * Room for `rows` rows in all, allocated exactly when the rows do not fit (a caller that knows
   * how many rows come: doubling from 8 allocates up to four times what is kept, and every 64 MiB
   * of typed arrays allocated starts a full collection of the whole heap).
   */
  reserve(rows: number): void {
    const need = rows * this.arity;
    if (need <= this.data.length) return;
    const data = new Int32Array(need);
    data.set(this.data.subarray(0, this.count * this.arity));
    this.data = data;
  }

  /** The row data, `arity` values per row (read only; replaced when the relation grows). */
  get rows(): Int32Array {
    return this.data;
  }

  /** Value of column `col` in row `row`. */
  get(row: number, col: number): number {
    return this.data[row * this.arity + col]!;
  }

  /** The values of row `row` (a copy). */
  tuple(row: number): number[] {
    return Array.from(this.data.subarray(row * this.arity, (row + 1) * this.arity));
  }

  /** Row holding `tuple`, or -1. */
  find(tuple: ArrayLike<number>): number {
    if (this.arity === 0) return this.count > 0 ? 0 : -1;
    return this.membership().firstOf(tuple);
  }

  /** True when `tuple` is a row. */
  has(tuple: ArrayLike<number>): boolean {
    return this.find(tuple) >= 0;
  }

  /** For a unary relation: true when `v` is a row. */
  hasValue(v: number): boolean {
    this.one[0] = v;
    return this.find(this.one) >= 0;
  }

  /** For a unary relation: adds `v` unless present; true when it was new. */
  insertValue(v: number): boolean {
    this.one[0] = v;
    return this.insert(this.one);
  }

  /** For a unary relation: adds `v` as a new row without a membership test (the caller knows it is new). */
  appendValue(v: number): void {
    this.one[0] = v;
    this.append(this.one);
  }

  /** Adds `tuple` unless present; true when it was new. */
  insert(tuple: ArrayLike<number>): boolean {
    if (this.arity === 0) return this.count === 0 ? (this.append(tuple), true) : false;
    const members = this.membership();
    // The tuple is written as the next row first, so that one probe both tests and inserts.
    const row = this.count;
    this.write(row, tuple);
    if (!members.addUnique(row)) return false;
    this.count++;
    return true;
  }

  /**
   * Adds `tuple` as a new row without a membership test (the caller knows it is new). The
   * indexes place it when they are next read.
   */
  append(tuple: ArrayLike<number>): void {
    const row = this.count;
    this.write(row, tuple);
    this.count++;
  }

  private write(row: number, tuple: ArrayLike<number>): void {
    const n = this.arity;
    this.data = grow(this.data, (row + 1) * n);
    for (let i = 0; i < n; i++) this.data[row * n + i] = tuple[i]!;
  }

  /** The hash index on `cols` (ascending column numbers), built on first use. */
  index(cols: readonly number[]): RelationIndex {
    const key = cols.join(',');
    let index = this.indexes.get(key);
    if (index === undefined) {
      index = new RelationIndex(this, [...cols]);
      this.indexes.set(key, index);
      if (cols.length === this.arity) this.members = index;
    }
    return index;
  }

  /**
   * Number of distinct values in column `col`: through its index when there is one, else
   * counted as bits over the values (term ids), caught up with the rows added since. The join
   * planner asks this of every bound column; an index built only to answer it took a hash slot
   * and three entries per row, updated on every later append (amazonsTorus: 43 MiB of indexes
   * that no join read). Values too spread for bits (or negative) fall back to the index.
   */
  distinct(col: number): number {
    const index = this.indexes.get(String(col));
    if (index !== undefined) return index.keys;
    let seen = this.seen[col];
    if (seen === undefined) {
      while (this.seen.length <= col) this.seen.push(undefined);
      this.seen[col] = seen = { bits: new IdBits(DISTINCT_WORDS_PER_VALUE), rows: 0, count: 0 };
    }
    const data = this.data;
    const n = this.arity;
    for (; seen.rows < this.count; seen.rows++) {
      const v = data[seen.rows * n + col]!;
      if (seen.bits.has(v)) continue;
      if (v < 0 || !seen.bits.add(v)) {
        this.seen[col] = undefined;
        return this.index([col]).keys;
      }
      seen.count++;
    }
    return seen.count;
  }

  /** Ends a round: the rows added since the previous call become the {@link delta}. */
  markRound(): void {
    this.roundStart = this.roundEnd;
    this.roundEnd = this.count;
  }

  /** Rows `[lo, hi)` added in the last round (between the last two {@link markRound} calls). */
  delta(): readonly [number, number] {
    return [this.roundStart, this.roundEnd];
  }

  private membership(): RelationIndex {
    return this.members ?? this.index(identity(this.arity));
  }
}
