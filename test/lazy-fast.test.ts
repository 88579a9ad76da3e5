// The fast simulator on games with lazy axioms (src/play/fast/lazy.ts, the term-table evaluator
// src/play/lazy-eval.ts) against verify's ground simulator with the Tau-Prolog evaluator
// (src/play/ground-sim.ts, src/play/lazy.ts): along seeded random playouts over the same ground
// game, the same legal moves, terminal, goals and successor states in every state.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GdlError } from '../src/gdl/diagnostics.js';
import type { GroundGame } from '../src/ground/types.js';
import { type PipelineOptions, groundNormalGame, loadGame, removeUnusedInstances, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { playGroundGame } from '../src/pipeline/stages-play.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { createGroundSimulator } from '../src/play/ground-sim.js';
import { createRandom } from '../src/play/random.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

function ground(text: string, file: string, options: PipelineOptions): GroundGame {
  const loaded = loadGame(text, file, options, new StageTimer());
  const full = groundNormalGame(loaded.normal, options, new StageTimer()).ground;
  return removeUnusedInstances(full, new StageTimer(), options).game;
}

/** Reads an example game of games/ and grounds it with `lazy` forced lazy. */
function example(file: string, lazy: string[]): GroundGame {
  return ground(readFileSync(join(EXAMPLES_DIR, file), 'utf8'), file, resolvePipelineOptions({ lazyRelations: lazy }));
}

/** Plays `playouts` seeded random playouts of at most `steps` joint moves on both simulators; returns the states compared. */
function compare(game: GroundGame, playouts: number, steps: number, engine: 'terms' | 'prolog', seed = 1): number {
  const fast = createFastSimulator(game, Deadline.never());
  const slow = createGroundSimulator(game, Deadline.never());
  const random = createRandom(seed);
  let states = 0;
  for (let p = 0; p < playouts; p++) {
    let state = fast.initialState();
    expect(Array.from(slow.initialState())).toEqual(Array.from(state));
    for (let step = 0; ; step++) {
      const a = fast.info(state);
      const b = slow.info(state);
      const where = `playout ${p}, step ${step}: ${fast.text.state(state).join(' ')}`;
      expect(a.legal.map((m) => [...m].sort((x, y) => x - y)), where).toEqual(b.legal.map((m) => [...m].sort((x, y) => x - y)));
      expect(a.terminal, where).toBe(b.terminal);
      expect(a.goals, where).toEqual(b.goals);
      states++;
      if (step >= steps || a.terminal || a.legal.some((m) => m.length === 0)) break;
      const joint = a.legal.map((m) => m[random.below(m.length)]!);
      const next = fast.successor(state, joint);
      expect(Array.from(next), `${where}, after ${joint.map((m) => fast.text.move(m)).join(' ')}`).toEqual(Array.from(slow.successor(state, joint)));
      state = next;
    }
  }
  expect(fast.lazyEngine()).toBe(engine);
  return states;
}

describe('fast simulator with lazy axioms against the ground simulator', () => {
  it('lazy-board.kif (right recursion, lazy legal/next/goal rules, opaque atoms): term-table evaluator throughout', () => {
    const game = example('lazy-board.kif', ['right', 'left']);
    expect(game.lazy!.relations).toEqual(['attacked', 'exposed', 'free', 'left', 'reach', 'right']);
    expect(compare(game, 30, 10, 'terms')).toBeGreaterThan(100);
  });

  it("lazy-board.kif with the slide rule reading (empty ?b): the relaxed game keeps empty's rules, so slides are possible heads", () => {
    const text = readFileSync(join(EXAMPLES_DIR, 'lazy-board.kif'), 'utf8');
    const slide = '(sq ?b) (reach ?a ?b) (not (true (at white ?b))) (not (true (at black ?b))) (not (true (block ?b))))';
    expect(text).toContain(slide);
    // empty is read only by the lazy program and this lazy rule: no ground rule reads it.
    const game = ground(text.replace(slide, '(empty ?b) (reach ?a ?b))'), 'lazy-board-empty.kif', resolvePipelineOptions({ lazyRelations: ['right', 'left'] }));
    expect(game.lazy!.heads.map((t) => game.terms.text(t)).filter((t) => t.includes('slide')).length).toBeGreaterThan(0);
    expect(compare(game, 20, 10, 'terms')).toBeGreaterThan(50);
  });

  it('a lazy distinct over compound terms: the evaluator makes them in a table of its own, the ground game is never changed', () => {
    // (pos 1), (pos 2), ... occur nowhere in the game: only evaluating apart makes them.
    const text = [
      '(role p) (init (at 1)) (n 1) (n 2) (n 3)',
      '(<= (apart ?x ?y) (n ?x) (n ?y) (distinct (pos ?x) (pos ?y)))',
      '(<= (legal p (go ?y)) (true (at ?x)) (n ?y) (apart ?x ?y))',
      '(<= (next (at ?y)) (does p (go ?y))) (<= terminal (true (at 3))) (goal p 100)',
    ].join('\n');
    const game = ground(text, 'apart.kif', resolvePipelineOptions({ lazyRelations: ['apart'] }));
    expect(game.lazy!.relations).toEqual(['apart']);
    const size = game.terms.size;
    expect(game.terms.lookup('pos', [game.terms.lookup('1')])).toBe(-1);
    expect(compare(game, 5, 5, 'terms')).toBeGreaterThan(5);
    expect(game.terms.size).toBe(size);
    expect(game.terms.lookup('pos', [game.terms.lookup('1')])).toBe(-1);
  });

  it('lazy-walk.kif (left recursion: a call meets itself, completed on the term table)', () => {
    expect(compare(example('lazy-walk.kif', ['path']), 10, 10, 'terms')).toBeGreaterThan(20);
  });

  it('lazy-cycle.kif (connectivity over a cyclic graph: a call meets itself, and a cycle of distinct calls, on the term table)', () => {
    const game = example('lazy-cycle.kif', ['linked', 'reach']);
    expect(game.lazy!.relations).toEqual(['linked', 'reach', 'ringopen']);
    expect(compare(game, 30, 8, 'terms')).toBeGreaterThan(100);
    expect(compare(game, 30, 8, 'terms', 5)).toBeGreaterThan(100);
  });

  it('lazy-deep.kif (calls nested deeper than MAX_DEPTH): the hybrid evaluator falls back to Tau-Prolog mid-run and agrees with it', () => {
    const game = example('lazy-deep.kif', ['ahead', 'via', 'over']);
    expect(game.lazy!.relations).toEqual(['ahead', 'over', 'via']);
    // The start's calls stay under the depth: the term table answers until a playout goes back to 0.
    const fast = createFastSimulator(game, Deadline.never());
    fast.info(fast.initialState());
    expect(fast.lazyEngine()).toBe('terms');
    expect(compare(game, 8, 8, 'prolog')).toBeGreaterThan(30);
  });

  it('lazy-settle.kif (a call left incomplete and not reached in its leader\'s clean pass is forgotten, not final)', () => {
    const game = example('lazy-settle.kif', ['l', 'a', 'g']);
    expect(game.lazy!.relations).toEqual(['a', 'g', 'l']);
    expect(compare(game, 20, 5, 'terms')).toBeGreaterThan(40);
  });

  it.skipIf(!HAVE_CORPUS)('sudoku', () => {
    const file = 'ggp-repository-base/sudoku.kif';
    const game = ground(readGame(file), file, resolvePipelineOptions({ lazyAxioms: true }));
    expect(game.lazy).toBeDefined();
    expect(compare(game, 2, 90, 'terms')).toBeGreaterThan(20);
  });
});

describe('play on a game with lazy axioms', () => {
  it('plays depth charges on the fast simulator and says which evaluator decided the lazy part', () => {
    const options = { seconds: 60, seed: 3, maxSteps: 50, maxPlayouts: 20 };
    const run = resolvePipelineOptions();
    const board = playGroundGame(example('lazy-board.kif', ['right', 'left']), run, options, new StageTimer());
    expect(board.playouts).toBe(20);
    expect(board.states).toBeGreaterThan(20);
    expect(board.lazyEngine).toBe('terms');
    expect(playGroundGame(example('lazy-walk.kif', ['path']), run, options, new StageTimer()).lazyEngine).toBe('terms');
  });

  it('stops at the deadline of the run inside a query of the lazy part, with a limit error', () => {
    // The playing time is only read between joint moves; one query of a lazy part (alexChess's
    // legal moves in Tau-Prolog) can take minutes, so the lazy evaluators read the deadline.
    const options = { seconds: 600, seed: 3, maxSteps: 50, maxPlayouts: Infinity };
    const game = example('lazy-walk.kif', ['path']);
    const past = resolvePipelineOptions({ timeoutSeconds: 0.001, startedAt: Date.now() - 1000 });
    let err: unknown;
    try {
      playGroundGame(game, past, options, new StageTimer());
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GdlError);
    expect((err as GdlError).code).toBe('limit');
  });
});

describe.skipIf(!HAVE_CORPUS)('chess (ground with --lazy-axioms: about 30 s of CPU)', () => {
  it('agrees with the ground simulator for a few joint moves, deciding its lazy part on the term table', () => {
    const file = 'ggp-repository-base/chess.kif';
    const game = ground(readGame(file), file, resolvePipelineOptions({ lazyAxioms: true }));
    expect(game.lazy!.relations).toContain('threatened');
    expect(compare(game, 1, 3, 'terms', 7)).toBe(4);
  }, 600_000);
});
