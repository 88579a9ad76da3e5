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

/**
 * The ground game of a run as its outputs need it: the game written and what unused-instance
 * removal dropped. The supersets and the pruned game before removal are not kept: a run held
 * them through emission (amazonsTorus: 52 MiB of the superset stage's terms and rows, 40 MiB
 * of rules removal copied), and the library's grounding for as long as it lived.
 */
export interface GroundRun {
  /** The game `ground` writes: the pruned game without unused instances, unless they are kept. */
  readonly game: GroundGame;
  /** What unused-instance removal dropped; absent when they are kept. */
  readonly unused?: UnusedStats;
}

/** A {@link GroundRun} with what made it: the supersets and the pruned game (the batch reads supersets back from them). */
interface GroundRunWhole extends GroundRun {
  readonly reach: ReachResult;
  /**
   * The pruned ground game, unused instances still in it (those of relations the superset
   * stage demanded only as far as their callers ask, when unused instances are removed next).
   */
  readonly full: GroundGame;
}

/**
 * Supersets, instantiation and pruning of a loaded game, then unused instances removed unless
 * `keepUnused` (dropping them cannot change play, docs/axioms.md). The supersets are dropped
 * before removal, the game before removal after it.
 */
export function groundWritten(ctx: RunContext, loaded: LoadedGame, keepUnused: boolean): GroundRun {
  const ground = groundNormalGame(loaded.normal, ctx.options, ctx.timer, demandOf(keepUnused)).ground;
  if (keepUnused) return { game: ground };
  const unused = removeUnusedInstances(ground, ctx.timer, ctx.options);
  return { game: unused.game, unused: unused.stats };
}

/** {@link groundWritten} with its supersets and the game before unused-instance removal kept. */
export function groundWrittenWhole(ctx: RunContext, loaded: LoadedGame, keepUnused: boolean): GroundRunWhole {
  const { reach, ground } = groundNormalGame(loaded.normal, ctx.options, ctx.timer, demandOf(keepUnused));
  if (keepUnused) return { reach, full: ground, game: ground };
  const unused = removeUnusedInstances(ground, ctx.timer, ctx.options);
  return { reach, full: ground, game: unused.game, unused: unused.stats };
}

/** Demand beyond accumulators (docs/reach.md) drops only instances that removal would drop. */
function demandOf(keepUnused: boolean): 'accumulator' | 'auto' {
  return keepUnused ? 'accumulator' : 'auto';
}
