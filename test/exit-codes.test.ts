// The exit codes and messages of README.md's table, end to end through the built command line:
// 0 ok, 1 invalid input, 2 usage, 3 a limit (the time, the memory, the atoms), 130 Ctrl-C with
// no partial file; `-` reads standard input and messages name `<stdin>`; a closed output pipe
// ends quietly. Nothing prints a stack trace.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, ensureBuilt } from './support/cli.js';

const TICTACTOE = join(ROOT, 'games/tictactoe.kif');

/** A game whose one legal relation has 60^4 instances: it runs for long unless stopped. */
const SLOW = [
  '; a game too large to ground quickly: 60^4 legal moves',
  '(role r) (init (s 0))',
  ...Array.from({ length: 60 }, (_, i) => `(n ${i})`),
  '(<= (legal r (m ?a ?b ?c ?d)) (n ?a) (n ?b) (n ?c) (n ?d))',
  '(<= (next (s ?a)) (does r (m ?a ?b ?c ?d)))',
  '(<= terminal (true (s 5)))',
  '(<= (goal r 100) (true (s 5)))',
].join('\n');

interface Run { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

function run(args: readonly string[], input?: string): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', input });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** No stack trace: no "    at f (file:line)" line and no Node error banner. */
function expectNoStack(r: Run): void {
  expect(r.stderr).not.toMatch(/^\s+at .+[:(]/m);
  expect(r.stderr).not.toMatch(/node:internal|Unhandled 'error'|FATAL ERROR/);
}

/** Scratch folder of the tests: games written for them, and their output files. */
let dir = '';
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'gdl-ground-exit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The slow game's file, written the first time a test asks for it. */
function slowGame(): string {
  const path = join(dir, 'slow.kif');
  if (!existsSync(path)) writeFileSync(path, SLOW);
  return path;
}

describe('exit codes and messages', () => {
  it('0: a valid game', () => {
    const r = run(['check', TICTACTOE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('valid GDL');
  });

  it('1: an invalid game, every error at FILE:LINE:COL', () => {
    const bad = join(dir, 'bad.kif');
    writeFileSync(bad, '(role x)\n(init (cell 1)\n(<= (next ?x) (true ?x))\n');
    for (const command of ['check', 'reach', 'ground']) {
      const r = run([command, bad]);
      expect(r.code, command).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: error: `, 'm'));
      expectNoStack(r);
    }
  });

  it('2: usage errors (unknown option, bad values, a missing file)', () => {
    for (const args of [['ground', TICTACTOE, '--bogus'], ['ground', TICTACTOE, '--max-memory', 'lots'], ['check', TICTACTOE, '--max-memory', '0'], ['check', join(dir, 'missing.kif')]]) {
      const r = run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.length).toBeGreaterThan(0);
      expectNoStack(r);
    }
  });

  it('3: a limit, named, and no output file', () => {
    const slow = slowGame();
    const out = join(dir, 'limited.gdl');
    const atoms = run(['ground', slow, '--max-atoms', '1000', '-o', out]);
    expect(atoms.code).toBe(3);
    expect(atoms.stderr).toMatch(/slow\.kif:\d+:\d+: error: .*'legal'/);
    const time = run(['ground', slow, '--timeout', '1', '--max-atoms', '100000000', '-o', out]);
    expect(time.code).toBe(3);
    expect(time.stderr).toMatch(/time limit/);
    // Far below what any run needs: the memory limit is reached in the first stage that checks it.
    const memory = run(['ground', TICTACTOE, '--remove-axioms', '--max-memory', '1', '-o', out]);
    expect(memory.code).toBe(3);
    expect(memory.stderr).toMatch(/limit/);
    for (const r of [atoms, time, memory]) expectNoStack(r);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('130: Ctrl-C stops a long run, leaving no output file', async () => {
    const slow = slowGame();
    const out = join(dir, 'interrupted.gdl');
    // A memory limit far above Node's default heap: the command runs in a thread with a heap
    // that large (src/cli/thread.ts); the main thread takes the signal and ends with 130.
    const child = spawn(process.execPath, [CLI, 'ground', slow, '--max-atoms', '100000000', '--max-memory', '60000', '-o', out], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    child.kill('SIGINT');
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    expect({ code, signal, stderr }).toEqual({ code: 130, signal: null, stderr: '' });
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('- reads the game from standard input, and messages name <stdin>', () => {
    const text = readFileSync(TICTACTOE, 'utf8');
    const fromFile = run(['ground', TICTACTOE]);
    const fromStdin = run(['ground', '-'], text);
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    expect(run(['check', '-'], text).stdout).toContain('<stdin>: valid GDL');
    const bad = run(['reach', '-'], '(role x)\n(init (f a)\n');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^<stdin>:2:\d+: error: /m);
  });

  it('0: a reader that closes the output pipe early ends the run quietly', async () => {
    // 90,000 moves: megabytes of output, more than a pipe holds.
    const big = join(dir, 'big.kif');
    writeFileSync(big, [
      '(role r) (init (f 0))', ...Array.from({ length: 300 }, (_, i) => `(n ${i})`),
      '(<= (legal r (m ?a ?b)) (n ?a) (n ?b))', '(<= (next (f ?a)) (does r (m ?a ?b)))', '(<= terminal (true (f 5)))', '(<= (goal r 100) (true (f 5)))',
    ].join('\n'));
    const child = spawn(process.execPath, [CLI, 'reach', big], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
