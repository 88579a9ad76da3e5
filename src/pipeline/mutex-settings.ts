/**
 * The mutex stage's settings and defaults, apart from the stage itself (stages-play.ts): the
 * command line and the recipes that only ground read them without loading the mutex modules.
 */

/** How the mutex stage samples states; the rest of its options are the pipeline's. */
export interface MutexSettings {
  /** Random playouts of the ground game whose states refute candidate groups. */
  readonly playouts: number;
  readonly seed: number;
  /** Joint moves per playout before it is cut off. */
  readonly maxSteps: number;
  /**
   * Seconds the stage (sampling and proofs) may take before it stops with what it has proven;
   * absent: the processor time the run took so far (loading and grounding) plus {@link MUTEX_EXTRA_SECONDS}.
   * CLI flag `--mutex-seconds`.
   */
  readonly seconds?: number;
  /**
   * States the search for every reachable state may find before the stage samples playouts
   * instead (docs/mutex.md, 2f); absent: 1,000,000; 0: the search is not tried.
   */
  readonly maxStates?: number;
}

/** Defaults: 100 playouts of at most 500 joint moves each, seed 1, the default time budget. */
export const DEFAULT_MUTEX_SETTINGS: MutexSettings = { playouts: 100, seed: 1, maxSteps: 500 };

/** The default budget of the mutex stage is the grounding's time plus this many seconds. */
export const MUTEX_EXTRA_SECONDS = 10;
