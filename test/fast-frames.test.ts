// Frames as masks (src/play/fast/frames.ts; docs/play.md "Frames as masks"): fluents whose next
// rules only say "added by a move", "kept by a move" or "kept unless a move" leave the net and
// get their successor bits from per-move masks. The simulator with them must play the same game
// as the simulator of `verify` and as itself without them: the same seeded playouts, the same
// states, legal moves and goals at every step (verifyGame), and depth charges that only visit
// successors.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { type GroundState, createGroundSimulator } from '../src/play/ground-sim.js';
import { createRandom } from '../src/play/random.js';
import { verifyGame } from '../src/play/verify.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';
import { HAVE_CORPUS, readGame } from './corpus.js';

/**
 * Simultaneous moves: p is added by a's `set` and kept unless b `clear`s it, so (set, clear)
 * must leave p true (the kill comes before the add); r is kept by a's `keep` and added by b's
 * `stay`; t is copied from r by a's `keep`, u from p unless b `clear`s; s reads two fluents, a
 * copy from p under r (frames under a second fluent, frame-terms.ts).
 */
const GAME = `
(role a) (role b)
(init p) (init r) (init (step 1))
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
(legal a set) (legal a keep) (legal a wait)
(legal b clear) (legal b stay)
(<= (next p) (does a set))
(<= (next p) (true p) (not (does b clear)))
(<= (next r) (true r) (does a keep))
(<= (next r) (does b stay))
(<= (next s) (true p) (true r))
(<= (next t) (true r) (does a keep))
(<= (next u) (true p) (not (does b clear)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= terminal (true (step 6)))
(<= (goal a 100) (true p))
(<= (goal a 0) (not (true p)))
(<= (goal b 100) (true r))
(<= (goal b 0) (not (true r)))
`;

const NO_FRAMES = { passes: { frames: false } };

function ground(text: string, file: string): ReturnType<typeof runGrounding>['ground'] {
  return runGrounding(text, file, defaultPipelineOptions(), new StageTimer()).ground;
}

/** verifyGame of `fast` against `other`: same seeded playouts, the same answers at every step. */
function same(other: Parameters<typeof verifyGame>[0], fast: Parameters<typeof verifyGame>[1], playouts: number, maxSteps: number): void {
  const result = verifyGame(other, fast, { playouts, seed: 11, maxSteps });
  if (result.kind !== 'same') expect(result.difference).toBeUndefined();
}

/** Whether some legal joint move of `from` leads to `to` in the simulator of verify. */
function someMoveLeads(sim: ReturnType<typeof createGroundSimulator>, from: GroundState, to: GroundState): boolean {
  const target = sim.text.state(to).join('\n');
  let joint: number[][] = [[]];
  for (const moves of sim.info(from).legal) joint = joint.flatMap((j) => moves.map((m) => [...j, m]));
  return joint.some((j) => sim.text.state(sim.successor(from, j)).join('\n') === target);
}

describe('frames as masks on a small game', () => {
  const game = ground(GAME, 'frames.kif');

  it('frames p, r, s, t, u and the step counter (a copy of the step before)', () => {
    expect(createFastSimulator(game, Deadline.never()).nets().framedFluents).toBe(10);
    expect(createFastSimulator(game, Deadline.never(), NO_FRAMES).nets().framedFluents).toBe(0);
  });

  it('a fluent added and killed by one joint move holds', () => {
    const fast = createFastSimulator(game, Deadline.never());
    const s0 = fast.initialState();
    const move = (r: number, text: string): number => fast.info(s0).legal[r]!.find((m) => fast.text.move(m) === text)!;
    const next = fast.successor(s0, [move(0, 'set'), move(1, 'clear')]);
    expect(fast.text.state(next)).toContain('p');
    expect(fast.text.state(next)).not.toContain('u');
    const cleared = fast.successor(s0, [move(0, 'wait'), move(1, 'clear')]);
    expect(fast.text.state(cleared)).not.toContain('p');
    const kept = fast.successor(s0, [move(0, 'keep'), move(1, 'stay')]);
    expect(fast.text.state(kept)).toEqual(expect.arrayContaining(['p', 'r', 't', 'u']));
  });

  it('keeps the game: same as the simulator of verify and as the fast one without frames', () => {
    same(createGroundSimulator(game, Deadline.never()), createFastSimulator(game, Deadline.never()), 60, 8);
    same(createFastSimulator(game, Deadline.never(), NO_FRAMES), createFastSimulator(game, Deadline.never()), 60, 8);
  });
});

