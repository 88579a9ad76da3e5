// Frames under a second fluent (src/play/fast/frame-terms.ts; docs/play.md "Frames under a
// second fluent"): next rules reading two fluents (a copy's source and a bit of the state it
// checks), and factoring's atoms over such pairs inlined again, leave the net. The simulator
// with them must play the same game as the simulator of `verify`, as itself without frames and
// as itself with the JS interpreter instead of WebAssembly (wasm-frames.ts does the same check).
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

const NO_FRAMES = { passes: { frames: false } };

function ground(text: string, file: string): ReturnType<typeof runGrounding>['ground'] {
  return runGrounding(text, file, defaultPipelineOptions(), new StageTimer()).ground;
}

/** verifyGame of `fast` against `other`: same seeded playouts, the same answers at every step. */
function same(other: Parameters<typeof verifyGame>[0], fast: Parameters<typeof verifyGame>[1], playouts: number, maxSteps: number): void {
  const result = verifyGame(other, fast, { playouts, seed: 7, maxSteps });
  if (result.kind !== 'same') expect(result.difference).toBeUndefined();
}

/** Every state of seeded depth charges and the depths: the JS interpreter and WebAssembly must give the same. */
function trace(sim: ReturnType<typeof createFastSimulator>, charges: number): unknown[] {
  const random = createRandom(5);
  const out: unknown[] = [];
  for (let i = 0; i < charges; i++) {
    const states: number[][] = [];
    out.push(sim.depthCharge(random, 200, (s: GroundState) => states.push(Array.from(s))), states);
  }
  return out;
}

describe('frames under a second fluent (games/frame-pairs.kif)', () => {
  const game = ground(readFileSync('games/frame-pairs.kif', 'utf8'), 'games/frame-pairs.kif');
  const fast = createFastSimulator(game, Deadline.never());
  const s0 = fast.initialState();
  const move = (state: GroundState, r: number, text: string): number => fast.info(state).legal[r]!.find((m) => fast.text.move(m) === text)!;
  const next = (state: GroundState, a: string, b: string): GroundState => fast.successor(state, [move(state, 0, a), move(state, 1, b)]);

  it('frames every fluent: positions (their factored pairs inlined), speeds, heading, lamp, trails, steps', () => {
    // 5 positions, 4 speeds, 3 headings, lamp, 5 trails, 8 steps (not (step 0): no rule makes it).
    expect(fast.nets().framedFluents).toBe(26);
    expect(createFastSimulator(game, Deadline.never(), NO_FRAMES).nets().framedFluents).toBe(0);
  });

  it('checks the second fluent in the state: kept while flat, raised or lowered by the heading, a kill and a copy in one move', () => {
    // Flat: the speed is kept by the heading (push changes nothing), lamp survives the turn; the position moves by the speed.
    const s1 = next(s0, 'push', 'turn');
    expect([...fast.text.state(s1)].sort()).toEqual(['(heading down)', '(pos 2)', '(speed 1)', '(step 1)', 'lamp']);
    // Down: a push lowers the speed; not flat, so a turn kills lamp; no trail (not up).
    const s2 = next(s1, 'push', 'turn');
    expect([...fast.text.state(s2)].sort()).toEqual(['(heading up)', '(pos 3)', '(speed 0)', '(step 2)']);
    // Up: a push raises the speed, the trail copies the position.
    const s3 = next(s2, 'push', 'wait');
    expect([...fast.text.state(s3)].sort()).toEqual(['(heading up)', '(pos 3)', '(speed 1)', '(step 3)', '(trail 3)']);
  });

  it('keeps the game: same as the simulator of verify, as without frames, and in JS as in WebAssembly', () => {
    same(createGroundSimulator(game, Deadline.never()), fast, 80, 10);
    same(createFastSimulator(game, Deadline.never(), NO_FRAMES), createFastSimulator(game, Deadline.never()), 80, 10);
    expect(trace(createFastSimulator(game, Deadline.never()), 60)).toEqual(trace(createFastSimulator(game, Deadline.never(), { wasm: false }), 60));
    expect(trace(createFastSimulator(game, Deadline.never()), 60)).toEqual(trace(createFastSimulator(game, Deadline.never(), NO_FRAMES), 60));
  });
});

describe.skipIf(!HAVE_CORPUS)('frames under a second fluent on asteroidsSerial', () => {
  it('frames all its fluents (coordinates, speeds, headings, steps), the same game as the simulator of verify and as without frames', () => {
    const rel = 'ggp-repository-base/asteroidsSerial.kif';
    const game = ground(readGame(rel), rel);
    const fast = createFastSimulator(game, Deadline.never());
    expect(fast.nets().framedFluents).toBe(217);
    same(createGroundSimulator(game, Deadline.never()), fast, 4, 120);
    same(createFastSimulator(game, Deadline.never(), NO_FRAMES), createFastSimulator(game, Deadline.never()), 6, 120);
    expect(trace(createFastSimulator(game, Deadline.never()), 30)).toEqual(trace(createFastSimulator(game, Deadline.never(), { wasm: false }), 30));
    // Without frames the net settles its atoms in another order (the stack order of propagate.ts
    // follows the net), so the legal lists' order and the seeded games differ; the game is the
    // same (above), and WebAssembly and JS play the same seeded games there too.
    expect(trace(createFastSimulator(game, Deadline.never(), NO_FRAMES), 30)).toEqual(trace(createFastSimulator(game, Deadline.never(), { ...NO_FRAMES, wasm: false }), 30));
  }, 120_000);
});
