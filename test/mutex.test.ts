// Mutex groups (docs/mutex.md): the groups of tic-tac-toe; a true group the induction cannot
// prove stays observed; a false group that survives short playouts is never proven; and on
// corpus games every proven group holds in every state of playouts of the original game under
// the Tau-Prolog reasoner (an engine that shares no code with grounding or the proof).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import type { GroundGame } from '../src/ground/types.js';
import { DEFAULT_MUTEX_OPTIONS, type MutexResult, findMutexGroups } from '../src/mutex/index.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { createGroundSimulator } from '../src/play/ground-sim.js';
import { createReasoner } from '../src/play/reasoner.js';
import { sampleStates } from '../src/play/sample.js';
import { formatDifference, verifyGame } from '../src/play/verify.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';

function mutexOf(ground: GroundGame, playouts: number, maxSteps = 200): MutexResult {
  const states = sampleStates(ground, { playouts, seed: 3, maxSteps, deadline: Deadline.never() });
  return findMutexGroups(ground, states, { ...DEFAULT_MUTEX_OPTIONS, deadline: Deadline.never() });
}

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

describe('mutex groups of small games', () => {
  it('tic-tac-toe: nine exactly-one squares and the control group, all proven, 19 bits for 29 fluents', () => {
    const { ground } = runGrounding(example('tictactoe.kif'), 'tictactoe.kif', defaultPipelineOptions(), new StageTimer());
    const r = mutexOf(ground, 30);
    expect(r.fluents).toBe(29);
    expect(r.bits).toBe(19);
    expect(r.groups).toHaveLength(10);
    expect(r.groups.every((g) => g.proven && g.exactlyOne)).toBe(true);
    expect(r.groups[0]).toEqual({
      members: ['(cell 1 1 b)', '(cell 1 1 o)', '(cell 1 1 x)'], exactlyOne: true, proven: true, proof: 'ground', relation: 'cell', input: [0, 1], output: [2],
    });
    expect(r.groups[9]!.members).toEqual(['(control oplayer)', '(control xplayer)']);
  });

  it('a true group that needs more than the groups to be proven fails the SAT proof; the projection search proves it', () => {
    const { ground } = runGrounding(example('mutex-observed.kif'), 'mutex-observed.kif', defaultPipelineOptions(), new StageTimer());
    const r = mutexOf(ground, 10);
    const s = r.groups.find((g) => g.relation === 's')!;
    // Observed only before the projection search (src/mutex/projection.ts, docs/mutex.md 2m).
    expect(s).toMatchObject({ members: ['(s 1)', '(s 2)'], proven: true });
    expect(r.stats.failures).toEqual([{ members: ['(s 1)', '(s 2)'], unrefutedPairs: 1, capped: false }]);
    expect(r.groups.find((g) => g.relation === 'step')).toMatchObject({ proven: true, exactlyOne: true });
  });

  it('a false group that survives short playouts is not proven; long playouts refute it', () => {
    const { ground } = runGrounding(example('mutex-late.kif'), 'mutex-late.kif', defaultPipelineOptions(), new StageTimer());
    const short = mutexOf(ground, 5, 5);
    const lamp = short.groups.find((g) => g.relation === 'lamp');
    expect(lamp).toMatchObject({ proven: false });
    const long = mutexOf(ground, 5, 50);
    expect(long.groups.find((g) => g.relation === 'lamp')).toBeUndefined();
    expect(long.stats.refutedBySimulation).toBeGreaterThan(0);
  });
});

/** Games of varied shape: boards, counters, recursion, simultaneous moves, 1 to 3 roles. */
const CORPUS = [
  'ggp-repository-base/ticTacToe.kif',
  'ggp-repository-base/connectFour.kif',
  'ggp-repository-base/hanoi.kif',
  'ggp-repository-base/blocker.kif',
  'ggp-repository-base/chomp.kif',
  'ggp-repository-base/2pttc.kif',
  'ggp-repository-base/eightPuzzle.kif',
  'ggp-repository-base/lightsOut.kif',
  'ggp-repository-base/tictactoe_3player.kif',
  'ggp-repository-base/blocks.kif',
  'ggp-repository-base/nim1.kif',
  'ggp-base-test/3puzzle.kif',
];

describe.skipIf(!HAVE_CORPUS)('proven groups hold under an independent reasoner', () => {
  for (const game of CORPUS) {
    it(game, () => {
      const { loaded, ground } = runGrounding(readGame(game), game, defaultPipelineOptions(), new StageTimer());
      const r = mutexOf(ground, 20);
      const proven = r.groups.filter((g) => g.proven);
      const result = verifyGame(createReasoner(loaded.normal, { deadline: Deadline.never() }), createGroundSimulator(ground, Deadline.never()), {
        playouts: 15, seed: 11, maxSteps: 200, groups: proven,
      });
      if (result.kind === 'different') expect.fail(formatDifference(result.difference));
      expect(r.bits).toBeLessThanOrEqual(r.fluents);
    });
  }

  it('verify reports a group that is violated', () => {
    const game = 'ggp-repository-base/ticTacToe.kif';
    const { loaded, ground } = runGrounding(readGame(game), game, defaultPipelineOptions(), new StageTimer());
    const fake = { members: ['(cell 1 1 b)', '(cell 2 2 b)'], exactlyOne: false };
    const result = verifyGame(createReasoner(loaded.normal, { deadline: Deadline.never() }), createGroundSimulator(ground, Deadline.never()), { playouts: 1, seed: 1, maxSteps: 5, groups: [fake] });
    expect(result.kind).toBe('different');
    if (result.kind === 'different') {
      expect(result.difference.kind).toBe('mutex');
      expect(formatDifference(result.difference)).toContain('mutex group violated');
    }
  });
});
