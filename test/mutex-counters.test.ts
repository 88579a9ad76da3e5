// Exclusions between a counter and its records (src/mutex/ground-counters.ts; docs/mutex.md 2h,
// "Counters and their records"): games/mutex-counter.kif, a miniature of stateSpaceLarge, proves
// "one choice per level" only with "(depth a) and (choice b ?x) never together for b >= a" (the
// ground SAT alone and the position maps of 2h do not); games/mutex-counter-ahead.kif, where a
// jump records a choice one level ahead, must not prove it past level 1 (it is false there; the
// claims are handed to the proof anyway, as if sampling had missed the violation).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { strengthen } from '../src/mutex/ground-exclusions.js';
import { type Claim, proveClaims } from '../src/mutex/prove.js';
import { mutexView } from '../src/mutex/view.js';
import { sampleStates } from '../src/play/sample.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

const LIMITS = { maxConflicts: 20_000, maxPairQueries: 0, maxWork: 100_000_000, deadline: Deadline.never() };
const LEVELS = ['1', '2', '3', '4', '5', '6', '7', '8'];

/** Per level, whether "at most one `choice` fluent" is proven by the ground SAT alone, and with the facts between two fluents. */
function levels(game: string): { alone: boolean[]; joint: boolean[] } {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const of = (name: string, first?: string): number[] => view.fluents.flatMap((f, i) => (f.name === name && (first === undefined || f.args[0] === first) ? [i] : []));
  // The levels' groups, then the counter's own group.
  const claims: Claim[] = [...LEVELS.map((d) => of('choice', d)), of('depth')].map((members, k) => ({ kind: 'amo', batch: k, members }));
  expect(claims.map((c) => c.members.length)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 9]);
  const alone = proveClaims(view, claims, LIMITS);
  const index = new Map(view.fluents.map((f, i) => [f.term, i]));
  const states = sampleStates(ground, { playouts: 40, seed: 1, maxSteps: 50, deadline: Deadline.never() }).map((s) => s.map((t) => index.get(t)!));
  const joint = strengthen(view, states, claims, alone, LIMITS);
  return { alone: alone.proven.slice(0, LEVELS.length), joint: LEVELS.map((_, i) => (joint?.verdicts ?? alone.verdicts)[i] === 'proven') };
}

describe('exclusions between a counter and its records', () => {
  it('mutex-counter: nothing is recorded at a level the depth has not reached, so one choice per level is proven', () => {
    const r = levels('mutex-counter.kif');
    expect(r.alone.every((p) => p)).toBe(false);
    expect(r.joint).toEqual(LEVELS.map(() => true));
  });

  it('mutex-counter-ahead: a jump records a level ahead, and no level past the first is proven', () => {
    expect(levels('mutex-counter-ahead.kif').joint.slice(1)).toEqual(LEVELS.slice(1).map(() => false));
  });
});
