// A per-transition claim of a derived relation implied by one proven already is not proven again
// (src/mutex/lifted-derived.ts, `impliedBy`; docs/mutex.md, war24): (dest ?o ?x ?y), proven
// "[0] -> [1, 2]" (one square per object), implies "[0, 1] -> [2]", whose own proof cost wargame01
// its budget. The pair check is a stub that counts its calls and closes every pair.
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { transitionFunctions } from '../src/mutex/lifted-derived.js';
import { ruleBase } from '../src/mutex/lifted-unfold.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';

const GAME = `
(role p)
(init (at a 1 1)) (init (at b 2 2))
(<= (legal p (go ?x ?y)) (cell ?x ?y))
(<= (dest ?o ?x ?y) (true (at ?o ?u ?v)) (does p (go ?x ?y)))
(<= (next (at ?o ?x ?y)) (dest ?o ?x ?y))
(<= terminal (true (at a 2 2)))
(<= (goal p 100) (true (at a 2 2)))
(<= (goal p 0) (not (true (at a 2 2))))
(cell 1 1) (cell 1 2) (cell 2 1) (cell 2 2)
`;

/** The game's per-transition claims with a stub pair check, and the number of pair checks made. */
function claims(): { view: ReturnType<ReturnType<typeof transitionFunctions>>; calls: { n: number } } {
  const { loaded } = runGrounding(GAME, 'implied.kif', defaultPipelineOptions(), new StageTimer());
  const calls = { n: 0 };
  const close = (): boolean => (calls.n++, true);
  const transition = transitionFunctions(loaded.normal, ruleBase(loaded.normal, new Map()).facts, ['at/3'], close, () => Deadline.never());
  return { view: transition(new Map()), calls };
}

describe('per-transition claims implied by one proven', () => {
  it('[0] -> [1, 2] proven, then [0, 1] -> [2] and [0, 2] -> [1] asked: no proof, the first handed out', () => {
    const { view, calls } = claims();
    view.want!('static dest/3', [true, false, false]);
    expect(calls.n).toBe(1);
    view.want!('static dest/3', [true, true, false]);
    view.want!('static dest/3', [true, false, true]);
    expect(calls.n).toBe(1);
    expect(view.get('static dest/3')).toEqual([{ input: [0], output: [1, 2] }]);
  });

  it('[1] -> [0, 2] is not implied by [0] -> [1, 2]: proven on its own', () => {
    const { view, calls } = claims();
    view.want!('static dest/3', [true, false, false]);
    view.want!('static dest/3', [false, true, false]);
    expect(calls.n).toBe(2);
    expect(view.get('static dest/3')).toEqual([{ input: [0], output: [1, 2] }, { input: [1], output: [0, 2] }]);
  });
});
