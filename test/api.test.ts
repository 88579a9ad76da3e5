// The library API of src/index.ts (docs/library.md): loading returns diagnostics instead of
// throwing; grounding and every output format are the command line's bytes; an abort stops a run
// (before it, between steps, inside a stage) with the documented error; progress comes per
// stage; the simulator plays as the fast simulator does, with moves as texts and opaque states.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Game, GdlError, type Grounding, type StageRecord, createSimulator, emitGame, findMutexGroups, groundGame, groundGameAsync, loadGame, loadGameAsync,
} from '../src/index.js';
import { groundFile, writeOutput } from '../src/node.js';
import { Deadline } from '../src/deadline.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { fastPlayouts } from '../src/play/playouts.js';
import { EXAMPLES_DIR } from './examples.js';
import { runCli } from './support/cli.js';

const text = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

function game(name: string, settings: Parameters<typeof loadGame>[1] = {}): Game {
  const r = loadGame(text(name), { file: `games/${name}`, ...settings });
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.game;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The files `gdl-ground ground --format FORMAT -o DIR` writes, by name. */
function cliFiles(args: readonly string[]): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'api-cli-'));
  dirs.push(dir);
  const r = runCli([...args, '-o', join(dir, 'out')]);
  expect(r.code, r.stderr).toBe(0);
  return Object.fromEntries(readdirSync(join(dir, 'out')).map((f) => [f, readFileSync(join(dir, 'out', f), 'utf8')]));
}

describe('loadGame', () => {
  it('returns every problem with its position instead of throwing', () => {
    const r = loadGame('(role a)\n(init (p 1))\n(goal a)\n(<= terminal (true (p 1 2)))\n', { file: 'x.kif' });
    expect(r.ok).toBe(false);
    expect(r.diagnostics.map((d) => `${d.severity} ${d.line}:${d.col}`)).toEqual(['error 1:1', 'error 3:1', 'warning 4:20']);
    expect(r.diagnostics.every((d) => d.file === 'x.kif')).toBe(true);
  });

  it('says when loading stopped at a limit rather than at an invalid game', () => {
    const r = loadGame(text('tictactoe.kif'), { timeoutSeconds: 0 });
    expect(r).toMatchObject({ ok: false, limit: true });
  });

  it('keeps the warnings of a valid game, and its async form gives the same', async () => {
    const r = loadGame(text('tictactoe.kif'));
    const a = await loadGameAsync(text('tictactoe.kif'));
    expect(r.ok && a.ok).toBe(true);
    expect(a.diagnostics).toEqual(r.diagnostics);
    if (r.ok) expect(r.game.stats.map((s) => s.stage)).toEqual(['parse', 'validate', 'normalize', 'repair']);
  });
});