describe('frames under net atoms (games/frame-atoms.kif)', () => {
  const game = ground(readFileSync('games/frame-atoms.kif', 'utf8'), 'games/frame-atoms.kif');
  const fast = createFastSimulator(game, Deadline.never());
  const s0 = fast.initialState();
  const move = (r: number, text: string): number => fast.info(s0).legal[r]!.find((m) => fast.text.move(m) === text)!;
  const after = (a: string, b: string): string[] => [...fast.text.state(fast.successor(s0, [move(0, a), move(1, b)]))];

  it('frames every fluent with a next rule (all but (step 0)), those under hit and missed too', () => {
    expect(fast.nets().framedFluents).toBe(26);
    expect(createFastSimulator(game, Deadline.never(), NO_FRAMES).nets().framedFluents).toBe(0);
  });

  it('reads the net atom after the joint move: copies and keeping if hit, unless missed, adding if missed', () => {
    // hit: the score moves on, (lit 1) is copied from the target, (lit 2) from the mark (not missed), the tally goes.
    expect(after('(hit 1)', 'rest').sort()).toEqual(['(lit 1)', '(lit 2)', '(mark 1)', '(mark 2)', '(score 1)', '(step 1)']);
    // missed: the alarm is added and the tally kept; no lit, the score kept.
    expect(after('(hit 2)', '(guard 3)').sort()).toEqual(['(mark 2)', '(score 0)', '(step 1)', '(tally 3)', '(target 1)', '(target 3)', 'alarm']);
    // Neither (guarded): the score is kept, the target killed by the hit and added by the guard holds.
    expect(after('(hit 1)', '(guard 1)').sort()).toEqual(['(lit 2)', '(mark 1)', '(score 0)', '(step 1)', '(tally 1)', '(target 1)']);
  });

  it('keeps the game: same as the simulator of verify and as the fast one without frames', () => {
    same(createGroundSimulator(game, Deadline.never()), fast, 80, 8);
    same(createFastSimulator(game, Deadline.never(), NO_FRAMES), createFastSimulator(game, Deadline.never()), 80, 8);
  });
});

describe.skipIf(!HAVE_CORPUS)('frames as masks on corpus games', () => {
  const cases: [string, number][] = [['ggp-repository-base/chomp.kif', 56], ['ggp-repository-base/hanoi.kif', 1], ['ggp-repository-base/breakthrough.kif', 1], ['ggp-repository-base/ticTacToe.kif', 27], ['ggp-repository-base/beatMania.kif', 152]];
  for (const [rel, least] of cases) {
    it(`${rel}: frames in effect, the same game as the simulator of verify and as without frames`, () => {
      const game = ground(readGame(rel), rel);
      const fast = createFastSimulator(game, Deadline.never());
      expect(fast.nets().framedFluents).toBeGreaterThanOrEqual(least);
      const slow = createGroundSimulator(game, Deadline.never());
      same(slow, fast, 4, 80);
      same(createFastSimulator(game, Deadline.never(), NO_FRAMES), createFastSimulator(game, Deadline.never()), 4, 80);
      const random = createRandom(23);
      for (let c = 0; c < 3; c++) {
        const states: GroundState[] = [];
        fast.depthCharge(random, 80, (s) => states.push(s.slice()));
        for (let i = 0; i + 1 < states.length; i++) expect(someMoveLeads(slow, states[i]!, states[i + 1]!)).toBe(true);
      }
    }, 120_000);
  }
  // hex's groups: (connected k m n) copied from the step under "a group joins (m, n)" and kept
  // unless group k is transferred, both net atoms. Its net is large: fewer, shorter playouts.
  it('ggp-repository-base/hex.kif: its groups framed under net atoms, the same game as the simulator of verify and as without frames', () => {
    const rel = 'ggp-repository-base/hex.kif';
    const game = ground(readGame(rel), rel);
    const fast = createFastSimulator(game, Deadline.never());
    expect(fast.nets().framedFluents).toBeGreaterThanOrEqual(6561);
    same(createGroundSimulator(game, Deadline.never()), fast, 2, 30);
    same(createFastSimulator(game, Deadline.never(), NO_FRAMES), fast, 3, 90);
  }, 400_000);
});
