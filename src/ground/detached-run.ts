/**
 * The rows a detached negated atom is read from in one run of its rule (detached.ts says which
 * atoms are detached and why the rules made from these rows are the join's): its block, probed
 * by the values of the variables the rest of the rule binds, and the tuples of its detached
 * variables that the static atoms over them allow.
 */
import type { Block } from '../datalog/block.js';
import type { Relation } from '../datalog/relation.js';
import type { RelationIndex } from '../datalog/relation-index.js';

/** A detached negated atom, ready for the bindings of one run of its rule (mutable: `neg`). */
export interface DetachedRun {
  /** The atom's block: a row per atom of its (complete) store that matches it, the atom id last. */
  readonly block: Block;
  /** The block's index on the columns of the other variables; null when it has none (every row matches). */
  readonly index: RelationIndex | null;
  /** The rule variables of those columns, in column order. */
  readonly keyVars: Int32Array;
  /** The block columns of the detached variables, in the order of `allowed`'s columns. */
  readonly cols: Int32Array;
  /** The tuples of the detached variables that the static atoms over them allow. */
  readonly allowed: Relation;
  /** Scratch: a row's detached values, looked up in `allowed`. */
  readonly tuple: Int32Array;
  /** Scratch: a negative body with the atom put in (grown as rules need). */
  neg: Int32Array;
}

/** The first row of `det`'s block whose other variables hold binding `b`'s values, or -1. */
export function firstDetachedRow(det: DetachedRun, b: Int32Array): number {
  if (det.index !== null) return det.index.firstFor(b, det.keyVars);
  return det.block.rows.size > 0 ? 0 : -1;
}

/** The row after `row` with the same values of the other variables, or -1. */
export function nextDetachedRow(det: DetachedRun, row: number): number {
  if (det.index !== null) return det.index.nextRow(row);
  return row + 1 < det.block.rows.size ? row + 1 : -1;
}

/** Whether the detached variables' values in `row` are an allowed tuple. */
export function allowedRow(det: DetachedRun, row: number): boolean {
  const rows = det.block.rows;
  const data = rows.rows;
  const base = row * rows.arity;
  for (let i = 0; i < det.cols.length; i++) det.tuple[i] = data[base + det.cols[i]!]!;
  return det.allowed.has(det.tuple);
}
