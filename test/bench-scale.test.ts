// `npm run bench -- --scale --files A,B`: the scale table on game files outside the corpus
// (held-out games), named as given; a file that does not exist is refused before anything runs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from './support/cli.js';

const BENCH = join(ROOT, 'dist/bench/run.js');
const bench = (args: string[]) => spawnSync(process.execPath, [BENCH, '--scale', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });

describe('bench --scale --files', () => {
  it('refuses a missing file with its path and exit code 2', () => {
    ensureBuilt();
    const r = bench(['--files', 'games/no-such-game.kif']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(join(ROOT, 'games/no-such-game.kif'));
  });

  // gringo is a Debian package the benchmark needs; without it the benchmark says so and stops.
  it.skipIf(!existsSync('/usr/bin/gringo') || !existsSync('/usr/bin/time'))('measures the named file beside gringo', () => {
    ensureBuilt();
    const r = bench(['--files', 'games/tictactoe.kif', '--timeout', '60']);
    expect(r.status).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('| games/tictactoe.kif |'));
    expect(line).toBeDefined();
    const cells = line!.split('|').map((c) => c.trim());
    // rules written by ours, then gringo's rules: both counted from real outputs.
    expect(Number(cells[2])).toBeGreaterThan(0);
    expect(Number(cells[8])).toBeGreaterThan(0);
    expect(r.stdout).toContain('median over the 1 games both ground');
    expect(r.stdout).not.toContain('--lazy-axioms');
  });

  // The held-out chess scramblings are refused without lazy axioms (docs/lazy.md); the flag reaches ours.
  it.skipIf(!existsSync('/usr/bin/gringo') || !existsSync('/usr/bin/time'))('grounds ours with --lazy-axioms when asked', () => {
    ensureBuilt();
    const r = bench(['--files', 'games/tictactoe.kif', '--timeout', '60', '--lazy-axioms']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('ours ground with --lazy-axioms');
  });
});
