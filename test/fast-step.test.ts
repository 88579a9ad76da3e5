/**
 * The step of a playout (src/play/fast/charge.ts): depth charges restart from the initial
 * state by copying its saved values when that is cheaper, play on one net with a loop of their
 * own, and `walk` plays the same loop from any state. Every visited state must be the ground
 * simulator of `verify`'s successor of the one before, and the net must answer `info` as that
 * simulator does after any number of restarts. chomp is played on one net per control fluent
 * (its roles not to move have only a noop, turns.ts), by the per-turn loop `chargeTurns`.
 */
import { describe, expect, it } from 'vitest';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { type GroundState, createGroundSimulator } from '../src/play/ground-sim.js';
import { createRandom } from '../src/play/random.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';
import { HAVE_CORPUS, readGame } from './corpus.js';

const GAMES = ['ggp-repository-base/ticTacToe.kif', 'ggp-repository-base/chomp.kif', 'ggp-repository-base/hanoi.kif'];

/** Whether some legal joint move of `from` leads to `to` in the simulator `sim`. */
function someMoveLeads(sim: ReturnType<typeof createGroundSimulator>, from: GroundState, to: GroundState): boolean {
  const target = sim.text.state(to).join('\n');
  let joint: number[][] = [[]];
  for (const moves of sim.info(from).legal) joint = joint.flatMap((j) => moves.map((m) => [...j, m]));
  return joint.some((j) => sim.text.state(sim.successor(from, j)).join('\n') === target);
}

describe.skipIf(!HAVE_CORPUS)('the step of a playout', () => {
  for (const rel of GAMES) {
    it(`${rel}: depth charges after restarts visit successors, and info agrees with the simulator of verify`, () => {
      const game = runGrounding(readGame(rel), rel, defaultPipelineOptions(), new StageTimer()).ground;
      const fast = createFastSimulator(game, Deadline.never());
      const slow = createGroundSimulator(game, Deadline.never());
      const random = createRandom(17);
      const initial = slow.text.state(slow.initialState());
      for (let c = 0; c < 12; c++) {
        const states: GroundState[] = [];
        const depth = fast.depthCharge(random, 200, (s) => states.push(s.slice()));
        expect(states.length).toBe(depth + 1);
        expect(slow.text.state(states[0]!)).toEqual(initial);
        for (let i = 0; i + 1 < states.length; i++) expect(someMoveLeads(slow, states[i]!, states[i + 1]!)).toBe(true);
        // The net after a restart answers as a fresh evaluation does, in a state reached by differences.
        const probe = states[Math.floor(states.length / 2)]!;
        expect(fast.info(probe)).toEqual(slow.info(probe));
      }
    });

    it(`${rel}: walk plays the same loop from any state and reports its end as the simulator of verify sees it`, () => {
      const game = runGrounding(readGame(rel), rel, defaultPipelineOptions(), new StageTimer()).ground;
      const fast = createFastSimulator(game, Deadline.never());
      const slow = createGroundSimulator(game, Deadline.never());
      const random = createRandom(5);
      const starts: GroundState[] = [];
      fast.depthCharge(random, 200, (s) => starts.push(s.slice()));
      for (const start of [fast.initialState(), ...starts.slice(0, 3)]) {
        const states: GroundState[] = [start];
        const end = fast.walk(start, random, 200);
        const last = slow.info(end.state);
        expect(end.terminal).toBe(last.terminal);
        expect(end.goals).toEqual(last.goals);
        if (!end.terminal) expect(end.depth === 200 || last.legal.some((m) => m.length === 0)).toBe(true);
        // A walk of one step at a time reaches successors only.
        const one = fast.walk(start, random, 1);
        expect(one.depth).toBeLessThanOrEqual(1);
        if (one.depth === 1) expect(someMoveLeads(slow, start, one.state)).toBe(true);
        states.push(end.state);
      }
    });
  }

  it('plays noop turn-taking games on per-turn nets only when these read the fluents less, and replays a seed', () => {
    const expected: [string, number][] = [['ggp-repository-base/chomp.kif', 2], ['ggp-repository-base/nim3.kif', 2], ['ggp-repository-base/connectFour.kif', 0]];
    for (const [rel, nets] of expected) {
      const game = runGrounding(readGame(rel), rel, defaultPipelineOptions(), new StageTimer()).ground;
      const depths = (): number[] => {
        const fast = createFastSimulator(game, Deadline.never());
        expect(fast.nets().control.length, rel).toBe(nets);
        const random = createRandom(3);
        return Array.from({ length: 30 }, () => fast.depthCharge(random, 200));
      };
      expect(depths()).toEqual(depths());
    }
  });
});
