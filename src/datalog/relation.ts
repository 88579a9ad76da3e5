/**
 * The relation store of the Datalog core: a relation is a set of tuples of term ids, kept as
 * flat rows in one typed array (append-only, so a row number never changes and the rows added
 * since some point form a contiguous range: the delta of a semi-naive round). Membership is a
 * hash index on all columns; joins use hash indexes on column subsets, built on first use and
 * brought up to date with the rows appended since when they are next read.
 */

import { IdBits } from './id-bits.js';

/** Grows a typed array to at least `need` entries (doubling, so appends are amortized O(1)). */
function grow(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  let n = Math.max(8, a.length * 2);
  while (n < need) n *= 2;
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/** Mixes one more id into a hash (the same mixing as the term table's). */
function mix(h: number, v: number): number {
  return Math.imul(h ^ v, 0x85ebca6b) + 0x1b873593;
}

function finish(h: number): number {
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae35);
}

/**
 * A hash index of a relation on the columns `cols`: key (the values in those columns) -> the
 * rows holding it, ascending (a chain through `next`). Rows are added in ascending order only,
 * and lazily: an append does not touch the index, whose every read first places the rows
 * appended since ({@link sync}). Rows appended after an index's last read (a store filled on
 * after its readers' joins ran, a fixpoint's last round) are never placed: gt_two_thirds_6p
 * appended 437,000 rows to join indexes, 186,000 of them after the index's last probe. A read
 * sees the same chains as if every append had placed its row at once: the same rows, placed
 * in the same order.
 */
export class RelationIndex {
  /**
   * Two entries per slot: key group + 1 (0 = empty) and the key's hash, so that a probe passes
   * the slots of other keys without reading their rows (two more cache misses each: the group's
   * first row, then its data); a power of two slots.
   */
  private slots = new Int32Array(2 * 16);
  /**
   * A key's home slot is its hash's top bits (`hash >>> shift`, 32 - log2 of the slots), so a
   * home in the table doubled is `2s` or `2s + 1`: growing writes the new slots in order.
   */
  private shift = 28;
  /**
   * While every key has one row (always on the membership index, whose rows are distinct;
   * until a key repeats on any other), group `g` is row `g` and the chains are not kept: a slot's
   * group is its row, and `first`, `last` and `next` stay empty. They are made when a key first
   * repeats ({@link chain}). Keeping them for single rows cost three writes and a doubling array
   * each per row, and a read of `first` per probe (amazons' superset stage: a tenth of its time
   * in this index's inserts).
   */
  private chained = false;
  private first = EMPTY;
  private last = EMPTY;
  private next = EMPTY;
  private groupCount = 0;
  /** Rows `[0, indexed)` of the relation are placed; the rest on the next read ({@link sync}). */
  private indexed = 0;

  constructor(
    private readonly rel: Relation,
    /** The indexed columns, ascending. */
    readonly cols: readonly number[],
  ) {
    // Built over rows already there: sized for them at once, not doubled from 8 row by row.
    const rows = rel.size;
    if (rows > 8) {
      let slots = 16;
      while (slots < 2 * (rows + 1)) slots *= 2;
      this.slots = new Int32Array(2 * slots);
      this.shift = Math.clz32(slots) + 1;
    }
    this.sync();
  }

  /** Number of distinct keys. */
  get keys(): number {
    this.sync();
    return this.groupCount;
  }

  /** First row whose key columns hold `binding[vars[i]]`, or -1. */
  firstFor(binding: ArrayLike<number>, vars: ArrayLike<number>): number {
    if (this.indexed !== this.rel.size) this.sync();
    const cols = this.cols;
    let h = 0x27d4eb2d;
    for (let i = 0; i < cols.length; i++) h = mix(h, binding[vars[i]!]!);
    h = finish(h);
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    const data = this.rel.rows;
    const width = this.rel.arity;
    for (let s = h >>> this.shift; ; s = (s + 1) & mask) {
      const g = slots[2 * s]!;
      if (g === 0) return -1;
      if (slots[2 * s + 1] !== h) continue;
      const row = this.chained ? this.first[g - 1]! : g - 1;
      const base = row * width;
      let same = true;
      for (let i = 0; i < cols.length && same; i++) same = data[base + cols[i]!] === binding[vars[i]!];
      if (same) return row;
    }
  }

  /** First row whose key columns hold `values` (in the order of `cols`), or -1. */
  firstOf(values: ArrayLike<number>): number {
    return this.firstFor(values, IDENTITY.length >= values.length ? IDENTITY : identity(values.length));
  }

  /**
   * The row after `row` with the same key, or -1. `row` came from {@link firstFor} or this, with
   * no row appended since (a relation does not grow while a join reads it).
   */
  nextRow(row: number): number {
    return this.chained ? this.next[row]! : -1;
  }

