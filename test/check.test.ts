// `gdl-ground check` end to end: the built CLI on valid, repaired and broken games.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR, GAMES_DIR, HAVE_CORPUS, listGames } from './corpus.js';
import { CLI, ROOT, ensureBuilt } from './support/cli.js';
import { readExpectations } from './support/expectations.js';

const FIXTURES = join(ROOT, 'test/fixtures/invalid');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[], cwd = ROOT): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** stderr lines that are diagnostics, as `line:col: severity: message` without the file. */
function diagnostics(stderr: string, file: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith(`${file}:`)).map((l) => l.slice(file.length + 1));
}

function expectSorted(lines: readonly string[]): void {
  const key = (l: string): [number, number] => {
    const [line, col] = l.split(':').map(Number);
    return [line!, col!];
  };
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [key(lines[i - 1]!), key(lines[i]!)];
    expect(a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]), `${lines[i - 1]} before ${lines[i]}`).toBe(true);
  }
}

function expectNoStackTrace(r: Run): void {
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(r.stderr).not.toMatch(/internal error/);
}

/** Each broken input, and the first line of its report (positions are the point of the test). */
const BROKEN: Record<string, string> = {
  'truncated.kif': "5:1: error: unbalanced '(': not closed before the end of the file",
  'stray-paren.kif': "3:17: error: unbalanced ')': no '(' is open here",
  'syntax-and-meaning.kif': "3:1: error: unbalanced '(': not closed before the next sentence at 5:1",
  'keyword-arity.kif': "4:1: error: 'legal' takes 2 arguments, not 3",
  'unsafe-infinite.kif': "6:1: error: unsafe rule for 'next': variable ?y of the head is bound by no positive literal, and the domain of its position (argument 1 of function count/1) is infinite",
  'unsafe-negation.kif': "5:1: error: unsafe rule for 'next': variable ?x of (distinct ?x 1) is bound by no positive literal",
  'unstratified.kif': "6:1: error: negation through recursion (the rules are not stratified): 'p' depends negatively on 'q'",
  'recursion-restriction.kif': "7:1: error: recursion restriction violated in a rule for 'num': argument (s ?x)",
  'true-in-head.kif': "5:5: error: 'true' cannot stand in the head of a rule or as a fact",
  'does-in-head.kif': "5:1: error: 'does' cannot stand in the head of a rule or as a fact",
  'next-in-body.kif': "7:5: error: 'next' cannot stand in the body of a rule",
  'init-in-body.kif': "6:5: error: 'init' cannot stand in the body of a rule",
  'does-feeds-legal.kif': "5:1: error: 'legal' must not depend on 'does' (the moves of the current step), but it does: does -> moved -> legal",
  'role-rule.kif': "3:1: error: roles must be given as facts, not by rules",
  'no-roles.kif': '1:1: error: no roles: the game has no (role ...) facts',
  'no-terminal-goal.kif': "1:1: error: no end: the game has no rules or facts for 'terminal'",
  'empty.kif': '1:1: error: empty game: the file holds no rules or facts',
  'garbage.bin': '1:1: error: unexpected character U+0000',
};

beforeAll(ensureBuilt);

