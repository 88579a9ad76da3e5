/**
 * The game `ground` writes, made once for every recipe: load, supersets, instantiation,
 * pruning, then unused-instance removal unless the caller keeps them. `verify`, `mutex`,
 * `play`, `--format gddl|rddl` and the batch all start from {@link groundWritten}, so they
 * work on exactly the ground game `ground GAME` writes.
 */
import type { RunContext } from '../context.js';
import {
  type GroundGame, type LoadedGame, type ReachResult, type UnusedStats, groundNormalGame, loadGame, removeUnusedInstances,
} from '../stages.js';

/** Loads the game of the run (parse, validate, normalize, repair) under its deadline and timer. */
export function loadRun(ctx: RunContext, text: string): LoadedGame {
  return loadGame(text, ctx.file, ctx.options, ctx.timer);
}

/** The ground game of a run: the supersets, the pruned game, and the game written. */
export interface GroundRun {
  readonly reach: ReachResult;
  /**
   * The pruned ground game, unused instances still in it (those of relations the superset
   * stage demanded only as far as their callers ask, when unused instances are removed next).
   */
  readonly full: GroundGame;
  /** The game `ground` writes: `full` without unused instances, unless they are kept. */
  readonly game: GroundGame;
  /** What unused-instance removal dropped; absent when they are kept. */
  readonly unused?: UnusedStats;
}

/**
 * Supersets, instantiation and pruning of a loaded game, then unused instances removed unless
 * `keepUnused` (dropping them cannot change play, docs/axioms.md).
 */
export function groundWritten(ctx: RunContext, loaded: LoadedGame, keepUnused: boolean): GroundRun {
  // Demand beyond accumulators (docs/reach.md) drops only instances that removal would drop.
  const { reach, ground } = groundNormalGame(loaded.normal, ctx.options, ctx.timer, keepUnused ? 'accumulator' : 'auto');
  if (keepUnused) return { reach, full: ground, game: ground };
  const unused = removeUnusedInstances(ground, ctx.timer, ctx.options);
  return { reach, full: ground, game: unused.game, unused: unused.stats };
}
