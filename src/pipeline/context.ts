/**
 * The run context: what every recipe and every stage of one run shares. It is built once per
 * run by the caller (the command line from its flags, the batch worker from its job, a test
 * from its own settings) and handed down as a required argument, so that no stage can run
 * without the run's limits: the one {@link Deadline} (clock and heap), the one
 * {@link StageTimer}, the resolved options.
 */
import type { Deadline } from '../deadline.js';
import type { StageTimer } from '../timer.js';
import type { PipelineOptions } from './options.js';

/** One run of one game: its file name (for messages), its options and deadline, its timer. */
export interface RunContext {
  /** The game's name in messages and outputs (as the command line shows it). */
  readonly file: string;
  readonly options: PipelineOptions;
  /** `options.deadline`: the one budget of the run, time and memory. */
  readonly deadline: Deadline;
  /** Times, counts and memory of every stage of the run. */
  readonly timer: StageTimer;
}

/** The context of a run over resolved options, timed by `timer`. */
export function runContext(file: string, options: PipelineOptions, timer: StageTimer): RunContext {
  return { file, options, deadline: options.deadline, timer };
}
