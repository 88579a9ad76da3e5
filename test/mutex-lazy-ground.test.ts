// The ground SAT on games with lazy axioms (find-proofs.ts, encode.ts; docs/mutex.md, thirty-third
// session, sat33): the atoms of the lazy part are free variables with no completion, so a query
// that is unsatisfiable still proves its claim. games/mutex-lazy-ground.kif's `pos` is exactly one
// only by the ground SAT; games/mutex-lazy-free.kif's `pos` group holds only while the lazy
// `danger` is false, so it must not be proven.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { DEFAULT_MUTEX_OPTIONS, findMutexGroups } from '../src/mutex/index.js';
import { groundNormalGame, loadGame, removeUnusedInstances, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { sampleStates } from '../src/play/sample.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

function lazyGame(file: string, lazy: string, maxSteps: number) {
  const options = resolvePipelineOptions({ lazyRelations: [lazy] });
  const loaded = loadGame(readFileSync(join(EXAMPLES_DIR, file), 'utf8'), file, options, new StageTimer());
  const ground = removeUnusedInstances(groundNormalGame(loaded.normal, options, new StageTimer()).ground, new StageTimer(), options).game;
  const states = sampleStates(ground, { playouts: 20, seed: 5, maxSteps, deadline: Deadline.never() });
  return { ground, states, normal: loaded.normal };
}

describe('the ground SAT of a game with lazy axioms, lazy atoms left free', () => {
  it('proves a claim the lifted proofs leave open: exactly one `pos`', () => {
    const { ground, states, normal } = lazyGame('mutex-lazy-ground.kif', 'stuck', 50);
    expect(ground.lazy?.relations).toEqual(['stuck']);
    const r = findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never(), lifted: normal });
    const pos = r.groups.find((g) => g.relation === 'pos')!;
    expect(pos.members.length).toBe(4);
    expect(pos.exactlyOne).toBe(true);
    expect(pos.proof).toBe('ground');
    expect(r.stats.opaqueAtoms).toBeGreaterThan(0);
    expect(r.stats.satQueries).toBeGreaterThan(0);
    // The lifted proofs alone: "at most one", not "at least one".
    expect(r.stats.provenLifted).toBeGreaterThan(0);
  });

  it('does not prove a group whose step holds only for one value of the lazy atom', () => {
    // Sampled to step 2, the group survives; it is false (two members at step 4).
    const { ground, states, normal } = lazyGame('mutex-lazy-free.kif', 'danger', 2);
    expect(ground.lazy?.relations).toEqual(['danger']);
    const r = findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never(), lifted: normal });
    expect(r.stats.satQueries).toBeGreaterThan(0);
    const pos = r.groups.find((g) => g.relation === 'pos');
    expect(pos).toBeDefined();
    expect(pos!.proven).toBe(false);
    // Played to the end, a state has both: the group is false indeed.
    const deep = sampleStates(ground, { playouts: 5, seed: 5, maxSteps: 10, deadline: Deadline.never() });
    const text = (s: readonly number[]): string[] => s.map((t) => ground.terms.text(t));
    expect(deep.some((s) => text(s).includes('(pos 1)') && text(s).includes('(pos 2)'))).toBe(true);
  });
});
