/**
 * The WebAssembly propagator (src/play/fast/wasm-propagate.ts) and its encoder
 * (wasm-encode.ts): a tiny module runs; and the fast simulator plays the same seeded games
 * with it as with the JS interpreter (propagate.ts), state for state, restarts, walks and
 * `info` included, since both do the same operations in the same order.
 */
import { describe, expect, it } from 'vitest';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { compileNet } from '../src/play/fast/net.js';
import { createWasmGroup } from '../src/play/fast/wasm-group.js';
import { add, c, call, encodeModule, get, ld, ltS, pick, seq, set, sleb, st, uleb, whileDo } from '../src/play/fast/wasm-encode.js';
import type { GroundState } from '../src/play/ground-sim.js';
import { createRandom } from '../src/play/random.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';
import { HAVE_CORPUS, readGame } from './corpus.js';

describe('the WebAssembly encoder', () => {
  it('writes LEB128 as the specification does', () => {
    expect(uleb(0)).toEqual([0]);
    expect(uleb(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(uleb(0xffffffff)).toEqual([0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(sleb(-1)).toEqual([0x7f]);
    expect(sleb(63)).toEqual([0x3f]);
    expect(sleb(64)).toEqual([0xc0, 0x00]);
    expect(sleb(-123456)).toEqual([0xc0, 0xbb, 0x78]);
  });

  it('encodes a module that calls, loops, branches and reads and writes its memory', () => {
    // sum(n): memory[i] = i * 3 for i < n, returns the sum of memory[0..n-1] (through a call to triple).
    const triple = { params: 1, result: true, locals: 0, body: add(add(get(0), get(0)), get(0)) };
    const sum = {
      params: 1, result: true, locals: 2, export: 'sum',
      body: seq(
        whileDo(ltS(get(1), get(0)), st(64, get(1), call(0, get(1))), set(1, add(get(1), c(1)))),
        set(1, c(0)),
        whileDo(ltS(get(1), get(0)), set(2, add(get(2), ld(64, get(1)))), set(1, add(get(1), c(1)))),
        pick(ltS(get(2), c(0)), c(-1), get(2)),
      ),
    };
    const instance = new WebAssembly.Instance(new WebAssembly.Module(encodeModule({ functions: [triple, sum], globals: 1, pages: 1 })), {});
    const exports = instance.exports as { sum: (n: number) => number; memory: WebAssembly.Memory };
    expect(exports.sum(10)).toBe(135);
    expect(Array.from(new Int32Array(exports.memory.buffer, 64, 4))).toEqual([0, 3, 6, 9]);
  });
});

const GAMES = ['ggp-repository-base/ticTacToe.kif', 'ggp-repository-base/chomp.kif', 'ggp-repository-base/hanoi.kif', 'ggp-repository-base/beatMania.kif', 'ggp-repository-base/connectFour.kif', 'ggp-repository-base/asteroidsSerial.kif'];

/** What a simulator does over seeded depth charges and walks: every state visited, depths, walks' ends, `info` of some states. */
function trace(sim: ReturnType<typeof createFastSimulator>, seed: number): unknown[] {
  const random = createRandom(seed);
  const out: unknown[] = [];
  const probes: GroundState[] = [];
  for (let i = 0; i < 40; i++) {
    const states: number[][] = [];
    out.push(sim.depthCharge(random, 300, (s) => states.push(Array.from(s))), states);
    probes.push(Uint32Array.from(states[Math.floor(states.length / 2)]!));
  }
  for (const p of probes.slice(0, 10)) {
    const end = sim.walk(p, random, 300);
    out.push(Array.from(end.state), end.depth, end.terminal, end.goals, sim.info(p));
  }
  // Without a visit, a depth charge is one WebAssembly call (wasm-charge.ts), restart and moves
  // drawn inside: the same depths, the generator handed back where the JS loop leaves it, and the
  // last state's machine (read by a walk from it) the same; short charges too (maxSteps 3).
  for (let i = 0; i < 60; i++) out.push(sim.depthCharge(random, i % 2 === 0 ? 300 : 3));
  out.push(random.below(1 << 30));
  const last = sim.walk(probes[3]!, random, 300);
  out.push(Array.from(last.state), last.depth, last.goals);
  return out;
}

describe.skipIf(!HAVE_CORPUS)('the WebAssembly propagator', () => {
  for (const rel of GAMES) {
    it(`${rel}: plays the same seeded games as the JS interpreter`, () => {
      const game = runGrounding(readGame(rel), rel, defaultPipelineOptions(), new StageTimer()).ground;
      const js = createFastSimulator(game, Deadline.never(), { wasm: false });
      const wasm = createFastSimulator(game, Deadline.never());
      expect(trace(wasm, 11)).toEqual(trace(js, 11));
    });
  }

  /** Whether the WebAssembly propagator compiles the net of `game` (with empty step tables and outputs). */
  const compiles = (game: ReturnType<typeof runGrounding>['ground']): boolean => {
    const n = game.atoms.length;
    const out = { kind: new Uint8Array(n), legalRole: new Int32Array(n), legalBase: new Int32Array(1), legalCount: new Int32Array(0), legalList: new Int32Array(0), legalPos: new Int32Array(n), nextFluent: new Int32Array(n), nextBits: new Uint32Array(1) };
    const tables = { roles: 0, doesOf: new Int32Array(n), trueAtom: new Int32Array(0), watched: new Uint32Array(1), frames: undefined };
    // A group of one net, as the simulator makes for a game of one machine.
    return createWasmGroup([{ net: compileNet(game), out, tables }])?.[0] !== undefined;
  };

  it('compiles the net of ticTacToe (the comparison above is not of two JS interpreters)', () => {
    expect(compiles(runGrounding(readGame(GAMES[0]!), GAMES[0]!, defaultPipelineOptions(), new StageTimer()).ground)).toBe(true);
  });

  it('falls back to the JS interpreter where WebAssembly is refused (a content security policy) or absent', () => {
    const game = runGrounding(readGame(GAMES[0]!), GAMES[0]!, defaultPipelineOptions(), new StageTimer()).ground;
    const expected = trace(createFastSimulator(game, Deadline.never(), { wasm: false }), 3);
    const platform = globalThis.WebAssembly;
    const refusing = { ...platform, Module: function refused(): never { throw new platform.CompileError('refused by the content security policy'); } };
    for (const stand of [refusing, undefined]) {
      Object.defineProperty(globalThis, 'WebAssembly', { value: stand, configurable: true, writable: true });
      try {
        expect(compiles(game)).toBe(false);
        expect(trace(createFastSimulator(game, Deadline.never()), 3)).toEqual(expected);
      } finally {
        Object.defineProperty(globalThis, 'WebAssembly', { value: platform, configurable: true, writable: true });
      }
    }
  });
});
