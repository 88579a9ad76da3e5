/**
 * Run contexts for tests: a test builds its own, with the settings it needs (no limits by
 * default), since no stage of src/ defaults its deadline, options or timer.
 */
import { type PipelineSettings, resolvePipelineOptions } from '../../src/pipeline/stages.js';
import { type RunContext, runContext } from '../../src/pipeline/recipes/index.js';
import { StageTimer } from '../../src/timer.js';
import { Deadline } from '../../src/deadline.js';
import { DEFAULT_REACH_LIMITS, type ReachLimits } from '../../src/reach/types.js';
import { DEFAULT_INSTANTIATE_LIMITS, type InstantiateLimits } from '../../src/ground/instantiate.js';

/** A fresh context for `file`: its own timer, the settings resolved now. */
export function testContext(file: string, settings: PipelineSettings = {}): RunContext {
  return runContext(file, resolvePipelineOptions(settings), new StageTimer());
}

/** The superset stage's default limits with no deadline, for tests that call a method directly. */
export const TEST_REACH_LIMITS: ReachLimits = { ...DEFAULT_REACH_LIMITS, deadline: Deadline.never() };

/** Instantiation's default limits with no deadline, for tests that call it directly. */
export const TEST_INSTANTIATE_LIMITS: InstantiateLimits = { ...DEFAULT_INSTANTIATE_LIMITS, deadline: Deadline.never() };
