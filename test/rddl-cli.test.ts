// `ground --format rddl` and `verify --rddl` end to end (docs/rddl.md): the built CLI writes
// both RDDL files, plays them against the original game, refuses games with more than one
// role (exit 1, no file) and checks its flags (exit 2).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli as run } from './support/cli.js';

/** A fresh folder per run for the written files, removed at the end. */
const dir = mkdtempSync(join(tmpdir(), 'gdl-ground-rddl-'));
beforeAll(ensureBuilt);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gdl-ground ground --format rddl / verify --rddl', () => {
  it('writes <game>_mdp.rddl and <game>_inst.rddl, which verify finds identical', () => {
    const out = join(dir, 'linkpath');
    const r = run(['ground', 'games/linkpath.kif', '--format', 'rddl', '-o', out]);
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['linkpath_inst.rddl', 'linkpath_mdp.rddl']);
    expect(readFileSync(join(out, 'linkpath_mdp.rddl'), 'utf8')).toContain('domain g-linkpath_mdp {');
    const v = run(['verify', 'games/linkpath.kif', '--rddl', out, '--playouts', '10']);
    expect(v.stdout).toContain('identical');
    expect(v.code).toBe(0);
  }, 120_000);
  it('takes --horizon', () => {
    const out = join(dir, 'horizon');
    expect(run(['ground', 'games/linkpath.kif', '--format', 'rddl', '-o', out, '--horizon', '9']).code).toBe(0);
    expect(readFileSync(join(out, 'linkpath_inst.rddl'), 'utf8')).toContain('horizon = 9;');
  }, 60_000);
  it('refuses a game with two roles: exit 1, a clear message, no file', () => {
    const out = join(dir, 'ttt');
    const r = run(['ground', 'games/tictactoe.kif', '--format', 'rddl', '-o', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/RDDL describes one agent; this game has 2 roles/);
    expect(existsSync(join(out, 'tictactoe_mdp.rddl')) || existsSync(join(out, 'tictactoe_inst.rddl'))).toBe(false);
  }, 60_000);
  it('usage errors: no directory, --horizon without rddl, a bad horizon, a missing directory for verify', () => {
    expect(run(['ground', 'games/linkpath.kif', '--format', 'rddl']).code).toBe(2);
    expect(run(['ground', 'games/linkpath.kif', '--horizon', '5']).code).toBe(2);
    expect(run(['ground', 'games/linkpath.kif', '--format', 'rddl', '-o', join(dir, 'x'), '--horizon', '0']).code).toBe(2);
    const v = run(['verify', 'games/linkpath.kif', '--rddl', join(dir, 'nowhere')]);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain('linkpath_mdp.rddl');
  }, 60_000);
});
