/**
 * Run contexts for tests: a test builds its own, with the settings it needs (no limits by
 * default), since no stage of src/ defaults its deadline, options or timer.
 */
import { type PipelineSettings, resolvePipelineOptions } from '../../src/pipeline/stages.js';
import { type RunContext, runContext } from '../../src/pipeline/recipes/index.js';
import { StageTimer } from '../../src/timer.js';

/** A fresh context for `file`: its own timer, the settings resolved now. */
export function testContext(file: string, settings: PipelineSettings = {}): RunContext {
  return runContext(file, resolvePipelineOptions(settings), new StageTimer());
}
