// Mutex groups proven by enumerating every reachable state (docs/mutex.md, 2f): the breadth-first
// search of src/play/reachable.ts and the stage's verdict on its states (src/pipeline/mutex-states.ts,
// src/mutex/states.ts). games/mutex-states.kif has a true group the proofs of 2a-2e do not prove; its 5
// states prove it, and a state cap below 5 proves nothing by the search.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { reachableStates } from '../src/play/reachable.js';
import { mutexStates } from '../src/pipeline/mutex-states.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import {
  DEFAULT_MUTEX_SETTINGS, groundNormalGame, loadGame, removeUnusedInstances, resolvePipelineOptions, runGrounding,
} from '../src/pipeline/stages.js';
import { mutexGroups } from '../src/pipeline/stages-play.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

/** The mutex stage on an example game, with `maxStates` for the search (undefined: the default). */
function mutexOf(name: string, maxStates?: number) {
  const options = defaultPipelineOptions();
  const { loaded, ground } = runGrounding(example(name), name, options, new StageTimer());
  const settings = maxStates === undefined ? DEFAULT_MUTEX_SETTINGS : { ...DEFAULT_MUTEX_SETTINGS, maxStates };
  return mutexGroups(ground, loaded.normal, options, settings, new StageTimer());
}

describe('mutex groups by every reachable state', () => {
  it('proves a true group that is not inductive once the search has found every state', () => {
    const r = mutexOf('mutex-states.kif');
    expect(r.stats.enumeration).toEqual({ states: 5, end: 'complete', successors: 4 });
    expect(r.groups.find((g) => g.relation === 'flag')).toMatchObject({ members: ['(flag a)', '(flag b)', '(flag c)'], proven: true, proof: 'states' });
    // The counters stay proven lifted; no ground SAT query is asked.
    expect(r.groups.filter((g) => g.relation !== 'flag').map((g) => g.proof)).toEqual(['lifted', 'lifted']);
    expect(r.stats.satQueries).toBe(0);
    expect(r.stats.chosen.states).toEqual({ groups: 1, fluents: 3 });
    expect(r.bits).toBe(8);
  });

  it('proves nothing by a search the state cap stops: the group is left to the inductive proofs', () => {
    const r = mutexOf('mutex-states.kif', 4);
    expect(r.stats.enumeration?.end).toBe('states');
    // Not by the states: the ground SAT with facts between two fluents (2h: the counters'
    // values in lockstep) proves it, as it would with no search at all.
    expect(r.groups.find((g) => g.relation === 'flag')).toMatchObject({ proven: true, proof: 'ground' });
    expect(r.groups.some((g) => g.proof === 'states')).toBe(false);
    expect(r.stats.chosen.states).toBeUndefined();
    expect(r.stats.satQueries).toBeGreaterThan(0);
  });

  it('searches a game with lazy axioms with the fast simulator: complete, its groups lifted or by states, no SAT query', () => {
    const options = resolvePipelineOptions({ lazyRelations: ['right', 'left'] });
    const loaded = loadGame(example('lazy-board.kif'), 'lazy-board.kif', options, new StageTimer());
    const ground = removeUnusedInstances(groundNormalGame(loaded.normal, options, new StageTimer()).ground, new StageTimer(), options).game;
    expect(ground.lazy).toBeDefined();
    const r = mutexGroups(ground, loaded.normal, options, DEFAULT_MUTEX_SETTINGS, new StageTimer());
    expect(r.stats.enumeration?.end).toBe('complete');
    expect(r.stats.satQueries).toBe(0);
    expect(r.groups.length).toBeGreaterThan(0);
    expect(r.groups.every((g) => g.proven && (g.proof === 'lifted' || g.proof === 'states'))).toBe(true);
  });

  it('stops the playouts of a game with lazy axioms past a tenth of the budget once they have 8 states, other games at half', () => {
    // With lazy axioms the lifted proofs are the only proof: chess's budget went half to 1,700
    // states whose later ones refuted no claim the proofs reached (docs/mutex.md, samp31).
    const options = resolvePipelineOptions({ lazyRelations: ['right', 'left'] });
    const loaded = loadGame(example('lazy-board.kif'), 'lazy-board.kif', options, new StageTimer());
    const lazy = removeUnusedInstances(groundNormalGame(loaded.normal, options, new StageTimer()).ground, new StageTimer(), options).game;
    const eager = runGrounding(example('lazy-board.kif'), 'lazy-board.kif', defaultPipelineOptions(), new StageTimer()).ground;
    expect(lazy.lazy).toBeDefined();
    expect(eager.lazy).toBeUndefined();
    /** The shares of `seconds` the sampling path asked its deadline for (no search: maxStates 0), a tenth's already passed; and the states. */
    const asked = (ground: typeof lazy): { shares: number[]; states: number } => {
      const shares: number[] = [];
      const deadline = new (class extends Deadline {
        override within(seconds: number): Deadline {
          shares.push(seconds / 100);
          return seconds / 100 === 0.1 ? new Deadline(0) : super.within(seconds);
        }
      })(Infinity);
      const states = mutexStates(ground, { ...DEFAULT_MUTEX_SETTINGS, maxStates: 0 }, deadline, 100).states;
      return { shares, states: Array.isArray(states) ? states.length : -1 };
    };
    expect(asked(lazy)).toEqual({ shares: [0.1, 0.5], states: 8 });
    const e = asked(eager);
    expect(e.shares).toEqual([0.5]);
    expect(e.states).toBeGreaterThan(8);
  });

  it('finds the 5,478 states of tic-tac-toe, the known count, and stops at a cap', () => {
    const { ground } = runGrounding(example('tictactoe.kif'), 'tictactoe.kif', defaultPipelineOptions(), new StageTimer());
    const all = reachableStates(ground, { maxStates: 1e6, seconds: 1e6, deadline: Deadline.never() });
    expect(all.end).toBe('complete');
    expect(all.states).toHaveLength(5478);
    expect(new Set(all.states.map((s) => s.join(' '))).size).toBe(5478);
    const capped = reachableStates(ground, { maxStates: 100, seconds: 1e6, deadline: Deadline.never() });
    expect(capped.end).toBe('states');
    // It stops at the first state past the cap.
    expect(capped.states).toHaveLength(101);
    // A complete search whose states come to more term ids than maxFluents counts as capped,
    // and an incomplete one hands on only the first keepIncomplete states.
    const total = all.states.reduce((n, s) => n + s.length, 0);
    const heavy = reachableStates(ground, { maxStates: 1e6, seconds: 1e6, deadline: Deadline.never(), maxFluents: total - 1, keepIncomplete: 10 });
    expect(heavy.end).toBe('states');
    expect(heavy.states).toEqual(all.states.slice(0, 10));
    expect(reachableStates(ground, { maxStates: 1e6, seconds: 1e6, deadline: Deadline.never(), maxFluents: total }).states).toHaveLength(5478);
    expect(reachableStates(ground, { maxStates: 100, seconds: 1e6, deadline: Deadline.never(), keepIncomplete: 7 }).states).toHaveLength(7);
  });
});
