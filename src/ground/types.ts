/**
 * The ground game: variable-free rules over interned ground atoms. Atom ids index `atoms`;
 * every list is sorted so that output is deterministic byte for byte.
 */
import type { Term } from '../gdl/ast.js';

/** A ground atom, such as `(true (cell 1 1 b))`, `(legal x noop)` or `terminal`. */
export interface GroundAtom {
  /** KIF text with single spaces; unique per atom. */
  readonly text: string;
  /** The relation constant (`true`, `does`, `next`, `legal`, `goal`, `terminal`, or an axiom). */
  readonly rel: string;
  readonly args: readonly Term[];
}

/** A ground rule `head <= pos..., (not neg)...`; a ground fact has empty bodies. */
export interface GroundRule {
  readonly head: number;
  readonly pos: readonly number[];
  readonly neg: readonly number[];
}

/** A variable-free game equivalent to the source game. */
export interface GroundGame {
  readonly file: string;
  /** The roles, in the order of the description. */
  readonly roles: readonly Term[];
  /** All ground atoms that occur in `init` or `rules`, id = index, sorted by text. */
  readonly atoms: readonly GroundAtom[];
  /** Ids of the `(true F)` atoms that hold in the initial state. */
  readonly init: readonly number[];
  /** Ground rules for next, legal, goal, terminal and the non-static axioms. */
  readonly rules: readonly GroundRule[];
}

/** Counts of a ground game, for `--stats` and benchmarks. */
export interface GroundStats {
  readonly rules: number;
  readonly fluents: number;
  readonly moves: number;
  readonly atoms: number;
}
