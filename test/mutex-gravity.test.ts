// Facts between two fluents of one relation (src/mutex/ground-exclusions.ts; docs/mutex.md 2h,
// "Within one relation"): games/mutex-gravity.kif, a miniature of connect4, proves "one value per
// square" only with "a square above a blank one is blank" ((cell c 1 b) => (cell c 2 b), two
// fluents of `cell`); games/mutex-gravity-broken.kif, whose pieces may float, must not prove the
// squares above the first row (false there; the claims are handed to the proof anyway, as if
// sampling had missed the violation).
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

/** The six squares, column by column from the bottom: proven by the ground SAT alone, and with the facts 20 playouts hold. */
function squares(game: string): { alone: boolean[]; joint: boolean[] } {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const cell = (x: string, y: string): number[] => view.fluents.flatMap((f, i) => (f.name === 'cell' && f.args[0] === x && f.args[1] === y ? [i] : []));
  const keys = [['1', '1'], ['1', '2'], ['1', '3'], ['2', '1'], ['2', '2'], ['2', '3']] as const;
  const control = view.fluents.flatMap((f, i) => (f.name === 'control' ? [i] : []));
  const claims: Claim[] = [...keys.map(([x, y]) => cell(x, y)), control].map((members, k) => ({ kind: 'amo', batch: k, members }));
  expect(claims.map((c) => c.members.length)).toEqual([3, 3, 3, 3, 3, 3, 2]);
  const alone = proveClaims(view, claims, LIMITS);
  const index = new Map(view.fluents.map((f, i) => [f.term, i]));
  const states = sampleStates(ground, { playouts: 20, seed: 1, maxSteps: 50, deadline: Deadline.never() }).map((s) => s.map((t) => index.get(t)!));
  const joint = strengthen(view, states, claims, alone, LIMITS);
  return { alone: alone.proven.slice(0, 6), joint: keys.map((_, i) => (joint?.verdicts ?? alone.verdicts)[i] === 'proven') };
}

describe('facts within one relation', () => {
  it('mutex-gravity: a square above a blank one is blank, so one value per square is proven', () => {
    expect(squares('mutex-gravity.kif')).toEqual({ alone: [true, false, false, true, false, false], joint: [true, true, true, true, true, true] });
  });

  it('mutex-gravity-broken: a piece may float, and no square above the first row is proven', () => {
    const { joint } = squares('mutex-gravity-broken.kif');
    expect([joint[1], joint[2], joint[4], joint[5]]).toEqual([false, false, false, false]);
  });
});
