// Copy atoms merged (src/play/fast/copies.ts) and the WebAssembly propagator's narrow counters
// and counter-free rules of one literal (wasm-propagate.ts; docs/play.md "speedChess above
// ggplib"): the pass renames a copy's body into its head and keeps the game; the WebAssembly
// propagator plays the same seeded games as the JS interpreter on a head with 256 firing rules
// (a support of one byte would wrap to 0) and on speedChess, where the copies pass takes effect.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { mergeCopies } from '../src/play/fast/copies.js';
import { createGroundSimulator } from '../src/play/ground-sim.js';
import { createRandom } from '../src/play/random.js';
import { verifyGame } from '../src/play/verify.js';
import { HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

function ground(text: string, file: string): ReturnType<typeof runGrounding>['ground'] {
  return runGrounding(text, file, defaultPipelineOptions(), new StageTimer()).ground;
}

/** Seeded depth charges: their depths and every state visited. */
function trace(sim: ReturnType<typeof createFastSimulator>, seed: number, playouts: number, maxSteps: number): unknown[] {
  const random = createRandom(seed);
  const out: unknown[] = [];
  for (let i = 0; i < playouts; i++) {
    const states: number[][] = [];
    out.push(sim.depthCharge(random, maxSteps, (s) => states.push(Array.from(s))), states);
  }
  return out;
}

describe('copy atoms and narrow counters (games/copies-counters.kif)', () => {
  const file = 'games/copies-counters.kif';
  const game = ground(readFileSync(file, 'utf8'), file);
  const text = (a: number): string => game.terms.text(game.atoms[a]!.term);

  it('renames each copy body into its head: no rule reads or derives legalmove, dark or lit any more', () => {
    const rules = mergeCopies(game, game.rules);
    const mentions = (rs: readonly { head: number; pos: readonly number[]; neg: readonly number[] }[], prefix: string): number => rs.filter((r) => [r.head, ...r.pos, ...r.neg].some((a) => text(a).startsWith(prefix))).length;
    expect(mentions(game.rules, '(legalmove')).toBe(512);
    expect(mentions(rules, '(legalmove')).toBe(0);
    expect(mentions(rules, 'dark')).toBe(0);
    expect(mentions(rules, 'lit')).toBe(0);
    // The 256 copies of legal moves go, one of dark's two copies (terminal, or goal 100), and (goal p 0)'s copy of lit.
    expect(rules.length).toBe(game.rules.length - 258);
  });

  it('keeps the game: same as the simulator of verify and as the fast one without the pass', () => {
    for (const other of [createGroundSimulator(game, Deadline.never()), createFastSimulator(game, Deadline.never(), { passes: { copies: false } })]) {
      const result = verifyGame(other, createFastSimulator(game, Deadline.never()), { playouts: 2, seed: 4, maxSteps: 300 });
      if (result.kind !== 'same') expect(result.difference).toBeUndefined();
    }
  });

  it('plays the whole 256 steps in WebAssembly, the same seeded games as the JS interpreter', () => {
    const wasm = createFastSimulator(game, Deadline.never());
    const expected = trace(createFastSimulator(game, Deadline.never(), { wasm: false }), 9, 3, 300);
    expect(expected[0]).toBe(256);
    expect(trace(wasm, 9, 3, 300)).toEqual(expected);
  });
});

describe.skipIf(!HAVE_CORPUS)('copy atoms and narrow counters on speedChess', () => {
  const rel = 'ggp-repository-base/speedChess.kif';

  it('plays the same seeded games in WebAssembly as the JS interpreter, and as without the copies pass', () => {
    const game = ground(readGame(rel), rel);
    const wasm = createFastSimulator(game, Deadline.never());
    expect(wasm.nets().control.length).toBe(2);
    expect(trace(wasm, 5, 6, 200)).toEqual(trace(createFastSimulator(game, Deadline.never(), { wasm: false }), 5, 6, 200));
    const result = verifyGame(createFastSimulator(game, Deadline.never(), { passes: { copies: false } }), wasm, { playouts: 4, seed: 2, maxSteps: 200 });
    if (result.kind !== 'same') expect(result.difference).toBeUndefined();
  }, 120_000);
});
