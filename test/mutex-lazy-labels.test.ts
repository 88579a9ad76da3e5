// How a game with lazy axioms labels the groups its lifted proofs leave open (find-proofs.ts,
// docs/mutex.md, thirtieth session, sudoku30; since sat33 the ground SAT runs too, its lazy atoms
// free): a group whose lifted proof failed with the budget unspent is "observed only" (the ground
// proof's rule for a claim shown not inductive), and only a group the budget cut (here the lifted
// pair limit and the ground proof's work budget) is "unproven for lack of budget". games/mutex-lazy-observed.kif's `cell` group holds in every
// reachable state but is not inductive; its `step` counter is proven lifted.
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { DEFAULT_MUTEX_OPTIONS, findMutexGroups } from '../src/mutex/index.js';
import { groundNormalGame, loadGame, removeUnusedInstances, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { sampleStates } from '../src/play/sample.js';
import { StageTimer } from '../src/timer.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES_DIR } from './corpus.js';

function lazyGame() {
  const options = resolvePipelineOptions({ lazyRelations: ['open'] });
  const loaded = loadGame(readFileSync(join(EXAMPLES_DIR, 'mutex-lazy-observed.kif'), 'utf8'), 'mutex-lazy-observed.kif', options, new StageTimer());
  const ground = removeUnusedInstances(groundNormalGame(loaded.normal, options, new StageTimer()).ground, new StageTimer(), options).game;
  const states = sampleStates(ground, { playouts: 20, seed: 5, maxSteps: 50, deadline: Deadline.never() });
  return { ground, states, normal: loaded.normal };
}

describe('labels of the open groups of a game with lazy axioms', () => {
  it('a lifted proof that failed within the budget: observed only, not unproven for lack of budget', () => {
    const { ground, states, normal } = lazyGame();
    expect(ground.lazy).toBeDefined();
    const r = findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never(), lifted: normal });
    expect(r.stats.opaqueAtoms).toBeGreaterThan(0);
    expect(r.stats.budgetReached).toBe(false);
    expect(r.stats.proofComplete).toBe(true);
    const cell = r.groups.find((g) => g.relation === 'cell')!;
    expect(cell.proof).toBe('observed');
    expect(r.groups.find((g) => g.relation === 'step')!.proof).toBe('lifted');
    expect(r.stats.chosen.observed.groups).toBe(1);
    expect(r.stats.chosen.unproven.groups).toBe(0);
    expect(r.stats.notInductive).toBeGreaterThan(0);
    expect(r.stats.unprovenForBudget).toBe(0);
  });

  it('lifted proofs cut by their pair limit, the ground SAT by its work budget: the open groups unproven for lack of budget', () => {
    const { ground, states, normal } = lazyGame();
    // The ground SAT (sat33) would decide them: with a negative work budget it starts no batch (prove.ts stops at work > maxWork).
    const r = findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, maxLiftedPairs: 0, maxWork: -1, deadline: Deadline.never(), lifted: normal });
    expect(r.stats.budgetReached).toBe(true);
    expect(r.stats.proofComplete).toBe(false);
    expect(r.groups.length).toBeGreaterThan(0);
    expect(r.groups.every((g) => g.proof === 'unproven')).toBe(true);
    expect(r.stats.notInductive).toBe(0);
  });
});
