/**
 * Stores and blocks of the matrix method (section 9.1.3). A store holds the ground instances of
 * one relation (append-only). A block is the thesis's "block of possible assignments" for one
 * body atom: the rows of values its variables take over the store's instances, with hash
 * indexes on column sets for joins. Blocks catch up with their store lazily, so the same block
 * serves every round of a semi-naive fixpoint.
 */
import type { TermTable } from '../datalog/terms.js';
import { type Pattern, UNBOUND, matchPattern } from './pattern.js';

/** The ground instances (atom ids) of one relation, in insertion order. */
export interface Store {
  readonly rel: string;
  readonly ids: number[];
  readonly members: Set<number>;
}

/** Makes an empty store. */
export function createStore(rel: string): Store {
  return { rel, ids: [], members: new Set() };
}

/** Adds an atom id; false when it was already there. */
export function addToStore(store: Store, id: number): boolean {
  if (store.members.has(id)) return false;
  store.members.add(id);
  store.ids.push(id);
  return true;
}

/** A hash index: key of the values in some columns -> ascending row numbers. */
export type BlockIndex = Map<number | string, number[]>;

/** Rows of variable values for one atom pattern over one store (mutable, internal). */
export interface Block {
  readonly store: Store;
  /** The atom pattern, its variables numbered 0..width-1 by first occurrence. */
  readonly pattern: Pattern;
  readonly width: number;
  /** How many store entries have been matched so far. */
  consumed: number;
  /** Row values, `width` per row. */
  readonly rows: number[];
  /** The matched atom id of each row. */
  readonly atomIds: number[];
  /** Indexes by column list (`"0,2"`). */
  readonly indexes: Map<string, { readonly cols: readonly number[]; readonly map: BlockIndex }>;
  /** Distinct values seen per column, for join planning. */
  readonly distinct: Set<number>[];
}

/** Makes a block for a pattern whose variables are numbered 0..width-1. */
export function createBlock(store: Store, pattern: Pattern, width: number): Block {
  const distinct: Set<number>[] = [];
  for (let i = 0; i < width; i++) distinct.push(new Set());
  return { store, pattern, width, consumed: 0, rows: [], atomIds: [], indexes: new Map(), distinct };
}

/** Number of rows of a block. */
export function blockSize(block: Block): number {
  return block.atomIds.length;
}

/**
 * The hash key of a tuple of term ids: the id itself for one value; for several, the ids packed
 * into one safe integer when each fits in 53/n bits (no allocation), else a string. The choice
 * depends only on the values, so equal tuples always get equal keys.
 */
export function tupleKey(values: readonly number[] | Int32Array, n: number, at: (i: number) => number): number | string {
  if (n === 1) return values[at(0)]!;
  const bits = Math.floor(53 / n);
  const limit = 2 ** bits;
  let key = 0;
  for (let i = 0; i < n; i++) {
    const v = values[at(i)]!;
    if (v >= limit) return stringKey(values, n, at);
    key = key * limit + v;
  }
  return key;
}

function stringKey(values: readonly number[] | Int32Array, n: number, at: (i: number) => number): string {
  let key = '';
  for (let i = 0; i < n; i++) key += `${values[at(i)]!},`;
  return key;
}

/** The key of row `row` in the columns `cols`. */
export function rowKey(block: Block, row: number, cols: readonly number[]): number | string {
  const base = row * block.width;
  return tupleKey(block.rows, cols.length, (i) => base + cols[i]!);
}

function addRow(block: Block, vals: Int32Array, atomId: number): void {
  const row = block.atomIds.length;
  for (let i = 0; i < block.width; i++) {
    block.rows.push(vals[i]!);
    block.distinct[i]!.add(vals[i]!);
  }
  block.atomIds.push(atomId);
  for (const { cols, map } of block.indexes.values()) {
    const key = rowKey(block, row, cols);
    const list = map.get(key);
    if (list === undefined) map.set(key, [row]);
    else list.push(row);
  }
}

/** Matches the store entries added since the last call and appends their rows. */
export function syncBlock(block: Block, table: TermTable): void {
  const ids = block.store.ids;
  if (block.consumed === ids.length) return;
  if (block.pattern.kind === 'ground') {
    // A ground atom: one membership test instead of a scan.
    const id = block.pattern.id;
    if (block.atomIds.length === 0 && block.store.members.has(id)) addRow(block, new Int32Array(0), id);
    block.consumed = ids.length;
    return;
  }
  const vals = new Int32Array(block.width);
  for (let i = block.consumed; i < ids.length; i++) {
    vals.fill(UNBOUND);
    if (matchPattern(block.pattern, ids[i]!, table, vals)) addRow(block, vals, ids[i]!);
  }
  block.consumed = ids.length;
}

/** The index of a block on `cols` (ascending column numbers), built on first use. */
export function blockIndex(block: Block, cols: readonly number[]): BlockIndex {
  const colText = cols.join(',');
  const known = block.indexes.get(colText);
  if (known !== undefined) return known.map;
  const index: BlockIndex = new Map();
  for (let row = 0; row < block.atomIds.length; row++) {
    const key = rowKey(block, row, cols);
    const list = index.get(key);
    if (list === undefined) index.set(key, [row]);
    else list.push(row);
  }
  block.indexes.set(colText, { cols: [...cols], map: index });
  return index;
}
