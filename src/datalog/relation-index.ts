/**
 * The hash indexes of the Datalog core's relations (relation.ts): key -> rows, placed lazily on
 * the next read. Apart from relation.ts so that each file stays short; an index reads its
 * relation only through {@link IndexedRows}.
 */

/** What an index reads of its relation: its rows so far, flat, `arity` values per row. */
interface IndexedRows {
  readonly arity: number;
  /** Number of rows. */
  readonly size: number;
  /** The row data (replaced when the relation grows). */
  readonly rows: Int32Array;
}

/** Grows a typed array to at least `need` entries (doubling, so appends are amortized O(1)). */
export function grow(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
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
    private readonly rel: IndexedRows,
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

/** The columns `0 .. 63`, shared by the lookups of up to 64 columns ({@link RelationIndex.firstOf}). */
const IDENTITY: readonly number[] = Array.from({ length: 64 }, (_, i) => i);

/** The column numbers `0 .. n-1` (an index over all columns: the membership index). */
export function identity(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
