// Sampling that stops once its states stop refuting candidates (src/mutex/sample-enough.ts,
// src/play/sample.ts's `enough`), on games/tictactoe.kif: asked at 1,024 states and each
// doubling, and true only when the states leave as many candidates as at the previous ask.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { sampleEnough } from '../src/mutex/sample-enough.js';
import { sampleStates } from '../src/play/sample.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

const ground = (): ReturnType<typeof runGrounding>['ground'] => {
  const name = 'tictactoe.kif';
  return runGrounding(readFileSync(join(EXAMPLES_DIR, name), 'utf8'), name, defaultPipelineOptions(), new StageTimer()).ground;
};

const sample = (game: ReturnType<typeof ground>, enough?: (states: readonly (readonly number[])[]) => boolean): number[][] =>
  sampleStates(game, { playouts: 1000, seed: 1, maxSteps: 9, deadline: Deadline.never(), readOnly: true, enough });

describe('sampling that stops when it has learnt enough', () => {
  it('asks at 1,024 states and each doubling, and stops where told', () => {
    const game = ground();
    const whole = sample(game);
    expect(whole.length).toBeGreaterThan(4096);
    const asked: number[] = [];
    expect(sample(game, (s) => (asked.push(s.length), false))).toEqual(whole);
    expect(asked).toEqual([1024, 2048, 4096]);
    // Told to stop at the second ask: the first 2,048 states of the same sample.
    expect(sample(game, (s) => s.length >= 2048)).toEqual(whole.slice(0, 2048));
  });

  it('is true only when the states leave as many candidates as at the previous ask', () => {
    const game = ground();
    const states = sample(game);
    const enough = sampleEnough(game);
    // The first ask only counts; the initial state alone refutes fewer candidates than all.
    expect(enough(states.slice(0, 1))).toBe(false);
    expect(enough(states.slice(0, 1))).toBe(true);
    expect(enough(states)).toBe(false);
    expect(enough(states)).toBe(true);
  });
});
