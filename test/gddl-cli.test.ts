// `gdl-ground ground --format gddl` and `verify --gddl` end to end: the three files in a
// directory (all or none), on stdout after `; file:` lines, played back identically, a changed
// file caught as a difference, the blow-up's exit 3 leaving no directory behind, usage errors.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli as run } from './support/cli.js';

/** A fresh directory for the outputs of this file's runs. */
const dir = mkdtempSync(join(tmpdir(), 'gdl-gddl-'));
beforeAll(ensureBuilt);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ground --format gddl', () => {
  it('writes the three files into the directory and verify --gddl plays them identically', () => {
    const out = join(dir, 'ttt');
    const r = run(['ground', 'games/tictactoe.kif', '--format', 'gddl', '-o', out, '--stats']);
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['domain.gddl', 'partition.gddl', 'problem.gddl']);
    expect(r.stderr).toContain('gddl: moves per role: xplayer 10, oplayer 10; cross product 100, multi-actions written 18');
    expect(r.stderr).toContain('turn-taking: yes');
    const v = run(['verify', 'games/tictactoe.kif', '--gddl', out, '--playouts', '5']);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain('identical: 5 playouts');
    // Written again over its own output: replaced, same bytes.
    const before = readFileSync(join(out, 'domain.gddl'), 'utf8');
    expect(run(['ground', 'games/tictactoe.kif', '--format', 'gddl', '-o', out]).code).toBe(0);
    expect(readFileSync(join(out, 'domain.gddl'), 'utf8')).toBe(before);
  });

  it('prints each file after a "; file:" line without -o', () => {
    const r = run(['ground', 'games/ring.kif', '--format', 'gddl']);
    expect(r.code).toBe(0);
    const heads = r.stdout.split('\n').filter((l) => l.startsWith('; file: '));
    expect(heads).toEqual(['; file: domain.gddl', '; file: problem.gddl', '; file: partition.gddl']);
  });

  it('a changed effect is found as a difference (exit 1)', () => {
    const out = join(dir, 'changed');
    expect(run(['ground', 'games/tictactoe.kif', '--format', 'gddl', '-o', out]).code).toBe(0);
    const domain = join(out, 'domain.gddl');
    writeFileSync(domain, readFileSync(domain, 'utf8').replace(':precondition (control-xplayer) :effect (control-oplayer)', ':precondition (control-xplayer) :effect (control-xplayer)'));
    const v = run(['verify', 'games/tictactoe.kif', '--gddl', out, '--playouts', '2']);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain('difference in successor state');
  });

  it('the blow-up ends with exit 3 naming the sizes, and leaves no directory', () => {
    const out = join(dir, 'blowup');
    const r = run(['ground', 'games/gddl-blowup.kif', '--format', 'gddl', '-o', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('more than 50000 multi-actions (--max-actions): 6 roles (moves each: r1 12, r2 12, r3 12, r4 12, r5 12, r6 12), cross product 2985984');
    expect(readdirSync(dir).filter((f) => f.includes('blowup'))).toEqual([]);
  });

  it('a smaller --max-actions stops tic-tac-toe; usage errors exit 2', () => {
    expect(run(['ground', 'games/tictactoe.kif', '--format', 'gddl', '--max-actions', '10']).code).toBe(3);
    expect(run(['ground', 'games/tictactoe.kif', '--max-actions', '10']).code).toBe(2);
    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine');
    const r = run(['ground', 'games/tictactoe.kif', '--format', 'gddl', '-o', other]);
    expect(r.code).toBe(2);
    expect(readdirSync(other)).toEqual(['notes.txt']);
    expect(run(['verify', 'games/tictactoe.kif', '--gddl', join(dir, 'missing')]).code).toBe(2);
  });
});
