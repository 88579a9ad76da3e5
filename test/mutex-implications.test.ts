// Implications between two relations proven with the "at most one" claims (src/mutex/implications.ts,
// docs/mutex.md section 2d): a miniature of hex, where a square joined to a chain (`connected`)
// has a stone (`cell`), so a stone placed on an empty square never gives it a second `connected`
// fluent; and a variant where the move that joins a square leaves no stone, where neither the
// implication nor the group may be proven (the group is false there).
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { hypotheses } from '../src/mutex/candidates.js';
import type { Implication } from '../src/mutex/implications.js';
import { DEFAULT_MUTEX_OPTIONS, findMutexGroups } from '../src/mutex/index.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { fluentArgs, mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { groundNormalGame, loadGame, removeUnusedInstances, resolvePipelineOptions, runGrounding, DEFAULT_MUTEX_SETTINGS } from '../src/pipeline/stages.js';
import { mutexGroups } from '../src/pipeline/stages-play.js';
import { sampleStates } from '../src/play/sample.js';
import { StageTimer } from '../src/timer.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES_DIR } from './corpus.js';

/** Miniature hex (2 x 2, 4 steps); `join` is the move that makes a `connected` fluent. */
function miniHex(join: 'place' | 'mark'): string {
  return `
(role red) (role blue)
(init (control red)) (init (step 1))
(<= (legal ?role (place ?m ?n)) (true (control ?role)) (row ?m) (col ?n)
    (not (true (cell ?m ?n red))) (not (true (cell ?m ?n blue))))
(<= (legal ?role (mark ?m ?n)) (true (control ?role)) (row ?m) (col ?n)
    (not (true (cell ?m ?n red))) (not (true (cell ?m ?n blue))))
(<= (legal red noop) (true (control blue)))
(<= (legal blue noop) (true (control red)))
(<= (next (cell ?m ?n ?role)) (does ?role (place ?m ?n)))
(<= (next (cell ?m ?n ?role)) (true (cell ?m ?n ?role)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= (next (owner ?k ?role)) (true (step ?k)) (true (control ?role)))
(<= (next (owner ?k ?role)) (true (owner ?k ?role)))
(<= (next (connected ?k ?m ?n)) (does ?role (${join} ?m ?n)) (true (step ?k)))
(<= (next (connected ?k ?m ?n)) (transfer ?e) (true (connected ?e ?m ?n)) (true (step ?k)))
(<= (next (connected ?k ?m ?n)) (true (connected ?k ?m ?n)) (not (transfer ?k)))
(<= (next (control red)) (true (control blue)))
(<= (next (control blue)) (true (control red)))
(<= (transfer ?k) (does ?role (place ?x ?y)) (true (owner ?k ?role)) (true (connected ?k ?m ?n)) (adjacent ?x ?y ?m ?n))
(<= (adjacent ?j ?k ?j ?n) (nextcol ?k ?n) (row ?j))
(<= (adjacent ?j ?k ?j ?n) (nextcol ?n ?k) (row ?j))
(<= (adjacent ?j ?k ?m ?k) (nextrow ?j ?m) (col ?k))
(<= (adjacent ?j ?k ?m ?k) (nextrow ?m ?j) (col ?k))
(<= (goal red 100) (true (step 5)))
(<= (goal blue 100) (true (step 5)))
(<= terminal (true (step 5)))
(row a) (row b) (col 1) (col 2) (nextrow a b) (nextcol 1 2)
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
`;
}

/** (connected ?k ?m ?n) => (cell ?m ?n ?someone). */
const CONNECTED_CELL: Implication = { from: 'connected/3', to: 'cell/3', map: [1, 2, undefined] };

/** Whether "at most one connected fluent per square" is proven lifted, with the implications offered. */
function connectedProven(join: 'place' | 'mark', implications: readonly Implication[]): { amo: boolean; implied: number } {
  const { loaded, ground } = runGrounding(miniHex(join), 'game.kif', defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  // The ground fluents' values, for splitting the implied stone's colour (lifted-unfold.ts).
  const fluents = fluentArgs(ground);
  const r = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6, fluents, implications });
  const i = hyps.findIndex((h) => `${h.relation} [${h.input.join(',')}]` === 'connected/3 [1,2]');
  expect(i).toBeGreaterThanOrEqual(0);
  return { amo: r.proven[i]!, implied: r.implied.length };
}

describe('implications between two relations, proven lifted', () => {
  it('mini hex: one connected fluent per square is proven with connected => cell, not without', () => {
    expect(connectedProven('place', [CONNECTED_CELL])).toEqual({ amo: true, implied: 1 });
    expect(connectedProven('place', [])).toEqual({ amo: false, implied: 0 });
  });

  it('a move that joins a square without a stone: neither the implication nor the group is proven', () => {
    expect(connectedProven('mark', [CONNECTED_CELL])).toEqual({ amo: false, implied: 0 });
  });

  it('findMutexGroups finds the implication on the sampled states and proves the connected groups lifted', () => {
    const { loaded, ground } = runGrounding(miniHex('place'), 'game.kif', defaultPipelineOptions(), new StageTimer());
    const states = sampleStates(ground, { playouts: 30, seed: 2, maxSteps: 50, deadline: Deadline.never() });
    const r = findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never(), lifted: loaded.normal });
    const connected = r.groups.filter((g) => g.relation === 'connected');
    expect(connected.length).toBe(4);
    expect(connected.every((g) => g.proof === 'lifted' && g.members.length === 5)).toBe(true);
  });
});

describe('mutex groups of a game with lazy axioms', () => {
  it('lazy-board with right and left lazy: groups found, every proven one proven lifted or by the ground SAT (lazy atoms free)', () => {
    const options = resolvePipelineOptions({ lazyRelations: ['right', 'left'] });
    const loaded = loadGame(readFileSync(join(EXAMPLES_DIR, 'lazy-board.kif'), 'utf8'), 'lazy-board.kif', options, new StageTimer());
    const ground = removeUnusedInstances(groundNormalGame(loaded.normal, options, new StageTimer()).ground, new StageTimer(), options).game;
    expect(ground.lazy).toBeDefined();
    // No search over every reachable state (docs/mutex.md 2f; test/mutex-states.test.ts searches this game): the lifted proofs alone.
    const r = mutexGroups(ground, loaded.normal, options, { ...DEFAULT_MUTEX_SETTINGS, playouts: 20, seconds: 60, maxStates: 0 }, new StageTimer());
    expect(r.stats.opaqueAtoms).toBeGreaterThan(0);
    expect(r.groups.some((g) => g.proven)).toBe(true);
    expect(r.groups.every((g) => !g.proven || g.proof === 'lifted' || g.proof === 'ground')).toBe(true);
  });
});
