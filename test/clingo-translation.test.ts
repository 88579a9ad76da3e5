/**
 * The clingo side of the "Exact" check (issue 4): the translation of the relaxed game to ASP,
 * reading clingo's model back, and the handling of clingo errors and timeouts. The expected
 * models here are worked out by hand, so the comparison in clingo.test.ts rests on a checked
 * oracle.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Term } from '../src/gdl/ast.js';
import { mkAtom, mkConst, mkFn } from '../src/gdl/ast.js';
import { termToString } from '../src/gdl/terms.js';
import type { NormalGame } from '../src/normalize/types.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import {
  clingoSupersets,
  compareWithClingo,
  firstDifferences,
  mangle,
  parseAspAtom,
  relaxedProgram,
  supersetLines,
  termToAsp,
  unmangle,
} from './support/clingo.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StageTimer } from '../src/timer.js';

// The real Prolog method, except on two files: a mutant that loses its first axiom instance,
// and one that crashes. They show that the comparison fails when it should.
vi.mock('../src/reach/prolog.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/reach/prolog.js')>();
  const computeSupersetsProlog: typeof actual.computeSupersetsProlog = (game, limits) => {
    if (game.file === 'crash.kif') throw new TypeError('boom');
    const r = actual.computeSupersetsProlog(game, limits);
    if (game.file !== 'mutant.kif') return r;
    return { ...r, supersets: { ...r.supersets, axioms: r.supersets.axioms.slice(1) } };
  };
  return { ...actual, computeSupersetsProlog };
});

async function modelLines(text: string, file = 'inline.kif'): Promise<string[]> {
  const game = loadGame(text, file, defaultPipelineOptions(), new StageTimer()).normal;
  const r = await clingoSupersets(game, 20_000);
  if (r.kind !== 'model') throw new Error(`clingo gave no model: ${JSON.stringify(r)}`);
  return supersetLines(r.supersets);
}

describe('names and terms', () => {
  it('mangles injectively and reversibly', () => {
    const names = ['cell', '+', '1a', 'a.b', '_', '_5f_', 'x_y', 'ü', 'a"b', 'back\\slash', '01', '1'];
    const mangled = names.map(mangle);
    expect(new Set(mangled).size).toBe(names.length);
    for (const m of mangled) expect(m).toMatch(/^[a-z0-9_]+$/);
    expect(mangled.map(unmangle)).toEqual(names);
  });

  it('reads back what it writes, for odd constants and deep terms', () => {
    let deep: Term = mkConst('0');
    for (let i = 0; i < 5000; i++) deep = mkFn('s', [deep]);
    const odd = mkFn('f', [mkConst('"q"'), mkConst('a\\b'), mkConst('01'), mkConst('+'), mkFn('1a', [mkConst('a.b')])]);
    for (const t of [odd, deep]) {
      const back = parseAspAtom(`p_${mangle('rel')}(${termToAsp(t)})`);
      expect(back.rel).toBe('rel');
      expect(termToString(back.args[0]!)).toBe(termToString(t));
    }
    expect(parseAspAtom('p_terminal')).toEqual(mkAtom('terminal', []));
  });

  it('rejects text the translation never produces', () => {
    for (const bad of ['p_a(1)', 'p_a(x)', 'p_a((1,2))', 'f_a("1")', 'p_a("1"', 'p_a("1") x']) {
      expect(() => parseAspAtom(bad)).toThrow(/cannot read clingo atom/);
    }
  });
});

/** A game exercising every part of the relaxation; its least model is worked out below. */
const RELAXED = `
(role a) (role b)
(init (cell 01)) (init (cell 1))
(<= (legal ?r (mark ?x)) (role ?r) (true (cell ?x)) (not (blocked ?x)))
(<= (next (cell a.b)) (does a (mark ?x)) (distinct ?x 01))
(<= (next (cell +)) (does b (mark a.b)))
(<= (next (cell never)) (does a (mark ?x)) (distinct ?x ?x))
(<= (blocked ?x) (true (cell ?x)) (not (true (cell ?x))))
(<= (link ?x ?y) (succ ?x ?y))
(<= (link ?x ?z) (link ?x ?y) (succ ?y ?z))
(succ 1 2) (succ 2 3)
(<= (goal a 100) (true (cell +)) won)
(<= won (true (cell +)))
(<= terminal (true (cell +)))
`;

