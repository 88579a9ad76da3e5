// `npm run bench -- --corpus`: the corpus table of issue 17. Rows are sorted into outcomes
// (a limit whose data carries an estimate is a refusal with an estimate, whatever its words; `lazyRelations` > 0 is a lazy
// ground game), overshoots are counted whatever the outcome, the largest games come first;
// end to end on a tiny folder the table is written and counts what the games do.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameRow } from '../src/batch/types.js';
import { LARGEST, corpusMarkdown, largestGames, lazyRelations, outcomeOf, overshot } from '../src/bench/corpus-table.js';
import { ROOT, ensureBuilt } from './support/cli.js';

const row = (game: string, status: GameRow['status'], seconds: number, extra: Partial<GameRow> & { lazyRelations?: number } = {}): GameRow =>
  ({ game, status, exitCode: 0, message: '', seconds, outputs: [], stages: {}, ...extra });

const settings = { timeoutSeconds: 60, maxMemoryMb: 4096, jobs: 1, root: 'games' };

describe('bench --corpus: outcomes', () => {
  it('sorts rows into outcomes', () => {
    expect(outcomeOf(row('a', 'ok', 1))).toBe('ground');
    expect(outcomeOf(row('a', 'ok', 1, { lazyRelations: 2 }))).toBe('lazy');
    expect(outcomeOf(row('a', 'ok', 1, { lazyRelations: 0 }))).toBe('ground');
    // Only keyword rules left non-ground (no lazy relation) is lazy grounding too.
    expect(outcomeOf(row('a', 'ok', 1, { lazyRelations: 0, lazyRules: 3 }))).toBe('lazy');
    expect(outcomeOf(row('a', 'limit', 1, { message: "'code/9' would make about 1.0×10⁹ ground atoms", limit: { kind: 'ground-atoms', estimate: 1e9 } }))).toBe('estimate');
    expect(outcomeOf(row('a', 'limit', 1, { message: 'time limit of 60 s reached in instantiate', limit: { kind: 'time' } }))).toBe('limit');
    // The data decides, not the words: a message saying "about" without an estimate is another limit, and the reverse.
    expect(outcomeOf(row('about.kif', 'limit', 1, { message: 'about.kif:1:1: error: time limit reached', limit: { kind: 'time' } }))).toBe('limit');
    expect(outcomeOf(row('a', 'limit', 1, { message: 'stopped', limit: { kind: 'time', estimate: 5e8 } }))).toBe('estimate');
    expect(outcomeOf(row('a', 'memory', 1))).toBe('limit');
    expect(outcomeOf(row('a', 'invalid', 1))).toBe('invalid');
    expect(outcomeOf(row('a', 'crash', 1))).toBe('crash');
    expect(lazyRelations(row('a', 'ok', 1))).toBe(0);
  });

  it('counts a run more than a second past its limit as an overshoot, whatever its status', () => {
    expect(overshot(row('a', 'limit', 61.0), 60)).toBe(false);
    expect(overshot(row('a', 'limit', 61.2), 60)).toBe(true);
    expect(overshot(row('a', 'ok', 75), 60)).toBe(true);
  });

  it('lists the largest ground games by rules, at most LARGEST', () => {
    const rows = Array.from({ length: LARGEST + 5 }, (_, i) => row(`g${i}`, 'ok', 1, { rules: i * 10, fluents: 1 }));
    rows.push(row('huge-but-refused', 'limit', 1, { rules: 1e9 }));
    const big = largestGames(rows);
    expect(big).toHaveLength(LARGEST);
    expect(big[0]!.game).toBe(`g${LARGEST + 4}`);
    expect(big.map((r) => r.rules)).toEqual([...big.map((r) => r.rules!)].sort((a, b) => b - a));
  });

  it('writes counts, the overshoots and the refusals with their messages', () => {
    const rows = [
      row('x/ok.kif', 'ok', 2, { rules: 5, fluents: 3, moves: 2, peakMiB: 70 }),
      row('x/lazy.kif', 'ok', 3, { rules: 7, lazyRelations: 1 }),
      row('x/big.kif', 'limit', 1, { message: 'would make about 3.9×10⁸ ground atoms', limit: { kind: 'ground-atoms', estimate: 3.9e8 } }),
      row('x/slow.kif', 'limit', 65, { message: 'killed 5 s after the time limit of 60 s' }),
      row('x/bad.kif', 'invalid', 0.1, { message: 'x/bad.kif:1:1: error: no roles' }),
    ];
    const md = corpusMarkdown(rows, settings);
    expect(md).toContain('| grounded | 1 | 20.0% |');
    expect(md).toContain('| grounded with lazy axioms | 1 | 20.0% |');
    expect(md).toContain('| refused with an estimate | 1 | 20.0% |');
    expect(md).toContain('| other limits (time, memory, size) | 1 | 20.0% |');
    expect(md).toContain('| invalid (exit 1) | 1 | 20.0% |');
    expect(md).toContain('Grounded (fully or lazily): 2 of 4 valid games (50.0%).');
    expect(md).toContain('ran more than 1 s past the 60 s limit): 1.');
    expect(md).toMatch(/## Overshoots \(1\)\n\n[^#]*x\/slow\.kif/);
    expect(md).toMatch(/## Refused with an estimate \(1\)\n\n[^#]*3\.9×10⁸/);
    expect(md.indexOf('| x/lazy.kif | 7 |')).toBeLessThan(md.indexOf('| x/ok.kif | 5 | 3 | 2 | 2.0 | 70 |'));
  });
});

describe('bench --corpus: time per game', () => {
  it('writes median and 90th percentile of all games and of the ground ones, and a previous run beside', () => {
    const rows = [row('a', 'ok', 1), row('b', 'ok', 3), row('c', 'limit', 60.5), row('d', 'invalid', 0.1)];
    const previous = { name: 'old.json', rows: [row('a', 'ok', 2), row('b', 'ok', 6)] };
    const md = corpusMarkdown(rows, settings, previous);
    expect(md).toContain('| this run | 4 | 1.00 | 60.50 | 2 | 1.00 | 3.00 |');
    expect(md).toContain('| previous (old.json) | 2 | 2.00 | 6.00 | 2 | 2.00 | 6.00 |');
    expect(corpusMarkdown(rows, settings)).not.toContain('previous');
  });
});

describe('bench --corpus: end to end on a tiny folder', () => {
  let dir = '';
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'gdl-corpus-'));
    mkdirSync(join(dir, 'f'));
    copyFileSync(join(ROOT, 'games/tictactoe.kif'), join(dir, 'f/tictactoe.kif'));
    copyFileSync(join(ROOT, 'games/explode.kif'), join(dir, 'f/explode.kif'));
    writeFileSync(join(dir, 'f/bad.kif'), '(role x)\n(<= (foo ?x) (bar))\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('grounds every game and writes the table (--no-lazy: explode.kif is refused by its estimate)', () => {
    const out = join(dir, 'corpus.md');
    const r = spawnSync(process.execPath, [join(ROOT, 'dist/bench/run.js'), '--corpus', '--no-lazy', '--timeout', '30', '--max-memory', '1024', '--out', out], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, GDL_GAMES_DIR: dir },
    });
    expect(r.status, r.stderr).toBe(0);
    const md = readFileSync(out, 'utf8');
    expect(r.stdout).toBe(md);
    expect(md).toContain('| grounded | 1 |');
    expect(md).toContain('| refused with an estimate | 1 |');
    expect(md).toContain('| invalid (exit 1) | 1 |');
    expect(md).toMatch(/\| f\/tictactoe\.kif \| \d+ \| 29 \| 20 \|/);
    expect(md).toContain("'code/9'");
  });

  it('grounds with lazy axioms by default: explode.kif is then ground lazily, not refused; keeps its rows and compares times with the first run', () => {
    const out = join(dir, 'corpus-lazy.md');
    const first = join(dir, 'first.json');
    const again = join(dir, 'again.json');
    const bench = (extra: string[]) => spawnSync(process.execPath, [join(ROOT, 'dist/bench/run.js'), '--corpus', '--timeout', '30', '--max-memory', '1024', '--out', out, ...extra], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, GDL_GAMES_DIR: dir },
    });
    expect(bench(['--rows', first]).status).toBe(0);
    const kept = JSON.parse(readFileSync(first, 'utf8')) as { games: GameRow[] };
    expect(kept.games.map((g) => g.game).sort()).toEqual(['f/bad.kif', 'f/explode.kif', 'f/tictactoe.kif']);
    expect(bench(['--rows', again, '--previous', first]).status).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/\| previous \(first\.json\) \| 3 \| /);
    const r = spawnSync(process.execPath, [join(ROOT, 'dist/bench/run.js'), '--corpus', '--timeout', '30', '--max-memory', '1024', '--out', out], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, GDL_GAMES_DIR: dir },
    });
    expect(r.status, r.stderr).toBe(0);
    const md = readFileSync(out, 'utf8');
    expect(md).toContain('| grounded | 1 |');
    expect(md).toContain('| grounded with lazy axioms | 1 |');
    expect(md).toContain('| refused with an estimate | 0 |');
  });

  it('refuses a bad number, and a previous run that is no batch report, with exit 2', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist/bench/run.js'), '--corpus', '--jobs', 'x'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, GDL_GAMES_DIR: dir } });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--jobs');
    writeFileSync(join(dir, 'not-a-report.json'), '{"rows": []}');
    const p = spawnSync(process.execPath, [join(ROOT, 'dist/bench/run.js'), '--corpus', '--previous', join(dir, 'not-a-report.json')], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, GDL_GAMES_DIR: dir } });
    expect(p.status).toBe(2);
    expect(p.stderr).toContain('not a batch JSON report');
  });
});