describe('groundGame and emitGame write what gdl-ground ground writes', () => {
  it('GDL and JSON with partial settings (method dg, unused instances kept, no base/input)', () => {
    const g = groundGame(game('tictactoe.kif', { method: 'dg' }), { keepUnused: true });
    expect(emitGame(g, 'gdl', { baseInput: false }).files[0]!.text).toBe(runCli(['ground', '--method', 'dg', '--keep-unused', '--no-base-input', 'games/tictactoe.kif']).stdout);
    expect(emitGame(g, 'json').files[0]!.text).toBe(runCli(['ground', '--method', 'dg', '--keep-unused', '--json', 'games/tictactoe.kif']).stdout);
  });

  it('GDL without axioms, GDDL and RDDL files', () => {
    const g = groundGame(game('buttons.kif'));
    expect(emitGame(g, 'gdl-no-axioms').files[0]!.text).toBe(runCli(['ground', '--remove-axioms', 'games/buttons.kif']).stdout);
    for (const format of ['gddl', 'rddl'] as const) {
      const api = Object.fromEntries(emitGame(g, format, { horizon: 7 }).files.map((f) => [f.name, f.text]));
      expect(api).toEqual(cliFiles(['ground', '--format', format, ...(format === 'rddl' ? ['--horizon', '7'] : []), 'games/buttons.kif']));
    }
  });

  it('refuses what a format cannot describe with a GdlError', () => {
    expect(() => emitGame(groundGame(game('tictactoe.kif')), 'rddl')).toThrow(GdlError);
    expect(() => emitGame(groundGame(game('montyhall.kif')), 'gddl')).toThrow(/GDL-II/);
  });

  it('finds the mutex groups gdl-ground mutex finds', () => {
    const m = findMutexGroups(groundGame(game('tictactoe.kif')));
    const cli = JSON.parse(runCli(['mutex', '--json', 'games/tictactoe.kif']).stdout) as { bits: number; groups: unknown[] };
    expect(m.bits).toBe(cli.bits);
    expect(m.groups.length).toBe(cli.groups.length);
  });

  it('proves the mutex groups and removes the axioms once per grounding, with the same files', () => {
    const stages = (s: readonly StageRecord[]): string[] => s.map((r) => r.stage);
    const fresh = (format: 'gddl' | 'rddl') => emitGame(groundGame(game('buttons.kif')), format).files;
    const g = groundGame(game('buttons.kif'));
    expect(stages(findMutexGroups(g).stats)).toContain('mutex');
    const gddl = emitGame(g, 'gddl');
    expect(stages(gddl.stats)).not.toContain('mutex');
    expect(stages(gddl.stats)).toContain('axioms');
    expect(gddl.files).toEqual(fresh('gddl'));
    const rddl = emitGame(g, 'rddl');
    expect(stages(rddl.stats)).not.toContain('axioms');
    expect(rddl.files).toEqual(fresh('rddl'));
    expect(stages(emitGame(groundGame(game('buttons.kif')), 'rddl').stats)).toContain('axioms');
  });

  it('keeps the axiom removal of gdl-no-axioms for a later gddl or rddl of the same grounding', () => {
    const stages = (s: readonly StageRecord[]): string[] => s.map((r) => r.stage);
    const g = groundGame(game('buttons.kif'));
    const plain = emitGame(g, 'gdl-no-axioms');
    expect(stages(plain.stats)).toContain('axioms');
    expect(stages(emitGame(g, 'gdl-no-axioms').stats)).not.toContain('axioms');
    const rddl = emitGame(g, 'rddl');
    expect(stages(rddl.stats)).not.toContain('axioms');
    expect(rddl.files).toEqual(emitGame(groundGame(game('buttons.kif')), 'rddl').files);
  });

  it('the ./node entry grounds a file and writes an output, all files at once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-node-'));
    dirs.push(dir);
    const written = writeOutput(join(dir, 'gddl'), emitGame(groundFile(join(EXAMPLES_DIR, 'buttons.kif')), 'gddl'));
    expect(written.map((p) => p.slice(dir.length))).toEqual(['/gddl/domain.gddl', '/gddl/problem.gddl', '/gddl/partition.gddl']);
    expect(() => groundFile(join(EXAMPLES_DIR, 'arities.kif').replace('arities', 'no-such-game'))).toThrow(/cannot read/);
  });
});

describe('abort and progress', () => {
  it('reports each stage as it starts and ends, the same stages as the grounding lists', () => {
    const seen: StageRecord[] = [];
    const started: string[] = [];
    const g = groundGame(game('tictactoe.kif'), { onProgress: (s) => seen.push(s), onStageStart: (s) => started.push(s) });
    expect(seen.map((s) => s.stage)).toEqual(['reach-prolog', 'instantiate', 'prune', 'unused']);
    expect(started).toEqual(['reach-prolog', 'instantiate', 'prune', 'unused']);
    expect(seen).toEqual(g.stats);
  });

  it('a signal aborted before the call throws the documented error at once', () => {
    const signal = AbortSignal.abort();
    let err: unknown;
    try {
      groundGame(game('tictactoe.kif'), { signal });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GdlError);
    expect((err as GdlError).code).toBe('limit');
    expect((err as GdlError).limit?.kind).toBe('aborted');
    expect((err as GdlError).message).toMatch(/before starting: aborted by the caller/);
  });

  it('an abort during a stage stops the next stage that looks at the deadline, inside it', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const run = groundGameAsync(game('tictactoe.kif'), { signal: controller.signal, onProgress: (s) => {
      seen.push(s.stage);
      if (s.stage === 'reach-prolog') controller.abort();
    } });
    await expect(run).rejects.toMatchObject({ code: 'limit', limit: { kind: 'aborted' } });
    // instantiate started and failed (a failed stage is reported too); prune never ran.
    expect(seen).toEqual(['reach-prolog', 'instantiate']);
  });

  it('an abort while the async call waits for its turn rejects before any stage', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const run = groundGameAsync(game('tictactoe.kif'), { signal: controller.signal, onProgress: (s) => seen.push(s.stage) });
    controller.abort();
    await expect(run).rejects.toThrow(/grounding: aborted by the caller/);
    expect(seen).toEqual([]);
  });

  it('an async call lets tasks queued before it run first', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    await groundGameAsync(game('tictactoe.kif'), { onProgress: (s) => order.push(s.stage) });
    expect(order[0]).toBe('timer');
  });

  it('the deadline reads the signal with its clock', () => {
    const flag = { aborted: false };
    const d = new Deadline(Infinity, Infinity, flag);
    expect(d.exceeded()).toBeUndefined();
    flag.aborted = true;
    expect(d.exceeded()).toBe('aborted');
    expect(d.describe()).toBe('aborted by the caller');
  });
});

