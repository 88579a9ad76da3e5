/**
 * The evaluator of a ground game's lazy part that the simulators use: the term-table evaluator
 * (lazy-eval.ts) while it can, the Tau-Prolog one (lazy.ts) once the term-table one meets what
 * it does not do (a recursive call meeting itself): from then on, for the rest
 * of the run, the Tau-Prolog evaluator is given the current state and joint move and answers
 * everything. `engine` says which one answers now (stats, docs/lazy.md).
 */
import { Deadline } from '../deadline.js';
import type { GroundGame } from '../ground/types.js';
import { type LazyEvaluator, createLazyEvaluator } from './lazy.js';
import { LazyUnsupported, createTermEvaluator } from './lazy-eval.js';

/** The evaluator and which engine answers now. */
export type HybridEvaluator = LazyEvaluator & {
  /** `terms` (the term-table evaluator) or `prolog` (Tau-Prolog, after a fallback). */
  engine(): 'terms' | 'prolog';
  /** Why the term-table evaluator gave up, when it did. */
  fallbackReason(): string | undefined;
  /**
   * The work of the lazy part so far, counted so that it is the same on every run whatever the
   * machine's load: the term-table evaluator's calls (not answered from its tables), and
   * {@link PROLOG_QUERY_CALLS} per query to Tau-Prolog after a fallback.
   */
  work(): number;
};

/**
 * Calls of the term-table evaluator one Tau-Prolog query counts for in {@link HybridEvaluator.work}:
 * not measured (no corpus game falls back since alex30, docs/mutex.md); a query runs a whole
 * top-down evaluation, so it counts as many calls, to keep a count that bounds work from running long.
 */
const PROLOG_QUERY_CALLS = 100;

/** Creates the evaluator of `game.lazy` (which must be present). */
export function createHybridEvaluator(game: GroundGame, deadline: Deadline): HybridEvaluator {
  let reason: string | undefined;
  let current: LazyEvaluator;
  // The term-table evaluator's calls, kept when it gives up; then the queries to Tau-Prolog.
  let terms: { readonly stats: { readonly calls: number } } | undefined;
  let prologQueries = 0;
  try {
    current = terms = createTermEvaluator(game, deadline);
  } catch (err) {
    if (!(err instanceof LazyUnsupported)) throw err;
    reason = err.message;
    current = createLazyEvaluator(game, deadline);
  }
  let state: readonly number[] = [];
  let moves: readonly (readonly [number, number])[] | undefined;
  /** Runs `fn` on the current evaluator; on the first LazyUnsupported, switches to Tau-Prolog and runs it again. */
  const run = <T>(fn: (e: LazyEvaluator) => T): T => {
    if (reason !== undefined) prologQueries++;
    try {
      return fn(current);
    } catch (err) {
      // A RangeError is JavaScript's own limit reached by the term-table evaluator (its recursion
      // is JavaScript's: the call stack; or an array's or a string's length), which the Tau-Prolog
      // evaluator does not share; V8 gives it no data beyond the class, so the class decides.
      const unsupported = err instanceof LazyUnsupported || err instanceof RangeError;
      if (!unsupported || reason !== undefined) throw err;
      reason = (err as Error).message;
      current = createLazyEvaluator(game, deadline);
      prologQueries++;
      current.setState(state);
      if (moves !== undefined) current.setMoves(moves);
      return fn(current);
    }
  };
  return {
    setState: (fluents) => {
      state = fluents;
      moves = undefined;
      current.setState(fluents);
    },
    setMoves: (joint) => {
      moves = joint;
      current.setMoves(joint);
    },
    holds: (atom) => run((e) => e.holds(atom)),
    heads: (rel) => run((e) => e.heads(rel)),
    engine: () => (reason === undefined ? 'terms' : 'prolog'),
    fallbackReason: () => reason,
    work: () => (terms?.stats.calls ?? 0) + prologQueries * PROLOG_QUERY_CALLS,
  };
}
