// The state search on a projection (src/mutex/projection.ts, docs/mutex.md "Projection search"):
// games/mutex-projection.kif's group {(count blue 2), (count red 2)} (not inductive) is proven by
// it in the mutex stage, with no search of the reachable states (maxStates 0); in the twin
// games/mutex-projection-bonus.kif the group is false, and the move that makes it so (`bonus`,
// legal on a fluent outside the projection) is taken as possibly legal, so the pass leaves it.
// card18: the squares of the line are interchangeable, and the search keeps one representative per
// state (projection-symmetry.ts); games/mutex-projection-asym.kif has a square unlike the others.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { proveByProjection } from '../src/mutex/projection.js';
import { mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { DEFAULT_MUTEX_SETTINGS, runGrounding } from '../src/pipeline/stages.js';
import { mutexGroups } from '../src/pipeline/stages-play.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

function grounded(name: string) {
  const options = defaultPipelineOptions();
  return { options, ...runGrounding(readFileSync(join(EXAMPLES_DIR, name), 'utf8'), name, options, new StageTimer()) };
}

/** The pass alone on one "at most one" claim, members by text. */
function projected(name: string, members: readonly string[]) {
  const view = mutexView(grounded(name).ground);
  const ids = members.map((t) => view.fluents.findIndex((f) => f.text === t));
  expect(ids.every((i) => i >= 0)).toBe(true);
  return proveByProjection(view, [{ kind: 'amo', batch: 0, members: ids }], ['unproven'], { deadline: Deadline.never() });
}

const pair = ['(count blue 2)', '(count red 2)'];

describe('mutex groups proven by a state search on a projection', () => {
  it('mutex-projection: the count group is proven in the mutex stage without a search of the reachable states', () => {
    const { options, loaded, ground } = grounded('mutex-projection.kif');
    const r = mutexGroups(ground, loaded.normal, options, { ...DEFAULT_MUTEX_SETTINGS, maxStates: 0 }, new StageTimer());
    const counts = r.groups.filter((g) => g.relation === 'count').map((g) => ({ members: g.members, proof: g.proof }));
    expect(counts).toContainEqual({ members: pair, proof: 'ground' });
  });

  it('mutex-projection: the pass alone proves it', () => {
    const r = projected('mutex-projection.kif', pair);
    expect(r.verdicts).toEqual(['proven']);
    expect(r.searches).toBe(1);
  });

  it('mutex-projection-bonus: the false group is not proven (bonus possibly legal)', () => {
    const r = projected('mutex-projection-bonus.kif', pair);
    expect(r.verdicts).toEqual(['unproven']);
    expect(r.searches).toBe(1);
    expect(r.cut).toBe(false);
  });

  it('mutex-projection: the squares are searched up to their symmetries (9 states, 26 without)', () => {
    const r = projected('mutex-projection.kif', pair);
    expect(r.verdicts).toEqual(['proven']);
    expect(r.states).toBe(9);
  });

  it('mutex-projection-asym: no square is swapped, and the false group is not proven', () => {
    const r = projected('mutex-projection-asym.kif', pair);
    expect(r.verdicts).toEqual(['unproven']);
    expect(r.cut).toBe(false);
    // No symmetry (square 3's legality reads square 1): every state, 20; 14 when swaps that are
    // not symmetries are accepted unverified.
    expect(r.states).toBe(20);
  });

  it('a budget already spent: the pass does nothing and says it was cut', () => {
    const view = mutexView(grounded('mutex-projection.kif').ground);
    const ids = pair.map((t) => view.fluents.findIndex((f) => f.text === t));
    const spent = new Deadline(Infinity, Infinity, undefined, 0);
    const r = proveByProjection(view, [{ kind: 'amo', batch: 0, members: ids }], ['unproven'], { deadline: spent });
    expect(r).toMatchObject({ verdicts: ['unproven'], work: 0, cut: true });
  });
});
