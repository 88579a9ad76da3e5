/**
 * The recipes that look at a game without writing it: `reach` (both methods), `check`,
 * `graph` and `compare`.
 */
import type { RunContext } from '../context.js';
import { type CompareSettings, type Comparison, compareMethods } from '../compare.js';
import {
  type GameSummary, type GraphFormat, type LoadedGame, type ReachProgress, type ReachResult,
  drawDependencyGraph, postProcessedSupersets, reachGame, summarizeLoaded,
} from '../stages.js';

/**
 * `reach`: the supersets by the run's method. The Prolog method's are final as computed; the
 * dependency-graph method's only after instantiation and pruning (9.1.3).
 */
export function reachRecipe(ctx: RunContext, loaded: LoadedGame, onProgress?: (p: ReachProgress) => void): ReachResult {
  if (ctx.options.method === 'prolog') return reachGame(loaded.normal, ctx.options, ctx.timer, onProgress);
  return postProcessedSupersets(loaded.normal, ctx.options, ctx.timer);
}

/** `check`: the summary of a loaded game. */
export function checkRecipe(loaded: LoadedGame): GameSummary {
  return summarizeLoaded(loaded);
}

/** `graph`: the argument dependency graph drawn in `format` (undefined: no such relation). */
export function graphRecipe(ctx: RunContext, loaded: LoadedGame, format: GraphFormat, relation: string | undefined): string | undefined {
  return drawDependencyGraph(loaded.normal, ctx.options, format, relation, ctx.timer);
}

/**
 * `compare`: both superset methods on the loaded game, each with the whole budget of
 * `settings` and its own deadline (section 9.1.2); the load itself ran under `ctx`'s.
 */
export function compareRecipe(loaded: LoadedGame, settings: CompareSettings, withPlain = false): Comparison {
  return compareMethods(loaded.normal, settings, withPlain);
}
