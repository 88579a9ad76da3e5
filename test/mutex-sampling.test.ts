// The extra playouts of the mutex stage's sampling (src/play/sample.ts `minStates`, the default
// settings' 10,000 states; docs/mutex.md, "connect4, majorities, urmAdd, shmup"): short playouts
// (games/mutex-short-playouts.kif, four steps each) are continued past `playouts` until the states
// asked for (at most ten times as many playouts), the first ones unchanged; long ones
// (games/mutex-long-playouts.kif, never terminal) are not; an explicit playout count plays exactly it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { sampleStates } from '../src/play/sample.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { DEFAULT_MUTEX_SETTINGS, runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** The states sampled on an example game, with the default settings or exactly `playouts` playouts. */
function sampled(name: string, playouts?: number): number[][] {
  const { ground } = runGrounding(readFileSync(join(EXAMPLES_DIR, name), 'utf8'), name, defaultPipelineOptions(), new StageTimer());
  const settings = playouts === undefined ? DEFAULT_MUTEX_SETTINGS : { playouts, seed: 1, maxSteps: DEFAULT_MUTEX_SETTINGS.maxSteps };
  return sampleStates(ground, { ...settings, deadline: Deadline.never() });
}

describe('extra playouts when playouts are short', () => {
  it('mutex-short-playouts: 1,000 playouts instead of 100, the first 100 unchanged', () => {
    const exact = sampled('mutex-short-playouts.kif', 100);
    const more = sampled('mutex-short-playouts.kif');
    expect(exact.length).toBe(401);
    expect(DEFAULT_MUTEX_SETTINGS.minStates).toBe(10_000);
    expect(more.length).toBe(4001);
    expect(more.slice(0, 401)).toEqual(exact);
  });

  it('mutex-long-playouts: 100 playouts visit enough states, and none is added', () => {
    const exact = sampled('mutex-long-playouts.kif', 100);
    expect(exact.length).toBe(100 * 500 + 1);
    expect(sampled('mutex-long-playouts.kif')).toEqual(exact);
  });
});
