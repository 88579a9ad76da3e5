// `gdl-ground mutex` and `verify --mutex` / `verify --ground` end to end: the JSON shape of the
// issue, observed groups only on request, usage errors and limits with their exit codes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, ensureBuilt } from './support/cli.js';

function run(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir = '';
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'gdl-mutex-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gdl-ground mutex', () => {
  it('prints the groups of tic-tac-toe as JSON in the documented shape', () => {
    const r = run(['mutex', 'games/tictactoe.kif', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(Object.keys(json)).toEqual(['fluents', 'bits', 'proof', 'budgetReached', 'groups']);
    expect(json.proof.observed).toEqual({ groups: 0, fluents: 0 });
    expect(json.proof.lifted.fluents + json.proof.ground.fluents).toBe(29);
    expect(json.fluents).toBe(29);
    expect(json.bits).toBe(19);
    expect(json.groups[0]).toEqual({
      members: ['(cell 1 1 b)', '(cell 1 1 o)', '(cell 1 1 x)'], exactlyOne: true, proven: true, proof: 'lifted', relation: 'cell', input: [0, 1], output: [2],
    });
  });

  it('shows observed groups only with --observed, and says how many it left out', () => {
    // --max-states 0: no search over every reachable state, which would prove the group (2f).
    // mutex-projection-bonus.kif: {(count blue 3), (count red 3)} is true but left observed (its
    // `bonus` move is outside the projection search's P); mutex-observed.kif's group is proven by it.
    const plain = run(['mutex', 'games/mutex-projection-bonus.kif', '--max-states', '0']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('1 observed groups (survived the playouts, not proven) not shown');
    expect(plain.stdout).not.toContain('(count blue 3) (count red 3)');
    const all = JSON.parse(run(['mutex', 'games/mutex-projection-bonus.kif', '--json', '--observed', '--max-states', '0']).stdout);
    expect(all.groups.filter((g: { proven: boolean }) => !g.proven).map((g: { members: string[] }) => g.members)).toEqual([['(count blue 3)', '(count red 3)']]);
  });

  it('reports usage errors with exit 2 and the proof counts with --stats', () => {
    expect(run(['mutex', 'games/tictactoe.kif', '--playouts', '2.5']).code).toBe(2);
    const stats = run(['mutex', 'games/tictactoe.kif', '--stats']);
    expect(stats.stderr).toMatch(/mutex: 8 hypotheses, 38 candidate groups/);
  });

  it('verify --mutex holds the proven groups; verify --ground plays a file without axioms', () => {
    expect(run(['verify', 'games/tictactoe.kif', '--mutex', '--playouts', '3']).stdout).toContain('identical');
    const file = join(dir, 'ttt.kif');
    expect(run(['ground', 'games/tictactoe.kif', '--remove-axioms', '-o', file]).code).toBe(0);
    const v = run(['verify', 'games/tictactoe.kif', '--ground', file, '--playouts', '3']);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain('identical');
    expect(run(['verify', 'games/tictactoe.kif', '--ground', file, '--mutex']).code).toBe(2);
  });
});