describe('least model of the relaxed game', () => {
  it('drops negative literals, keeps distinct, chains true/does, keeps static facts', async () => {
    const lines = await modelLines(RELAXED);
    expect(lines).toEqual([
      '(base (cell +))',
      '(base (cell 01))',
      '(base (cell 1))',
      '(base (cell a.b))',
      '(blocked +)',
      '(blocked 01)',
      '(blocked 1)',
      '(blocked a.b)',
      '(input a (mark +))',
      '(input a (mark 01))',
      '(input a (mark 1))',
      '(input a (mark a.b))',
      '(input b (mark +))',
      '(input b (mark 01))',
      '(input b (mark 1))',
      '(input b (mark a.b))',
      '(link 1 2)',
      '(link 1 3)',
      '(link 2 3)',
      '(succ 1 2)',
      '(succ 2 3)',
      'won',
    ]);
  });

  it('leaves goal and terminal rules out of the program', () => {
    const program = relaxedProgram(loadGame(RELAXED, 'inline.kif', defaultPipelineOptions(), new StageTimer()).normal);
    expect(program).not.toMatch(/^p_goal/m);
    expect(program).not.toMatch(/^p_terminal/m);
    expect(program).toMatch(/^p_won :- p_true\(f_cell\("\+"\)\)\.$/m);
  });

  it.skipIf(!HAVE_CORPUS)('gives the seven legal moves of ggp-base-test/test_case_5e', async () => {
    const lines = await modelLines(readGame('ggp-base-test/test_case_5e.kif'), 'test_case_5e.kif');
    const inputs = lines.filter((l) => l.startsWith('(input '));
    expect(inputs).toEqual(['a 0', 'a 1', 'c 0', 'c 1', 'c 2', 'c 3', 'c 4'].map((m) => `(input robot (reduce ${m}))`));
    expect(lines.filter((l) => l.startsWith('(smaller '))).toHaveLength(15);
  });
});

describe('clingo failures are reported, not thrown', () => {
  const pos = { line: 1, col: 1 };
  const x = { kind: 'var', name: '?x', pos } as const;

  it('reports an unsafe rule as an error', async () => {
    const game: NormalGame = { file: 'unsafe.kif', rules: [{ head: mkAtom('p', [x]), body: [], pos }] };
    const r = await clingoSupersets(game, 20_000);
    expect(r.kind).toBe('error');
    if (r.kind === 'error') expect(r.reason).toMatch(/unsafe/);
  });

  it('times out on an infinite model and then works again', async () => {
    const counter = `(role r) (init (n 0)) (<= (next (n (s ?x))) (true (n ?x))) (<= (legal r go) (true (n 0)))
      (<= terminal (true (n 5))) (goal r 0)`;
    const game = loadGame(counter, 'counter.kif', defaultPipelineOptions(), new StageTimer()).normal;
    const r = await clingoSupersets(game, 1_000);
    expect(r.kind).toBe('timeout');
    const small = '(role r) (init on) (<= (legal r go) (true on)) (<= terminal (true on)) (goal r 0)';
    expect(await modelLines(small)).toEqual(['(base on)', '(input r go)']);
  });
});

describe('compareWithClingo', () => {
  const limits = { clingoMs: 20_000, prologMs: 20_000, alwaysProlog: false };

  it('agrees with the Prolog method on the relaxation game', async () => {
    expect(await compareWithClingo(RELAXED, 'inline.kif', limits)).toMatchObject({ kind: 'agree', lines: 22 });
  });

  it('reports a missing line and a crash', async () => {
    const mutant = await compareWithClingo(RELAXED, 'mutant.kif', limits);
    expect(mutant).toMatchObject({ kind: 'differ', differences: ['- (blocked +)'], clingoLines: 22, prologLines: 21 });
    expect(await compareWithClingo(RELAXED, 'crash.kif', limits)).toEqual({ kind: 'prolog-error', reason: 'boom' });
  });

  it('skips an invalid game', async () => {
    expect(await compareWithClingo('(role r', 'open.kif', limits)).toMatchObject({ kind: 'invalid' });
  });

  it('agrees with the Prolog method on a game using names with several arities (near/2 and near/3, cell/2 and cell/3)', async () => {
    const text = readFileSync(join(EXAMPLES_DIR, 'arities.kif'), 'utf8');
    const verdict = await compareWithClingo(text, 'arities.kif', limits);
    expect(verdict).toMatchObject({ kind: 'agree' });
    // Both arities of near are in the model: the translation keeps p_near/2 and p_near/3 apart.
    const lines = await modelLines(text, 'arities.kif');
    expect(lines).toContain('(near 1 2)');
    expect(lines).toContain('(near (cell 2 1) x 1)');
  });
});

describe('firstDifferences', () => {
  it('lists lines of either side in order, up to the maximum', () => {
    expect(firstDifferences(['a', 'b', 'd'], ['a', 'c', 'd', 'e'])).toEqual(['- b', '+ c', '+ e']);
    expect(firstDifferences(['a', 'b', 'c'], [], 2)).toEqual(['- a', '- b']);
    expect(firstDifferences(['x'], ['x'])).toEqual([]);
  });
});
