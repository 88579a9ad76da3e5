// Sampling that stops once its states stop refuting candidates (src/mutex/sample-enough.ts,
// src/play/sample.ts's `enough`), on games/tictactoe.kif: asked at 1,024 states and each
// doubling, and true only when the states leave as many candidates as at the previous ask; what
// it held is handed to the stage (find-early.ts), which then holds only the states after it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { refuteFirst } from '../src/mutex/find-early.js';
import { DEFAULT_MUTEX_OPTIONS } from '../src/mutex/index.js';
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
    const { enough } = sampleEnough(game);
    // The first ask only counts; the initial state alone refutes fewer candidates than all.
    expect(enough(states.slice(0, 1))).toBe(false);
    expect(enough(states.slice(0, 1))).toBe(true);
    expect(enough(states)).toBe(false);
    expect(enough(states)).toBe(true);
  });
});

describe('what the stopping test held, handed on (docs/mutex.md, merr26)', () => {
  it('gives the stage the same candidates, its hypotheses not made nor held again', () => {
    const game = ground();
    const test = sampleEnough(game);
    const states = sampleStates(game, { playouts: 1000, seed: 1, maxSteps: 9, deadline: Deadline.never(), readOnly: true, enough: (s) => (test.enough(s), false) });
    const held = test.held()!;
    // Asked at 1,024, 2,048 and 4,096 states: held those, the states after them left to the stage.
    expect(held.given).toHaveLength(4096);
    expect(states.length).toBeGreaterThan(4096);
    const options = { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never() };
    const alone = refuteFirst(game, states, options);
    const handed = refuteFirst(game, states, options, held);
    expect(handed.hyps).toBe(held.hyps);
    expect(handed.view).toBe(held.view);
    expect(handed.hyps).toEqual(alone.hyps);
    expect(handed.cands).toEqual(alone.cands);
    expect(handed.claims).toEqual(alone.claims);
    expect(handed.sampled).toEqual(alone.sampled);
    // States that do not begin with the held ones: nothing taken from the test.
    const other = refuteFirst(game, states.slice(1), options, held);
    expect(other.hyps).not.toBe(held.hyps);
    expect(other.cands).toEqual(refuteFirst(game, states.slice(1), options).cands);
  });
});
