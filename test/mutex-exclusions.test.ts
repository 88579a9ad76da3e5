// Facts between two relations, proven with the groups the first proof left unproven
// (src/mutex/ground-exclusions.ts, ground-joint.ts; docs/mutex.md section 2h): games/mutex-turns.kif, a
// miniature of quarto, proves "one piece per square" only with "a select and a place are never
// one step" (the ground SAT alone does not); games/mutex-turns-broken.kif, where white selects
// while black places in the first step, must not prove it (it is false there; the claim is
// handed to the proof anyway, as if sampling had missed the violation).
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

/**
 * Per square, whether "at most one `cell` fluent" is proven by the ground SAT alone, and with the
 * facts between two relations that 20 sampled playouts hold.
 */
function squares(game: string): { alone: boolean[]; joint: boolean[] } {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const of = (name: string, first?: string): number[] => view.fluents.flatMap((f, i) => (f.name === name && (first === undefined || f.args[0] === first) ? [i] : []));
  // The two squares, then the groups of one relation the proof has besides (one control each).
  const claims: Claim[] = [of('cell', '1'), of('cell', '2'), of('selectcontrol'), of('placecontrol'), of('selected')].map((members, k) => ({ kind: 'amo', batch: k, members }));
  expect(claims.map((c) => c.members.length)).toEqual([3, 3, 2, 2, 2]);
  const alone = proveClaims(view, claims, LIMITS);
  const index = new Map(view.fluents.map((f, i) => [f.term, i]));
  const states = sampleStates(ground, { playouts: 20, seed: 1, maxSteps: 50, deadline: Deadline.never() }).map((s) => s.map((t) => index.get(t)!));
  const joint = strengthen(view, states, claims, alone, LIMITS);
  return { alone: alone.proven.slice(0, 2), joint: [0, 1].map((i) => (joint?.verdicts ?? alone.verdicts)[i] === 'proven') };
}

describe('facts between two relations', () => {
  it('mutex-turns: a select and a place are never one step, so one piece per square is proven', () => {
    expect(squares('mutex-turns.kif')).toEqual({ alone: [false, false], joint: [true, true] });
  });

  it('mutex-turns-broken: white selects while black places, and no square group is proven', () => {
    expect(squares('mutex-turns-broken.kif')).toEqual({ alone: [false, false], joint: [false, false] });
  });
});
