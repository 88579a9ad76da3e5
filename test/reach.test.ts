// Supersets by Algorithm 9.2 on Tau-Prolog: exact least models of small relaxed games, corner
// cases of the translation (quoting, recursion, variables in split positions), and limits.
import { TEST_REACH_LIMITS } from './support/context.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { parseGdl } from '../src/gdl/parser.js';
import { normalizeGame } from './support/normalize.js';
import { formatSupersets, supersetSentences } from '../src/reach/format.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { type ReachLimits } from '../src/reach/types.js';
import { EXAMPLES_DIR } from './examples.js';
import { limitError } from './support/limits.js';

// Parsed and normalized without validation, so that small fragments need no goal or terminal.
function reach(text: string, limits: ReachLimits = TEST_REACH_LIMITS, maxTermDepth?: number) {
  const parsed = parseGdl(text, 't.kif', Deadline.never());
  expect(parsed.diagnostics).toEqual([]);
  return computeSupersetsProlog(normalizeGame(parsed.game), limits, maxTermDepth === undefined ? {} : { maxTermDepth });
}

function lines(text: string): string[] {
  return formatSupersets(reach(text).supersets).trim().split('\n').filter((l) => l !== '');
}


describe('computeSupersetsProlog', () => {
  it('computes the least model of a relaxed game: init, next, legal, does and axioms', () => {
    const game = `
      (role r) (succ 0 1) (succ 1 2) (succ 2 3)
      (init (step 0))
      (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y) (not (true (step 2))))
      (<= (legal r (go ?x)) (true (step ?x)))
      (<= (next (went ?x)) (does r (go ?x)))
      (<= (seen ?x) (true (went ?x)))
      (<= terminal (true (step 3)))
      (<= (goal r 100) (true (step 3)))`;
    // The negative literal is dropped, so step 3 is reached although the real game stops at 2.
    expect(lines(game)).toEqual([
      '(base (step 0))', '(base (step 1))', '(base (step 2))', '(base (step 3))',
      '(base (went 0))', '(base (went 1))', '(base (went 2))', '(base (went 3))',
      '(input r (go 0))', '(input r (go 1))', '(input r (go 2))', '(input r (go 3))',
      '(seen 0)', '(seen 1)', '(seen 2)', '(seen 3)',
      '(succ 0 1)', '(succ 1 2)', '(succ 2 3)',
    ]);
  });

  it('reaches tic-tac-toe exactly: 29 fluents, 20 moves, 28 axioms', () => {
    const text = readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8');
    const { supersets, stats } = reach(text);
    const s = supersetSentences(supersets);
    expect([s.fluents.length, s.moves.length, s.axioms.length]).toEqual([29, 20, 28]);
    expect(s.fluents).toContain('(base (cell 2 2 o))');
    expect(s.fluents).toContain('(base (control oplayer))');
    expect(s.moves).toContain('(input oplayer noop)');
    expect(s.axioms).toContain('open');
    expect(s.axioms).toContain('(line x)');
    expect(stats.method).toBe('prolog');
    // kept counts every stored fact: the 77 output atoms plus role, init, next, legal and index.
    expect(stats.kept).toBeGreaterThan(s.fluents.length + s.moves.length + s.axioms.length);
    expect(stats.answers).toBeGreaterThan(0);
    expect(stats.iterations).toBeGreaterThan(1);
    expect(stats.times.map((t) => t.step)).toEqual(['load', 'static', 'fixpoint', 'axioms', 'collect']);
  });

  it('keeps 1, 01, + and quote-like symbols apart as constants', () => {
    const game = `(role r) (init (v 1)) (init (v 01)) (init (v +)) (init (v it's))
      (<= (legal r (pick ?x)) (true (v ?x)))
      (<= (same ?x ?y) (true (v ?x)) (true (v ?y)) (distinct ?x 01))`;
    const out = lines(game);
    expect(out.filter((l) => l.startsWith('(base'))).toEqual(['(base (v +))', '(base (v 01))', '(base (v 1))', "(base (v it's))"]);
    expect(out).toContain('(same 1 01)');
    expect(out).not.toContain('(same 01 1)');
    expect(out.filter((l) => l.startsWith('(same')).length).toBe(12);
  });

  it('terminates on left-recursive axioms and computes their closure', () => {
    const game = `(role r) (succ 1 2) (succ 2 3) (succ 3 4) (init (at 1))
      (<= (lt ?x ?y) (lt ?x ?z) (succ ?z ?y))
      (<= (lt ?x ?y) (succ ?x ?y))
      (<= (legal r (jump ?y)) (true (at ?x)) (lt ?x ?y))
      (<= (next (at ?y)) (does r (jump ?y)))`;
    const out = lines(game);
    expect(out.filter((l) => l.startsWith('(lt'))).toEqual(['(lt 1 2)', '(lt 1 3)', '(lt 1 4)', '(lt 2 3)', '(lt 2 4)', '(lt 3 4)']);
    expect(out.filter((l) => l.startsWith('(base'))).toEqual(['(base (at 1))', '(base (at 2))', '(base (at 3))', '(base (at 4))']);
  });

  it('serves (true ?x), (does ?r ?m) and (next ?x) with variables in the split position', () => {
    const game = `(role r) (init a) (init (b 1)) (init (c 1 2)) (item a) (item (b 1)) (item (c 1 2))
      (<= (legal r (copy ?x)) (true ?x))
      (<= (next ?x) (does r (copy ?x)))
      (<= (next (w ?x)) (does ?p (copy ?x)) (role ?p) (item ?x))
      (<= (any ?m) (does r ?m))`;
    const s = supersetSentences(reach(game).supersets);
    expect(s.fluents).toEqual(['(base (b 1))', '(base (c 1 2))', '(base (w (b 1)))', '(base (w (c 1 2)))', '(base (w a))', '(base a)']);
    expect(s.moves.length).toBe(6);
    expect(s.axioms.filter((a) => a.startsWith('(any'))).toEqual([
      '(any (copy (b 1)))', '(any (copy (c 1 2)))', '(any (copy (w (b 1))))', '(any (copy (w (c 1 2))))', '(any (copy (w a)))', '(any (copy a))',
    ]);
  });

  it('stops an infinite relaxed game at the term depth limit, naming the relation', () => {
    const game = `(role r) (init (count 0))
      (<= (next (count (s ?x))) (true (count ?x)) (not (true (count (s (s (s 0)))))))
      (<= (legal r noop) (true (count ?x)))`;
    const err = limitError(() => reach(game, TEST_REACH_LIMITS, 50));
    expect(err.message).toMatch(/t\.kif:2:7: error: relation 'next' has instances \(fluent 'count'\) with terms nested deeper than 50 levels/);
  });

  it('accepts instances nested exactly as deep as the limit, and refuses one level more', () => {
    // The deepest fluent argument, (count (s (s (s 0)))), is 5 deep; the rules' own terms 4.
    const game = `(role r) (init (count 0)) (succ 0 (s 0)) (succ (s 0) (s (s 0))) (succ (s (s 0)) (s (s (s 0))))
      (<= (next (count ?y)) (true (count ?x)) (succ ?x ?y))
      (<= (legal r noop) (true (count ?x)))`;
    expect(supersetSentences(reach(game, TEST_REACH_LIMITS, 5).supersets).fluents).toEqual(['(base (count (s (s (s 0)))))', '(base (count (s (s 0))))', '(base (count (s 0)))', '(base (count 0))']);
    expect(limitError(() => reach(game, TEST_REACH_LIMITS, 4)).message).toMatch(/t\.kif:2:7: error: relation 'next' has instances \(fluent 'count'\) with terms nested deeper than 4 levels/);
  });

  it('refuses a rule whose own terms are nested deeper than the limit, and over-long bodies', () => {
    const deep = `(role r) (init (c ${'(s '.repeat(20)}0${')'.repeat(20)}))`;
    expect(limitError(() => reach(deep, TEST_REACH_LIMITS, 10)).message).toMatch(/t\.kif:1:10: error: rule for 'init' has a term nested deeper than 10 levels/);
    const long = `(role r) (init (c 0)) (<= (legal r a) ${Array.from({ length: 2100 }, (_, i) => `(true (c ${i}))`).join(' ')})`;
    expect(limitError(() => reach(long)).message).toMatch(/rule for 'legal' has more than 2000 body literals/);
  });

  it('stops at --max-atoms and names the relation that grew', () => {
    const game = `(role r) (n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9)
      (<= (pair ?a ?b ?c) (n ?a) (n ?b) (n ?c))
      (init x)`;
    const err = limitError(() => reach(game, { deadline: Deadline.never(), maxAtoms: 500 }));
    expect(err.message).toMatch(/t\.kif:2:7: error: relation 'pair' grew to \d+ instances .*more than 500 ground atoms/);
  });

  it('stops at the deadline with a limit error', () => {
    const text = readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8');
    const err = limitError(() => reach(text, { deadline: new Deadline(Date.now() - 1), maxAtoms: 1_000_000 }));
    expect(err.message).toMatch(/time limit reached/);
  });

  it('leaves goal and terminal rules out unless another rule uses them', () => {
    const game = `(role r) (init (p 1))
      (<= (goal r 100) (true (p ?x)))
      (<= terminal (true (p 1)))
      (<= (legal r stop) terminal)
      (<= (next (p 2)) (does r stop))`;
    expect(lines(game)).toEqual(['(base (p 1))', '(base (p 2))', '(input r stop)']);
  });

  it('is deterministic: the same text twice gives the same output', () => {
    const text = readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8');
    expect(formatSupersets(reach(text).supersets)).toBe(formatSupersets(reach(text).supersets));
  });
});