describe('createSimulator', () => {
  const ttt = (): Grounding => groundGame(game('tictactoe.kif'));

  it('plays moves given as texts, and refuses illegal ones', () => {
    const sim = createSimulator(ttt());
    expect(sim.roles).toEqual(['xplayer', 'oplayer']);
    const s0 = sim.initialState();
    expect(sim.legalMoves(s0, 'xplayer')).toHaveLength(9);
    expect(sim.legalMoves(s0, 1)).toEqual(['noop']);
    const s1 = sim.nextState(s0, ['( mark  2 2 )', 'noop']);
    expect(sim.fluents(s1)).toContain('(cell 2 2 x)');
    expect(sim.fluents(s0)).toContain('(cell 2 2 b)');
    expect(() => sim.nextState(s1, ['(mark 1 1)', 'noop'])).toThrow(/not legal for xplayer/);
    expect(() => sim.nextState(s1, ['noop'])).toThrow(/one move per role/);
    expect(() => createSimulator(ttt()).fluents(s0)).toThrow(/not a state of this simulator/);
    expect(Object.isFrozen(s0)).toBe(true);
  });

  it('gives equal keys to a state reached along two paths, and goals at the end', () => {
    const sim = createSimulator(ttt());
    const play = (moves: readonly [string, string][]) => moves.reduce((s, m) => sim.nextState(s, m), sim.initialState());
    const a = play([['(mark 1 1)', 'noop'], ['noop', '(mark 2 2)'], ['(mark 3 3)', 'noop']]);
    const b = play([['(mark 3 3)', 'noop'], ['noop', '(mark 2 2)'], ['(mark 1 1)', 'noop']]);
    expect(sim.stateKey(a)).toBe(sim.stateKey(b));
    expect(sim.stateKey(a)).not.toBe(sim.stateKey(sim.initialState()));
    const end = sim.playout(a, { seed: 5 });
    expect(end.terminal).toBe(true);
    expect(sim.isTerminal(end.state)).toBe(true);
    expect(end.goals).toEqual(sim.goals(end.state));
    expect(end.goals.reduce((x, y) => x! + y!, 0)).toBe(100);
  });

  it('plays the depth charges of the fast simulator itself (same seed, same playouts)', () => {
    const g = ttt();
    const api = createSimulator(g).playouts({ count: 300, seed: 9, maxDepth: 50 });
    const direct = fastPlayouts(createFastSimulator(g.game, Deadline.never()), { seconds: Infinity, seed: 9, maxSteps: 50, maxPlayouts: 300 });
    expect([api.playouts, api.states, api.depthSum]).toEqual([direct.playouts, direct.states, direct.depthSum]);
  });

  it('plays a game with lazy axioms, its lazy part decided on demand', () => {
    const g = groundGame(game('lazy-wide.kif', { lazyAxioms: true, maxGroundRules: 200 }));
    const sim = createSimulator(g);
    const api = sim.playouts({ count: 3, seed: 2, maxDepth: 8 });
    const direct = fastPlayouts(createFastSimulator(g.game, Deadline.never()), { seconds: Infinity, seed: 2, maxSteps: 8, maxPlayouts: 3 });
    expect(api.lazyEngine).toBeDefined();
    expect(api.depthSum).toBe(direct.depthSum);
    expect(sim.legalMoves(sim.initialState(), 0).length).toBeGreaterThan(0);
  });

  it('tells each role its percepts in a GDL-II game', () => {
    const sim = createSimulator(groundGame(game('montyhall.kif')));
    const s0 = sim.initialState();
    const joint = sim.roles.map((r) => sim.legalMoves(s0, r)[0]!);
    const seen = sim.percepts(s0, joint);
    expect(seen).toHaveLength(sim.roles.length);
    expect(seen.flat().length).toBeGreaterThan(0);
  });
});
