// The per-turn choice of the fast simulator (src/play/fast/turns.ts, docs/play.md "Specialized
// nets"): when nets per control fluent are taken (the control atoms' share of the readers, or of
// the counter updates of a step sampled on the general net), cycles of up to six control fluents,
// and that the simulator so specialized still plays the game of the simulator of `verify`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { changesPerStep, controlReadersPay, controlWorkPays } from '../src/play/fast/turns.js';
import type { Net } from '../src/play/fast/net.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { createGroundSimulator } from '../src/play/ground-sim.js';
import { verifyGame } from '../src/play/verify.js';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';
import { HAVE_CORPUS, readGame } from './corpus.js';
import { groundGame, loadGame } from '../src/index.js';

/** A net of four true atoms (fluents 0..3) with the given readers each: all turns.ts reads of it. */
function netOf(readers: readonly number[]): Net {
  const readStart = new Int32Array(readers.length + 1);
  readers.forEach((n, a) => (readStart[a + 1] = readStart[a]! + n));
  return { atoms: readers.length, readStart, readers: new Int32Array(readStart[readers.length]!) } as unknown as Net;
}

function ground(text: string, file: string): ReturnType<typeof runGrounding>['ground'] {
  return runGrounding(text, file, defaultPipelineOptions(), new StageTimer()).ground;
}

/** The fast simulator against the simulator of verify: same legal moves, successors, goals. */
function sameAsVerify(game: ReturnType<typeof ground>, playouts: number, maxSteps = 100): void {
  const result = verifyGame(createGroundSimulator(game, Deadline.never()), createFastSimulator(game, Deadline.never()), { playouts, seed: 3, maxSteps });
  if (result.kind !== 'same') expect(result.difference).toBeUndefined();
}

describe('per-turn nets by the control fluents\' work per step (turns.ts)', () => {
  // Control fluents 0 and 1: 2 of 40 readers (5 %), but they change at every step, the others rarely.
  const net = netOf([1, 1, 19, 19]);
  const trueAtom = Int32Array.from([0, 1, 2, 3]);
  const control = [0, 1];

  it('takes them when the control readers are few but do most updates', () => {
    expect(controlReadersPay(net, control, trueAtom)).toBe(false);
    expect(controlWorkPays(net, control, trueAtom, Float64Array.from([1, 1, 0.01, 0.01]))).toBe(true);
  });

  it('does not when the other fluents change as often', () => {
    expect(controlWorkPays(net, control, trueAtom, Float64Array.from([1, 1, 1, 1]))).toBe(false);
    expect(controlWorkPays(net, control, trueAtom, Float64Array.from([0, 0, 0, 0]))).toBe(false);
  });

  it('samples one seeded playout: each fluent\'s changes per step, none for a large net', () => {
    const game = ground(readFileSync('games/tictactoe.kif', 'utf8'), 'games/tictactoe.kif');
    const sim = createGroundSimulator(game, Deadline.never());
    const sampler = {
      initialState: () => sim.initialState(),
      moves: (s: Uint32Array) => (sim.info(s).terminal ? undefined : sim.info(s).legal),
      successor: (s: Uint32Array, moves: readonly number[]) => sim.successor(s, moves),
    };
    const changes = changesPerStep(game, netOf([1, 1, 1, 1]), sampler)!;
    // The two control fluents change at every step; nothing changes more often.
    expect(changes.filter((c) => c === 1).length).toBe(2);
    expect(Math.max(...changes)).toBe(1);
    expect(changesPerStep(game, netOf([20_001, 0, 0, 0]), sampler)).toBeUndefined();
  });
});

describe('nets per control fluent for six roles in turn (games/six-turns.kif)', () => {
  const game = ground(readFileSync('games/six-turns.kif', 'utf8'), 'games/six-turns.kif');

  it('takes a net per control fluent and plays the game of verify', () => {
    expect(createFastSimulator(game, Deadline.never()).nets().control).toEqual(['(control r1)', '(control r2)', '(control r3)', '(control r4)', '(control r5)', '(control r6)']);
    sameAsVerify(game, 30);
  });
});

describe.skipIf(!HAVE_CORPUS)('the per-turn choice on corpus games', () => {
  it('chineseCheckers6: six control fluents, six nets, the game of verify', () => {
    // The library's grounding (the pipeline's default stages took minutes more under load).
    const loaded = loadGame(readGame('ggp-repository-base/chineseCheckers6.kif'), { file: 'chineseCheckers6.kif' });
    if (!loaded.ok) throw new Error('chineseCheckers6 does not load');
    const game = groundGame(loaded.game).game;
    expect(createFastSimulator(game, Deadline.never()).nets().control.length).toBe(6);
    sameAsVerify(game, 1, 40);
  }, 180_000);

  it('cephalopodMicro: taken by the work per step sampled on the general net, the game of verify', () => {
    const game = ground(readGame('ggp-repository-base/cephalopodMicro.kif'), 'cephalopodMicro.kif');
    expect(createFastSimulator(game, Deadline.never()).nets().control.length).toBe(2);
    sameAsVerify(game, 3);
  }, 180_000);
});