describe('gdl-ground check on valid games', () => {
  it('prints the summary of the example tic-tac-toe and exits 0', () => {
    const r = run(['check', join(EXAMPLES_DIR, 'tictactoe.kif')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('roles: xplayer oplayer\n');
    expect(r.stdout).toContain('fluents: cell control\n');
    expect(r.stdout).toContain('moves: mark noop\n');
    expect(r.stdout).toContain('static relations: index\n');
    expect(r.stdout).toContain('axioms: column diagonal line open row\n');
    expect(r.stdout).toMatch(/^rules: 26 as written, 27 after normalization$/m);
  });

  it('prints the same as JSON with --json', () => {
    const r = run(['check', '--json', join(EXAMPLES_DIR, 'tictactoe.kif')]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.valid).toBe(true);
    expect(report.diagnostics).toEqual([]);
    expect(report.summary).toMatchObject({
      roles: ['xplayer', 'oplayer'], relations: 14, rules: 26, normalizedRules: 27, facts: 15,
      fluents: ['cell', 'control'], moves: ['mark', 'noop'], staticRelations: ['index'],
    });
  });

  it.skipIf(!HAVE_CORPUS)('prints repair warnings on stderr, sorted, in both modes', () => {
    const file = join(GAMES_DIR, 'ggp-repository-base/ticTacToeClassic.kif');
    for (const flags of [[], ['--json']]) {
      const r = run(['check', ...flags, file]);
      expect(r.code).toBe(0);
      const lines = diagnostics(r.stderr, file);
      expect(lines.map((l) => l.split(': ')[0])).toEqual(['75:1', '76:1', '96:1', '100:1', '103:1']);
      expect(lines.every((l) => l.includes(': warning: '))).toBe(true);
    }
  });
});

describe('gdl-ground check on broken inputs', () => {
  for (const [name, first] of Object.entries(BROKEN)) {
    it(`rejects ${name} at the right position`, () => {
      const r = run(['check', name], FIXTURES);
      expect(r.code).toBe(1);
      expectNoStackTrace(r);
      expect(r.stdout).toBe('');
      const lines = diagnostics(r.stderr, name);
      expect(lines[0]).toContain(first);
      expectSorted(lines);
    });
  }

  it('fixtures and table agree', () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(Object.keys(BROKEN).sort());
  });

  it('reports the meaning of the complete sentences beside a syntax error, sorted by position', () => {
    const r = run(['check', 'syntax-and-meaning.kif'], FIXTURES);
    expect(r.code).toBe(1);
    expect(diagnostics(r.stderr, 'syntax-and-meaning.kif')).toEqual([
      "3:1: error: unbalanced '(': not closed before the next sentence at 5:1",
      "5:1: error: unsafe rule for 'next': variable ?z of (distinct ?z 1) is bound by no positive literal",
      "5:1: error: unsafe rule for 'next': variable ?z of (not (true (cell ?z))) is bound by no positive literal",
    ]);
  });

  it('describes an invalid game as JSON with --json', () => {
    const r = run(['check', '--json', 'unsafe-negation.kif'], FIXTURES);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ valid: false, diagnostics: [{ severity: 'error', line: 5, col: 1 }, { severity: 'error', line: 5, col: 1 }] });
  });
});

describe('gdl-ground check usage errors', () => {
  it('exits 2 for a missing file, an unknown flag and a missing argument', () => {
    for (const args of [['check', 'no-such-game.kif'], ['check', '--bogus', 'x.kif'], ['check']]) {
      const r = run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expectNoStackTrace(r);
    }
  });
});

// A fixed, varied subset (CHECK_FULL_CORPUS=1 runs every game): the rejected games, repaired
// ones, recursive, deep and large ones.
const SUBSET = [
  'ggp-base-test/test_invalid_function_arities_differ.kif', 'ggp-base-test/test_invalid_sentence_arities_differ.kif',
  'libgdl/fire_sheep.kif', 'libgdl/kono.kif', 'ggp-repository-base/ticTacToeClassic.kif', 'ggp-repository-base/hexPie.kif',
  'ggp-repository-base/chess.kif', 'ggp-repository-base/blockerSerial.kif', 'ggp-repository-base/speedChess.kif',
  'ggp-base-test/test_clean_not_distinct.kif', 'ggp-base-test/test_distinct_beginning_rule.kif', 'ggp-repository-base/amazons_8x8.kif',
];
// The two arity games are accepted with a warning (distinct symbols by name and arity).
const INVALID = new Set(SUBSET.slice(2, 4));

describe.skipIf(!HAVE_CORPUS)('gdl-ground check on corpus games', () => {
  const games = process.env.CHECK_FULL_CORPUS === '1' ? listGames() : SUBSET;
  // Beyond the subset, each game's exit code is the one test/expectations/corpus.tsv records.
  const expected = readExpectations();
  it(`checks ${games.length} games: exit 0 or 1 with positioned errors, never a stack trace`, () => {
    for (const g of games) {
      const file = join(GAMES_DIR, g);
      const r = run(['check', file]);
      expectNoStackTrace(r);
      if (SUBSET.includes(g)) expect(r.code, g).toBe(INVALID.has(g) ? 1 : 0);
      else expect(r.code, g).toBe(expected.get(g)?.load === 'invalid' ? 1 : 0);
      const lines = diagnostics(r.stderr, file);
      expectSorted(lines);
      if (r.code === 1) expect(lines.some((l) => /^\d+:\d+: error: /.test(l)), g).toBe(true);
    }
  });
});
