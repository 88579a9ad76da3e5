// `verify`: the example games and a few varied corpus games agree with their ground games;
// a damaged ground game is caught, with the difference located; the CLI's exit codes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerVerify } from '../src/cli/verify.js';
import type { GroundGame } from '../src/ground/types.js';
import { defaultPipelineOptions, type ReachMethod, runGrounding } from '../src/pipeline/stages.js';
import { createGroundSimulator } from '../src/play/ground-sim.js';
import { createReasoner } from '../src/play/reasoner.js';
import { type VerifyResult, formatDifference, verifyGame } from '../src/play/verify.js';
import { EXAMPLES_DIR, GAMES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { findAtom } from './support/ground-game.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

const EXAMPLES = ['ring.kif', 'buttons.kif', 'nim.kif', 'tictactoe.kif'];

/** Small corpus games covering recursion, or, not, distinct, simultaneous moves, 1-3 roles. */
const CORPUS = [
  'ggp-repository-base/hanoi.kif', // recursive, state-dependent (tower)
  'ggp-repository-base/connect4.kif', // recursive static (lte), not, distinct
  'ggp-repository-base/blocker.kif', // simultaneous moves, distinct
  'ggp-repository-base/chomp.kif', // recursive less_than
  'ggp-repository-base/2pffa_zerosum.kif', // or, not, distinct, recursive lt
  'ggp-base-test/test_case_5c.kif', // recursive
  'ggp-repository-base/nim1.kif', // recursive, distinct
];

function run(text: string, file: string, method: ReachMethod, playouts: number, damage?: (g: GroundGame) => GroundGame): VerifyResult {
  const { loaded, ground } = runGrounding(text, file, { ...defaultPipelineOptions(), method }, new StageTimer());
  const game = damage === undefined ? ground : damage(ground);
  return verifyGame(createReasoner(loaded.normal, { deadline: Deadline.never() }), createGroundSimulator(game, Deadline.never()), { playouts, seed: 7, maxSteps: 100 });
}

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

function expectSame(result: VerifyResult): void {
  if (result.kind === 'different') expect.fail(formatDifference(result.difference));
  expect(result.stats.states).toBeGreaterThan(result.stats.playouts);
  expect(result.stats.transitions).toBeGreaterThan(0);
}

describe('verify on the example games', () => {
  for (const name of EXAMPLES) {
    for (const method of ['prolog', 'dg'] as const) {
      it(`${name} (${method})`, () => expectSame(run(example(name), name, method, 5)));
    }
  }
});

describe.skipIf(!HAVE_CORPUS)('verify on corpus games', () => {
  for (const rel of CORPUS) it(rel, () => expectSame(run(readGame(rel), rel, 'prolog', 2)));
});

describe('verify finds differences', () => {
  const text = example('nim.kif');
  const id = (g: GroundGame, t: string): number => findAtom(g, t);

  it('reports a missing next rule at the first joint move it matters for', () => {
    const result = run(text, 'nim.kif', 'prolog', 3, (g) => {
      const control = id(g, '(next (control black))');
      return { ...g, rules: g.rules.filter((r) => r.head !== control) };
    });
    expect(result.kind).toBe('different');
    if (result.kind !== 'different') return;
    expect(result.difference).toMatchObject({ kind: 'next', playout: 1, step: 0, onlyOriginal: ['(control black)'], onlyGround: [] });
    expect(result.difference.state).toContain('(control white)');
    expect(formatDifference(result.difference)).toMatch(/successor state: playout 1, step 0/);
  });

  it('reports a wrong initial state, a missing legal move and a wrong terminal', () => {
    const init = run(text, 'nim.kif', 'prolog', 1, (g) => ({ ...g, init: g.init.slice(1) }));
    expect(init.kind === 'different' && init.difference.kind).toBe('init');
    const legal = run(text, 'nim.kif', 'prolog', 1, (g) => {
      const move = id(g, '(legal white (reduce a 1))');
      return { ...g, rules: g.rules.filter((r) => r.head !== move) };
    });
    expect(legal.kind === 'different' && legal.difference).toMatchObject({ kind: 'legal', role: 'white', onlyOriginal: ['(reduce a 1)'] });
    const terminal = run(text, 'nim.kif', 'prolog', 1, (g) => {
      const t = id(g, 'terminal');
      return { ...g, rules: [...g.rules, { head: t, pos: [], neg: [] }] };
    });
    expect(terminal.kind === 'different' && terminal.difference.kind).toBe('terminal');
  });
});

describe('gdl-ground verify', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  async function cli(args: string[]): Promise<{ code: number | undefined; out: string; err: string }> {
    let out = '';
    let err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
    const program = new Command('gdl-ground').exitOverride();
    registerVerify(program);
    process.exitCode = undefined;
    await program.parseAsync(['node', 'gdl-ground', 'verify', ...args]);
    const code = process.exitCode as number | undefined;
    vi.restoreAllMocks();
    return { code, out, err };
  }

  it('exits 0 and summarizes when the games agree', async () => {
    const r = await cli([join(EXAMPLES_DIR, 'ring.kif'), '--playouts', '3', '--seed', '0', '--method', 'dg']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/identical: 3 playouts, \d+ states/);
  });

  it('exits 2 on bad options and a missing file', async () => {
    expect((await cli([join(EXAMPLES_DIR, 'ring.kif'), '--playouts', '0'])).code).toBe(2);
    expect((await cli([join(EXAMPLES_DIR, 'ring.kif'), '--seed', 'x'])).code).toBe(2);
    expect((await cli([join(EXAMPLES_DIR, 'ring.kif'), '--method', 'magic'])).code).toBe(2);
    expect((await cli([join(GAMES_DIR, 'no-such-game.kif')])).code).toBe(2);
  });

  it('says when both sides played a game repaired at loading, and only then', async () => {
    const repaired = await cli([join(EXAMPLES_DIR, '..', 'test/fixtures/lenient/unsafe-head-callers.kif'), '--playouts', '3']);
    expect(repaired.code).toBe(0);
    expect(repaired.out).toContain('unsafe-head-callers.kif: played the repaired game: 1 repair at loading (1 unsafe-head; warnings above), on both sides');
    const plain = await cli([join(EXAMPLES_DIR, 'tictactoe.kif'), '--playouts', '2']);
    expect(plain.out).not.toContain('repaired');
  });

  it('exits 1 on an invalid game', async () => {
    const r = await cli([join(EXAMPLES_DIR, '..', 'package.json')]);
    expect(r.code).toBe(1);
  });
});
