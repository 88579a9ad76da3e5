// Forced moves, move conditions on one role and control cycles with several fluents holding
// (src/play/fast/specialize.ts, complement.ts, move-sets.ts; docs/play.md "Held-out games against
// ggplib and Sancho"): each takes effect on a small game made for it and keeps the game, the fast
// simulator (WebAssembly and JS) held against the simulator of verify.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { controlCycle, controlTurns, simplifyRules, turnRules } from '../src/play/fast/specialize.js';
import { createGroundSimulator, fluentsOf } from '../src/play/ground-sim.js';
import { verifyGame } from '../src/play/verify.js';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';
import { createRandom } from '../src/play/random.js';

function ground(file: string): ReturnType<typeof runGrounding>['ground'] {
  return runGrounding(readFileSync(file, 'utf8'), file, defaultPipelineOptions(), new StageTimer()).ground;
}

/** The fast simulator (WebAssembly, then the JS interpreter) against the simulator of verify. */
function sameAsVerify(game: ReturnType<typeof ground>): void {
  for (const wasm of [true, false]) {
    const result = verifyGame(createGroundSimulator(game, Deadline.never()), createFastSimulator(game, Deadline.never(), { wasm }), { playouts: 40, seed: 5, maxSteps: 40 });
    if (result.kind !== 'same') expect(result.difference).toBeUndefined();
  }
}

describe('forced moves and move conditions on one role', () => {
  const game = ground('games/forced-noop.kif');
  const text = (a: number): string => game.terms.text(game.atoms[a]!.term);

  it('the noops of the roles not to move are fixed: the all-noop frame reads the mover\'s alone', () => {
    const fluents = fluentsOf(game);
    const cycle = controlCycle(game, fluents)!;
    const rules = simplifyRules(game, new Map(cycle.map((f, i) => [fluents.trueAtom[f]!, i === 0 ? 1 : 0] as [number, 0 | 1])));
    const noopFrames = rules.filter((r) => text(r.head).startsWith('(next (cell') && r.pos.some((a) => text(a).endsWith('noop)')));
    expect(noopFrames.length).toBeGreaterThan(0);
    expect(noopFrames.every((r) => r.pos.filter((a) => text(a).startsWith('(does')).map(text).join() === '(does a noop)')).toBe(true);
  });

  it('the cells are framed in the per-turn nets, and the game is that of verify', () => {
    const sim = createFastSimulator(game, Deadline.never());
    expect(sim.nets().control.length).toBe(3);
    expect(sim.nets().framedFluents).toBeGreaterThan(0);
    sameAsVerify(game);
  });
});

describe('a control cycle with two fluents holding', () => {
  const game = ground('games/two-tokens.kif');

  it('four turns, two nets (lastcontrol is read only by the cycle), the game of verify', () => {
    const fluents = fluentsOf(game);
    const cycle = controlCycle(game, fluents)!;
    expect(cycle.length).toBe(4);
    const turns = controlTurns(cycle, fluents.init);
    expect(turns.map((t) => t.join(''))).toEqual(['1100', '0110', '0011', '1001']);
    const { rules, net } = turnRules(game, cycle, turns, fluents);
    expect(rules.length).toBe(2);
    expect(net).toEqual([0, 1, 1, 0]);
    expect(createFastSimulator(game, Deadline.never()).nets().control.length).toBe(4);
    sameAsVerify(game);
  });
});

describe('turns that share a net, played in one call', () => {
  // The playout in one WebAssembly call (wasm-charge.ts) plays a group's nets in order; two-tokens'
  // turns use nets 0, 1, 1, 0, so its depth charges must take the per-step path and still play the
  // games that visiting every state (always per step) and the JS interpreter play.
  const game = ground('games/two-tokens.kif');

  it('depth charges with and without visits, WebAssembly and JS, the same games', () => {
    // A net's legal lists follow the order its atoms became true, so a seed's game depends on the
    // playouts before it: each simulator plays the same seeds in the same order.
    const played = [true, false].flatMap((wasm) => [undefined, () => {}].map((visit) => {
      const sim = createFastSimulator(game, Deadline.never(), { wasm });
      const out: string[] = [];
      for (let seed = 1; seed <= 60; seed++) {
        const random = createRandom(seed);
        out.push(`${sim.depthCharge(random, 40, visit)}:${random.state}`);
      }
      return out.join(' ');
    }));
    expect(new Set(played).size).toBe(1);
  });
});
