// Normalizer: NNF, DNF, one rule per disjunct, (not (distinct)) as unification, body order, blow-up guard.
import { describe, expect, it } from 'vitest';
import { GdlError } from '../src/gdl/diagnostics.js';
import { parseGdl } from '../src/gdl/parser.js';
import { atomToString, termToString } from '../src/gdl/terms.js';
import { normalizeGame } from './support/normalize.js';
import type { Literal, NormalRule } from '../src/normalize/types.js';
import { Deadline } from '../src/deadline.js';

function lit(l: Literal): string {
  if (l.kind === 'distinct') return `(distinct ${termToString(l.left)} ${termToString(l.right)})`;
  return l.kind === 'neg' ? `(not ${atomToString(l.atom)})` : atomToString(l.atom);
}

function show(rules: readonly NormalRule[]): string[] {
  return rules.map((r) => [atomToString(r.head), ...r.body.map(lit)].join(' <= '));
}

function norm(text: string, maxDisjuncts = 4096): string[] {
  const parsed = parseGdl(text, 't.kif', Deadline.never());
  expect(parsed.diagnostics).toEqual([]);
  return show(normalizeGame(parsed.game, { maxDisjuncts }).rules);
}

describe('normalizeGame', () => {
  it('splits a disjunction into one rule per disjunct', () => {
    expect(norm('(<= (p ?x) (q ?x) (or (r ?x) (s ?x)))')).toEqual(['(p ?x) <= (q ?x) <= (r ?x)', '(p ?x) <= (q ?x) <= (s ?x)']);
  });

  it('pushes negation inward by De Morgan and removes double negation', () => {
    expect(norm('(<= p (q ?x) (not (and (r ?x) (not (s ?x)))))')).toEqual(['p <= (q ?x) <= (not (r ?x))', 'p <= (q ?x) <= (s ?x)']);
  });

  it('distributes conjunction over disjunction (DNF)', () => {
    expect(norm('(<= p (or a b) (or c d))')).toEqual(['p <= a <= c', 'p <= a <= d', 'p <= b <= c', 'p <= b <= d']);
  });

  it('turns (not (distinct s t)) into unification of s and t', () => {
    expect(norm('(<= (p ?x ?y) (q ?x) (not (distinct ?x ?y)))')).toEqual(['(p ?y ?y) <= (q ?y)']);
    expect(norm('(<= (p ?x) (q ?x) (not (distinct a b)))')).toEqual([]);
    expect(norm('(<= (p ?x) (q ?x) (not (distinct (f ?x) (f a))))')).toEqual(['(p a) <= (q a)']);
  });

  it('evaluates ground distinct and places negation after the literal binding its variables', () => {
    expect(norm('(<= (p ?x) (distinct a b) (not (r ?x)) (distinct ?x ?y) (q ?x) (s ?y))')).toEqual([
      '(p ?x) <= (q ?x) <= (not (r ?x)) <= (s ?y) <= (distinct ?x ?y)',
    ]);
    expect(norm('(<= (p ?x) (q ?x) (distinct a a))')).toEqual([]);
  });

  it('drops duplicate literals and duplicate rules', () => {
    expect(norm('(<= p (q ?x) (q ?x))\n(<= p (q ?x))\n(<= p (or (q ?x) (q ?x)))')).toEqual(['p <= (q ?x)']);
  });

  it('keeps rules that differ only in a term kind, a literal kind, an arity or the body order', () => {
    const rules = [
      '(p a)', '(p ?a)', '(p (a))', '(p a b)', '(p (f a))', '(p (f a b))', '(p (f (g a)))', '(p (f (g b)))',
      '(<= (q ?x) (r ?x) (s ?x))', '(<= (q ?x) (s ?x) (r ?x))', '(<= (q ?x) (r ?x) (not (s ?x)))', '(<= (q ?x) (r ?x) (distinct ?x a))',
    ];
    const text = [...rules, ...rules].join('\n');
    const parsed = parseGdl(text, 't.kif', Deadline.never());
    const kept = normalizeGame(parsed.game, { maxDisjuncts: 4096 }).rules;
    expect(kept).toHaveLength(rules.length - 1);
    expect(show(kept)).toEqual(show(normalizeGame(parseGdl(rules.join('\n'), 't.kif', Deadline.never()).game, { maxDisjuncts: 4096 }).rules));
    // Facts are kept once each, in the order of their first occurrence.
    expect(show(kept).slice(0, 7)).toEqual(['(p a)', '(p ?a)', '(p a b)', '(p (f a))', '(p (f a b))', '(p (f (g a)))', '(p (f (g b)))']);
  });

  it('refuses a DNF blow-up with an error naming the rule', () => {
    const body = Array.from({ length: 20 }, (_, i) => `(or (a${i}) (b${i}))`).join(' ');
    const parsed = parseGdl(`(role r)\n(<= (big ?x) ${body})`, 'blow.kif', Deadline.never());
    expect(() => normalizeGame(parsed.game, { maxDisjuncts: 4096 })).toThrow(GdlError);
    try {
      normalizeGame(parsed.game, { maxDisjuncts: 4096 });
    } catch (e) {
      expect((e as GdlError).diagnostics[0]).toMatchObject({ file: 'blow.kif', line: 2, col: 1 });
      expect((e as GdlError).diagnostics[0]!.message).toContain("rule for 'big'");
    }
  });
});
