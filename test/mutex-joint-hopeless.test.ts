// Whether the joint passes can prove an open claim at all (src/mutex/joint-hopeless.ts; docs/mutex.md,
// catch29): the pair facts every state holds, and one query per open claim with all of them
// assumed. games/mutex-turns.kif's squares are proven by the joint passes, so the check must not
// call them hopeless; games/mutex-turns-broken.kif's are false (two pieces on a square after the
// first step), so the check shows each violated and the passes are not run (no fact tried).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { strengthen } from '../src/mutex/ground-exclusions.js';
import { heldPairFacts, jointHopeless } from '../src/mutex/joint-hopeless.js';
import { type Claim, proveClaims } from '../src/mutex/prove.js';
import { mutexView } from '../src/mutex/view.js';
import { sampleStates } from '../src/play/sample.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

const LIMITS = { maxConflicts: 20_000, maxPairQueries: 0, maxWork: 100_000_000, deadline: Deadline.never() };

/** The check on the two squares' groups (and the one-relation groups beside them), and what `strengthen` then tried and proved. */
function check(game: string): { hopeless: boolean; queries: number; tried: number; squares: boolean[] } {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const of = (name: string, first?: string): number[] => view.fluents.flatMap((f, i) => (f.name === name && (first === undefined || f.args[0] === first) ? [i] : []));
  const claims: Claim[] = [of('cell', '1'), of('cell', '2'), of('selectcontrol'), of('placecontrol'), of('selected')].map((members, k) => ({ kind: 'amo', batch: k, members }));
  const alone = proveClaims(view, claims, LIMITS);
  const index = new Map(view.fluents.map((f, i) => [f.term, i]));
  const states = sampleStates(ground, { playouts: 20, seed: 1, maxSteps: 50, deadline: Deadline.never() }).map((s) => s.map((t) => index.get(t)!));
  const open = [0, 1].filter((i) => !alone.proven[i]);
  const r = jointHopeless(view, [view.init, ...states], claims, open, alone.proven, LIMITS);
  const joint = strengthen(view, states, claims, alone, LIMITS);
  return { hopeless: r.hopeless, queries: r.queries, tried: joint?.tried ?? 0, squares: [0, 1].map((i) => (joint?.verdicts ?? alone.verdicts)[i] === 'proven') };
}

describe('joint passes that cannot prove a claim', () => {
  it('the pair facts held by every state: "not both" for disjoint fluents, "a only with b" for a within b', () => {
    // Fluent 0 in every state, 1 and 2 never together: 1 and 2 each only with 0, and never both.
    expect(heldPairFacts([[0, 1], [0, 2], [0]])).toEqual([[-2, 1], [-3, 1], [-2, -3]]);
    expect(heldPairFacts([[0, 1], [1]])).toEqual([[-1, 2]]);
  });

  it('mutex-turns: the squares are proven by the joint passes, so the check does not call them hopeless', () => {
    const r = check('mutex-turns.kif');
    expect(r.hopeless).toBe(false);
    expect(r.squares).toEqual([true, true]);
    expect(r.tried).toBeGreaterThan(0);
  });

  it('mutex-turns-broken: each square is violated with every held fact assumed, and no fact is tried', () => {
    expect(check('mutex-turns-broken.kif')).toEqual({ hopeless: true, queries: 2, tried: 0, squares: [false, false] });
  });
});
