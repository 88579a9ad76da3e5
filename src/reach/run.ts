/**
 * The state of one run of the Prolog superset computation (Algorithm 9.2), shared by the
 * evaluation of components (evaluate.ts) and their compilation to variant clauses (compile.ts).
 * It lives apart from both so that compile.ts need not import evaluate.ts, which calls it.
 */
import type { Pos } from '../gdl/ast.js';
import type { PrologEngine, TauTerm } from '../engine/tau.js';
import type { NormalGame } from '../normalize/types.js';
import type { RelationKey, RelaxedPlan } from './relaxed.js';
import type { FactStore } from './store.js';
import type { ReachLimits } from './types.js';
import type { Switches } from './ablation.js';

/** Size and number of distinct values per argument of a table, when last measured. */
export interface TableStats {
  readonly size: number;
  readonly distinct: readonly number[];
  /**
   * The distinct values per argument, of the first `size` facts: the next measurement adds only
   * the facts since (tables only grow), where it read every fact again. The values are the
   * table's own term objects, one per term of the fact store (src/reach/store.ts makes each
   * term's object once, `tauOf`), so distinct objects are distinct terms, and no text is made.
   */
  readonly values: readonly Set<TauTerm>[];
  /**
   * The distinct arguments inside compound arguments, keyed `i.j` (argument `j` of the term at
   * argument `i`), for calls the engine looks up by them (src/reach/plan.ts `innerBound`);
   * likewise of the first `size` facts.
   */
  readonly inner: ReadonlyMap<string, Set<TauTerm>>;
  /** The sizes of `inner`'s sets when measured. */
  readonly innerDistinct: ReadonlyMap<string, number>;
}

/**
 * Sizes of the argument domains of the game's dependency graph (src/reach/dg/), for the
 * estimates of src/reach/growth.ts: the product over a relation's or function symbol's
 * arguments, or one position's; 0 where the graph has no such symbol.
 */
export interface DomainSizes {
  readonly relation: (rel: string, arity: number) => number;
  readonly position: (rel: string, arity: number, index: number) => number;
  readonly functor: (name: string, arity: number) => number;
}

/** A snapshot reported after every round, for progress display. */
export interface ReachProgress {
  readonly round: number;
  readonly atoms: number;
  /** The relation with the most facts so far (`rel/arity`). */
  readonly largest: string;
}

/** The mutable state of one run (one per call, never shared). */
export interface Run {
  readonly game: NormalGame;
  readonly plan: RelaxedPlan;
  readonly engine: PrologEngine;
  readonly store: FactStore;
  readonly limits: ReachLimits;
  readonly maxDepth: number;
  readonly onProgress: ((p: ReachProgress) => void) | undefined;
  /** The optimizations switched off for this run (src/reach/ablation.ts; none by default). */
  readonly switches: Switches;
  /** Bridge targets by source relation key: `next/1` -> `true/1`, `legal/2` -> `does/2`. */
  readonly bridges: ReadonlyMap<string, string>;
  /** Answers returned by queries, duplicates included. */
  answers: number;
  /** Rounds of the component of `true`: the iterations of Algorithm 9.2. */
  iterations: number;
  /** Rounds of all recursive components. */
  rounds: number;
  /** Relation whose rules are being evaluated, for messages (NO_RELATION of evaluate.ts before the first). */
  current: RelationKey;
  /** The plan's estimate of join states of the last query planned (read while `at` is set), for messages. */
  estimate: number;
  /** Position of the rule whose query is running now, for messages. */
  at: Pos | undefined;
  /** Next free variant clause id. */
  nextId: number;
  /** The dependency graph's domain sizes, made when src/reach/growth.ts first needs them. */
  domains?: DomainSizes;
  /** The store size at which src/reach/foresight.ts looks next (absent: at its first threshold). */
  foresightAt?: number;
  /** Table statistics for join planning, by table name. */
  readonly stats: Map<string, TableStats>;
}