  /**
   * Adds row `row` (written just past the relation's rows, not yet counted) only if no row has
   * its key; false (and nothing added) otherwise. On an index over all columns this is the
   * membership test and the insertion in one probe.
   */
  addUnique(row: number): boolean {
    this.sync();
    if (!this.place(row, true)) return false;
    this.indexed = row + 1;
    return true;
  }

  /** Places the rows appended since the last read, in order. */
  private sync(): void {
    const rows = this.rel.size;
    for (let row = this.indexed; row < rows; row++) this.place(row, false);
    this.indexed = rows;
  }

  private place(row: number, unique: boolean): boolean {
    if ((this.groupCount + 1) * 4 > this.slots.length) this.rehash();
    const h = this.hashRow(row);
    const s = this.probe(row, h);
    const g = this.slots[2 * s]!;
    if (g !== 0 && unique) return false;
    if (g === 0 && !this.chained) {
      // Row `row` is group `row`: every row placed before made a group of its own.
      this.groupCount++;
      this.slots[2 * s] = row + 1;
      this.slots[2 * s + 1] = h;
      return true;
    }
    if (!this.chained) this.chain(row);
    this.next = grow(this.next, row + 1);
    this.next[row] = -1;
    if (g === 0) {
      const id = this.groupCount++;
      this.first = grow(this.first, id + 1);
      this.last = grow(this.last, id + 1);
      this.first[id] = row;
      this.last[id] = row;
      this.slots[2 * s] = id + 1;
      this.slots[2 * s + 1] = h;
    } else {
      this.next[this.last[g - 1]!] = row;
      this.last[g - 1] = row;
    }
    return true;
  }

  /**
   * Makes the chains of the rows placed so far, each its own group (`first` and `last` the row,
   * `next` none), before row `row` repeats a key: from here on the index keeps them as it places
   * each row. `next` has room for the relation's rows at once (an index built over many rows
   * repeats a key early); the groups, as many as the rows so far, double from there as before
   * (an index on a few keys over many rows keeps few groups).
   */
  private chain(row: number): void {
    const groups = Math.max(8, 2 * this.groupCount);
    this.first = new Int32Array(groups);
    this.last = new Int32Array(groups);
    this.next = new Int32Array(Math.max(8, this.rel.size, row + 1));
    for (let r = 0; r < this.groupCount; r++) {
      this.first[r] = r;
      this.last[r] = r;
      this.next[r] = -1;
    }
    this.chained = true;
  }

  private hashRow(row: number): number {
    const data = this.rel.rows;
    const base = row * this.rel.arity;
    let h = 0x27d4eb2d;
    for (const c of this.cols) h = mix(h, data[base + c]!);
    return finish(h);
  }

  /** The slot of `row`'s key (hash `h`): its group's, or the empty slot where it belongs. */
  private probe(row: number, h: number): number {
    const data = this.rel.rows;
    const width = this.rel.arity;
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let s = h >>> this.shift; ; s = (s + 1) & mask) {
      const g = slots[2 * s]!;
      if (g === 0) return s;
      if (slots[2 * s + 1] !== h) continue;
      const a = (this.chained ? this.first[g - 1]! : g - 1) * width;
      const b = row * width;
      let same = true;
      for (let i = 0; i < this.cols.length && same; i++) same = data[a + this.cols[i]!] === data[b + this.cols[i]!];
      if (same) return s;
    }
  }

  private rehash(): void {
    // Load factor under one half keeps probe runs short; the hashes kept are not computed again.
    // Homes are the hashes' top bits: the old slots, read in order, are written in order.
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    this.shift--;
    for (let t = 0; t < old.length; t += 2) {
      if (old[t] === 0) continue;
      let s = old[t + 1]! >>> this.shift;
      while (slots[2 * s] !== 0) s = (s + 1) & mask;
      slots[2 * s] = old[t]!;
      slots[2 * s + 1] = old[t + 1]!;
    }
    this.slots = slots;
  }
}

/** The chains of an index whose keys have one row each (see `RelationIndex.chained`). */
const EMPTY = new Int32Array(0);

/**
 * How sparse a column's bits may grow, in words per distinct value (256 bytes; a hash index
 * takes at least 28 bytes per row, and a column has far fewer values than rows). The window
 * starts at 32 words and doubles: the stores' limit (8) refused a column of a few hundred
 * values over a few hundred ids at its second value.
 */
const DISTINCT_WORDS_PER_VALUE = 64;

const IDENTITY: readonly number[] = Array.from({ length: 64 }, (_, i) => i);

function identity(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

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
