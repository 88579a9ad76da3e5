/**
 * Stores and blocks: how rules of terms meet relations of ids. A store holds the ground
 * instances (atom ids) of one relation: a unary relation, append-only. A block is the thesis's
 * "block of possible assignments" (section 9.1.3) for one atom pattern: one row per matching
 * store instance, the values of the pattern's variables (all of them, or a projection), and
 * optionally the atom id. Blocks catch up with their store lazily, so one block serves every
 * round of a semi-naive fixpoint; the rows added by a catch-up are the next round's delta.
 */
import { IdBits } from './id-bits.js';
import { Relation } from './relation.js';
import type { TermTable } from './terms.js';
import { type Pattern, UNBOUND, matchPattern } from './pattern.js';

/**
 * The ground instances (atom ids) of one relation, in insertion order (`ids`, read by the
 * blocks), and their membership: a bit per term id (`bits`, id-bits.ts) while the ids lie close
 * enough together, else (`bits` undefined) the hash index of `ids`.
 */
export interface Store {
  readonly rel: string;
  readonly ids: Relation;
  bits: IdBits | undefined;
}

/** Makes an empty store. */
export function createStore(rel: string): Store {
  return { rel, ids: new Relation(1), bits: new IdBits() };
}

/** True when atom `id` is in the store. */
export function inStore(store: Store, id: number): boolean {
  return store.bits === undefined ? store.ids.hasValue(id) : store.bits.has(id);
}

/** Adds an atom id; false when it was already there. */
export function addToStore(store: Store, id: number): boolean {
  const bits = store.bits;
  if (bits === undefined) return store.ids.insertValue(id);
  if (bits.has(id)) return false;
  if (bits.add(id)) {
    store.ids.appendValue(id);
    return true;
  }
  // Too sparse for bits: the hash index over the ids so far takes over (built on its first use).
  store.bits = undefined;
  return store.ids.insertValue(id);
}

/** Number of atoms in a store. */
export function storeSize(store: Store): number {
  return store.ids.size;
}

/** The atom ids of a store, in insertion order. */
export function storeIds(store: Store): number[] {
  return Array.from(store.ids.rows.subarray(0, store.ids.size));
}

/** Rows of variable values for one atom pattern over one store (mutable, internal). */
export interface Block {
  readonly store: Store;
  /** The atom pattern, its variables numbered 0..width-1 by first occurrence. */
  readonly pattern: Pattern;
  readonly width: number;
  /** The pattern variables that are columns, in column order (all of them: 0..width-1). */
  readonly cols: readonly number[];
  /** True: the matched atom id follows as the last column. */
  readonly withId: boolean;
  /** The rows: a projection is kept a set; otherwise every match is a new row. */
  readonly rows: Relation;
  /** How many store entries have been matched so far. */
  consumed: number;
}

/**
 * Makes a block for a pattern whose variables are numbered 0..width-1. `cols`: the variables
 * kept as columns (default all); `withId`: the atom id as a last column.
 */
export function createBlock(store: Store, pattern: Pattern, width: number, cols?: readonly number[], withId = true): Block {
  const kept = cols ?? Array.from({ length: width }, (_, i) => i);
  return { store, pattern, width, cols: kept, withId, rows: new Relation(kept.length + (withId ? 1 : 0)), consumed: 0 };
}

/** The atom id of row `row` of a block made `withId`. */
export function blockAtom(block: Block, row: number): number {
  return block.rows.get(row, block.cols.length);
}

/**
 * Whether every atom of the block's store matches its pattern: a relation's atoms share its name
 * and arity (a store holds one relation), so a pattern of distinct variables matches them all.
 */
function matchesAll(block: Block): boolean {
  const p = block.pattern;
  return p.kind === 'fn' && p.flat && block.width === p.args.length;
}

/** Matches the store entries added since the last call and adds their rows. */
export function syncBlock(block: Block, table: TermTable): void {
  const ids = block.store.ids;
  if (block.consumed === ids.size) return;
  const vals = new Int32Array(block.width);
  const row = new Int32Array(block.rows.arity);
  const n = block.cols.length;
  // Every store entry is matched once, so full rows (all variables, or the id) are distinct.
  const distinct = block.withId || n === block.width;
  if (block.pattern.kind === 'ground') {
    // A ground atom: one membership test instead of a scan.
    if (block.rows.size === 0 && inStore(block.store, block.pattern.id)) {
      if (block.withId) row[n] = block.pattern.id;
      block.rows.append(row);
    }
    block.consumed = ids.size;
    return;
  }
  if (n === 0 && !block.withId && block.rows.size > 0) {
    // No columns: the one empty row says "some entry matches", and no later entry adds another.
    block.consumed = ids.size;
    return;
  }
  // A first catch-up of a pattern that every entry matches adds a row per entry: room for them at once.
  if (block.consumed === 0 && distinct && matchesAll(block)) block.rows.reserve(ids.size);
  const data = ids.rows;
  for (let i = block.consumed; i < ids.size; i++) {
    const id = data[i]!;
    vals.fill(UNBOUND);
    if (!matchPattern(block.pattern, id, table, vals)) continue;
    for (let c = 0; c < n; c++) row[c] = vals[block.cols[c]!]!;
    if (block.withId) row[n] = id;
    if (distinct) block.rows.append(row);
    else block.rows.insert(row);
    if (n === 0 && !block.withId) break;
  }
  block.consumed = ids.size;
}

/**
 * Ends a semi-naive round for `blocks`: each catches up with its store, and the rows that adds
 * become its delta ({@link Relation.delta} of `rows`), read by the next round's delta atoms.
 */
export function advanceRound(blocks: Iterable<Block>, table: TermTable): void {
  for (const block of blocks) {
    syncBlock(block, table);
    block.rows.markRound();
  }
}
