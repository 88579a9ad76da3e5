/**
 * The mutex stage's default time budget (docs/mutex.md, 2c): the run's time before the stage,
 * T, plus 10 seconds, both counted in processor time, so that time spent waiting (a loaded
 * machine) does not enlarge the budget.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MUTEX_SETTINGS, MUTEX_EXTRA_SECONDS, mutexGroups, runGrounding } from '../src/pipeline/stages.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './examples.js';

describe("the mutex stage's default budget", () => {
  it('counts the run before it in processor time, not the wall-clock time a stage spent waiting', () => {
    const options = defaultPipelineOptions();
    const { loaded, ground } = runGrounding(readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8'), 'tictactoe.kif', options, new StageTimer());
    const timer = new StageTimer();
    // A stage that waits 300 ms without computing: wall-clock time, next to no processor time.
    timer.run('wait', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300));
    const r = mutexGroups(ground, loaded.normal, options, DEFAULT_MUTEX_SETTINGS, timer);
    expect(timer.list()[0]!.ms).toBeGreaterThanOrEqual(290);
    const time = r.stats.time!;
    expect(time.beforeSeconds).toBeLessThan(0.2);
    expect(time.budgetSeconds).toBeCloseTo(time.beforeSeconds + MUTEX_EXTRA_SECONDS, 6);
    expect(time.sampleSeconds).toBeGreaterThanOrEqual(0);
    expect(r.bits).toBeLessThan(r.fluents);
  });
});
