// One process per run (src/cli/thread.ts): a killed `gdl-ground` leaves no process and no file
// behind, every terminating signal (INT, TERM, HUP) during the write leaves no temporary file
// and ends with 128 + the signal, `batch` workers die with the batch, and `-o` targets are
// checked before the work, with messages that name the user's path.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, ensureBuilt } from './support/cli.js';

/** A game of `n`^3 legal moves: grounding takes seconds and writes megabytes. */
function wideGame(n: number): string {
  return [
    '(role r) (init (s 0))',
    ...Array.from({ length: n }, (_, i) => `(n ${i})`),
    '(<= (legal r (m ?a ?b ?c)) (n ?a) (n ?b) (n ?c))',
    '(<= (next (s ?a)) (does r (m ?a ?b ?c)))',
    '(<= terminal (true (s 5)))',
    '(<= (goal r 100) (true (s 5)))',
  ].join('\n');
}

let dir = '';
let wide = '';
let slow = '';
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'gdl-ground-process-'));
  wide = join(dir, 'wide.kif');
  writeFileSync(wide, wideGame(35));
  slow = join(dir, 'slow.kif');
  writeFileSync(slow, wideGame(200));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function start(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
}

function ended(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
}

/** Live processes (not zombies) whose command line contains `needle`. */
function liveProcesses(needle: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '')[0];
      if (cmd.includes(needle) && state !== 'Z') found.push(Number(pid));
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}

/** Waits until `folder` holds a temporary file (the write has begun); false after `ms`. */
async function tempAppears(folder: string, ms: number): Promise<boolean> {
  for (let t = 0; t < ms; t += 20) {
    if (readdirSync(folder).some((f) => f.endsWith('.tmp'))) return true;
    await sleep(20);
  }
  return false;
}

describe('one process per run', () => {
  it('SIGKILL of the process leaves no process running and writes no file', async () => {
    const out = join(dir, 'killed');
    mkdirSync(out);
    const child = start(['ground', slow, '--max-atoms', '100000000', '--max-ground-atoms', '100000000', '--max-rules', '100000000', '-o', join(out, 'g.gdl')]);
    await sleep(2500);
    child.kill('SIGKILL');
    expect((await ended(child)).signal).toBe('SIGKILL');
    await sleep(1500);
    expect(liveProcesses(out)).toEqual([]);
    expect(readdirSync(out)).toEqual([]);
  }, 30_000);

  it('INT, TERM and HUP during the write leave no file and end with 128 + the signal', async () => {
    const runs = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map(async (signal) => {
      const out = join(dir, `write-${signal}`);
      mkdirSync(out);
      const child = start(['ground', wide, '-o', join(out, 'g.gdl')]);
      let stderr = '';
      child.stderr!.on('data', (d) => {
        stderr += String(d);
      });
      const exit = ended(child);
      const writing = await tempAppears(out, 120_000);
      child.kill(signal);
      const { code } = await exit;
      return { sent: signal, writing, code, stderr, left: readdirSync(out) };
    });
    const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
    for (const r of await Promise.all(runs)) {
      expect(r, r.sent).toEqual({ sent: r.sent, writing: true, code: codes[r.sent], stderr: '', left: [] });
    }
  }, 180_000);

  it('batch workers die with the batch', async () => {
    const out = join(dir, 'batch-out');
    const games = join(dir, 'batch-games');
    mkdirSync(games);
    writeFileSync(join(games, 'a.kif'), wideGame(200));
    writeFileSync(join(games, 'b.kif'), wideGame(201));
    // A budget of atoms far above the games' 8×10⁶ legal atoms: refused early by its estimate
    // (docs/reach.md), a game would end before the workers are looked at.
    const child = spawn(process.execPath, [CLI, 'batch', '--jobs', '2', '--max-atoms', '100000000', '--out', out, games], { cwd: ROOT, stdio: 'ignore' });
    await sleep(3000);
    const workers = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1] === String(child.pid));
    expect(workers.length).toBe(2);
    child.kill('SIGKILL');
    await ended(child);
    await sleep(2500);
    const alive = workers.filter((p) => existsSync(`/proc/${p}`) && readFileSync(`/proc/${p}/stat`, 'utf8').replace(/^.*\) /, '')[0] !== 'Z');
    expect(alive).toEqual([]);
  }, 30_000);
});

describe('output targets are checked before the work', () => {
  async function quick(args: readonly string[]): Promise<{ code: number | null; stderr: string; seconds: number }> {
    const t = performance.now();
    const child = start(args);
    let stderr = '';
    child.stderr!.on('data', (d) => {
      stderr += String(d);
    });
    const { code } = await ended(child);
    return { code, stderr, seconds: (performance.now() - t) / 1000 };
  }

  it('a missing folder, a folder as a file, a file as a folder: exit 2 at once, naming the path', async () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'x');
    const cases: [string[], string][] = [
      [['ground', slow, '-o', join(dir, 'no/such/g.gdl')], `cannot write '${join(dir, 'no/such/g.gdl')}': no folder '${join(dir, 'no/such')}'`],
      [['ground', slow, '-o', dir], `cannot write '${dir}': it is a folder`],
      [['ground', slow, '--format', 'gddl', '-o', file], `cannot write '${file}': it exists and is not a folder`],
      [['reach', slow, '-o', join(dir, 'none', 'r.txt')], `cannot write '${join(dir, 'none', 'r.txt')}': no folder '${join(dir, 'none')}'`],
    ];
    for (const [args, message] of cases) {
      const r = await quick(args);
      expect({ code: r.code, stderr: r.stderr }, args.join(' ')).toEqual({ code: 2, stderr: `gdl-ground: ${message}\n` });
      // The slow game takes far longer to ground than this.
      expect(r.seconds).toBeLessThan(5);
    }
  }, 60_000);
});
