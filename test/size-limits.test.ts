// The size limits of loading and of the superset computation are limits (exit 3), each with its
// flag; `check` takes --timeout; stray top-level words are warned about; and big inputs (a few
// MB of facts, the same on one line) are read with every sentence counted once.
import { Deadline } from '../src/deadline.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GdlError } from '../src/gdl/diagnostics.js';
import { parseGdl } from '../src/gdl/parser.js';
import { loadGame, reachGame, resolvePipelineOptions, summarizeLoaded } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { CLI, ensureBuilt } from './support/cli.js';

const GAME = `(role p)
(init (step 0))
(<= (legal p go) (true (step 0)))
(<= (next (step 1)) (does p go))
(<= terminal (true (step 1)))
(<= (goal p 100) (true (step 1)))
`;

/** 13 binary `or`s in one body: 8192 disjuncts, twice the default limit. */
const BLOWUP = `${GAME}(<= (goal p 0) ${Array.from({ length: 13 }, (_, i) => `(or (true (step ${i})) (true (c ${i})))`).join(' ')})\n`;

/** A counter in the initial state nested `n` deep. */
function deep(n: number): string {
  return `${GAME}(init (c ${'(s '.repeat(n)}0${')'.repeat(n)}))\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'gdl-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function cli(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function thrown(fn: () => unknown): GdlError {
  try {
    fn();
  } catch (err) {
    if (err instanceof GdlError) return err;
    throw err;
  }
  throw new Error('expected a GdlError');
}

describe('size limits', () => {
  it('a DNF beyond --max-disjuncts is a limit, not invalid input, and the setting raises it', () => {
    const err = thrown(() => loadGame(BLOWUP, 'blowup.kif', resolvePipelineOptions(), new StageTimer()));
    expect(err.code).toBe('limit');
    expect(err.message).toBe("blowup.kif:7:1: error: rule for 'goal' splits into more than 4096 rules in disjunctive normal form");
    expect(loadGame(BLOWUP, 'blowup.kif', resolvePipelineOptions({ maxDisjuncts: 10_000 }), new StageTimer()).normal.rules.length).toBeGreaterThan(8000);
    expect(thrown(() => loadGame(BLOWUP, 'blowup.kif', resolvePipelineOptions({ maxDisjuncts: 100 }), new StageTimer())).message).toMatch(/more than 100 rules/);
  });

  it('the term depth of both superset methods follows maxTermDepth', () => {
    const normal = loadGame(deep(300), 'deep.kif', resolvePipelineOptions(), new StageTimer()).normal;
    for (const method of ['prolog', 'dg'] as const) {
      const err = thrown(() => reachGame(normal, resolvePipelineOptions({ method }), new StageTimer()));
      expect(err.code).toBe('limit');
      expect(err.message).toMatch(/nested deeper than 256 levels/);
      expect(thrown(() => reachGame(normal, resolvePipelineOptions({ method, maxTermDepth: 100 }), new StageTimer())).message).toMatch(/nested deeper than 100 levels/);
      const reached = reachGame(normal, resolvePipelineOptions({ method, maxTermDepth: 400 }), new StageTimer());
      expect(reached.supersets.fluents.length).toBe(3);
    }
  });

  it('the command line: exit 3 for each limit, and its flag lifts it; check takes --timeout', () => {
    ensureBuilt();
    const blowup = file('blowup.kif', BLOWUP);
    const r1 = cli(['check', blowup]);
    expect(r1.code).toBe(3);
    expect(r1.stderr).toContain("7:1: error: rule for 'goal' splits into more than 4096 rules in disjunctive normal form");
    expect(cli(['check', '--max-disjuncts', '10000', blowup]).code).toBe(0);
    expect(cli(['check', '--max-disjuncts', 'x', blowup]).code).toBe(2);

    const counter = file('deep.kif', deep(300));
    expect(cli(['reach', counter]).code).toBe(3);
    expect(cli(['reach', '--method', 'dg', counter]).code).toBe(3);
    const lifted = cli(['reach', '--max-term-depth', '400', counter]);
    expect(lifted.code).toBe(0);
    expect(lifted.stdout).toContain('(base (step 1))');

    const game = file('game.kif', GAME);
    // --timeout counts from the start of the process: a millisecond has passed at the first look.
    // On a loaded machine the main thread's backstop (cli/thread.ts) may stop the command thread
    // before its first look; it words the same limit with its value.
    const late = cli(['check', '--timeout', '0.001', game]);
    expect(late.code).toBe(3);
    expect(late.stderr).toMatch(/time limit (of 0\.001 s )?reached/);
    expect(cli(['check', '--timeout', '600', game]).code).toBe(0);
  }, 300_000);
});

describe('top-level words', () => {
  it('warns about each word outside parentheses, at its position, and reads it as a fact', () => {
    const r = parseGdl('npm ERR!\n(role a)\n  oops', 'log.kif', Deadline.never());
    expect(r.diagnostics.map((d) => `${d.severity} ${d.line}:${d.col} ${d.message}`)).toEqual([
      "warning 1:1 top-level word 'npm' is not a sentence in parentheses; read as the fact (npm)",
      "warning 1:5 top-level word 'err!' is not a sentence in parentheses; read as the fact (err!)",
      "warning 3:3 top-level word 'oops' is not a sentence in parentheses; read as the fact (oops)",
    ]);
    expect(r.game.rules.map((x) => x.head.rel)).toEqual(['npm', 'err!', 'role', 'oops']);
  });

  it('stops after 20 words and counts them all; words inside sentences are no concern', () => {
    const r = parseGdl(`${'word '.repeat(30)}(role a) (<= (p x) (q x))`, 'log.kif', Deadline.never());
    expect(r.diagnostics).toHaveLength(21);
    expect(r.diagnostics[20]!.message).toBe('30 top-level words in all: is this a game description?');
    expect(parseGdl(GAME, 'g.kif', Deadline.never()).diagnostics).toEqual([]);
  });
});

describe('big inputs', () => {
  /** The game and `n` facts of a board, on lines of their own or all on one line. */
  function facts(n: number, sep: string): string {
    const parts: string[] = [GAME];
    for (let i = 0; i < n; i++) parts.push(`(init (cell ${i % 1000} ${Math.floor(i / 1000)} x))${sep}`);
    return parts.join('');
  }

  it.each([['lines', '\n'], ['one line', ' ']])('reads 40,000 facts on %s, each once, to the end', (_name, sep) => {
    const n = 40_000;
    const text = facts(n, sep);
    const timer = new StageTimer();
    const loaded = loadGame(text, 'big.kif', resolvePipelineOptions(), timer);
    const counts = Object.fromEntries(timer.list().map((r) => [r.stage, r.counts]));
    expect(counts).toMatchObject({ parse: { rules: n + 6 }, validate: { problems: 0 }, normalize: { rules: n + 6 } });
    expect(summarizeLoaded(loaded).facts).toBe(n + 2);
    // A stray ')' at the very end: its position says the reader kept count to the last byte.
    const err = thrown(() => loadGame(`${text})`, 'big.kif', resolvePipelineOptions(), new StageTimer()));
    const lines = `${text})`.split('\n');
    expect(err.diagnostics.map((d) => `${d.line}:${d.col}`)).toEqual([`${lines.length}:${lines[lines.length - 1]!.length}`]);
  }, 120_000);
});
