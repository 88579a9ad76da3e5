// The one term table: ids are unique per term, structure reads back, texts and ASTs round-trip.
import { describe, expect, it } from 'vitest';
import { TermTable } from '../src/datalog/terms.js';
import { parseGdl } from '../src/gdl/parser.js';
import { termToString } from '../src/gdl/terms.js';
import type { Term } from '../src/gdl/ast.js';
import { Deadline } from '../src/deadline.js';

function terms(kif: string): Term[] {
  const { game } = parseGdl(`(p ${kif})`, 't.kif', Deadline.never());
  return game.rules[0]!.head.args as Term[];
}

describe('TermTable', () => {
  it('gives equal terms one id and different terms different ids', () => {
    const t = new TermTable();
    const [a, b, c, d, e] = terms('(cell 1 2 b) (cell 1 2 b) (cell 2 1 b) cell (cell 1 2)').map((x) => t.fromTerm(x));
    expect(a).toBe(b);
    expect(new Set([a, c, d, e]).size).toBe(4);
    expect(t.name(a!)).toBe('cell');
    expect(t.arity(a!)).toBe(3);
    expect(t.arity(d!)).toBe(0);
    expect(t.args(a!).map((x) => t.text(x))).toEqual(['1', '2', 'b']);
    expect(t.arg(c!, 0)).toBe(t.constant('2'));
  });

  it('finds without creating', () => {
    const t = new TermTable();
    const one = t.constant('1');
    expect(t.lookup('f', [one])).toBe(-1);
    const f = t.compound('f', [one]);
    expect(t.lookup('f', [one])).toBe(f);
    expect(t.find(t.symbol('f'), [one, one])).toBe(-1);
    expect(t.findTerm(terms('(f 1)')[0]!)).toBe(f);
    expect(t.findTerm(terms('(f 2)')[0]!)).toBe(-1);
  });

  it('round-trips text and syntax trees, deep terms included', () => {
    const t = new TermTable();
    let deep = 'z';
    for (let i = 0; i < 20000; i++) deep = `(s ${deep})`;
    for (const x of terms(`(cell 1 (f a b) c) ${deep} ok`)) {
      const id = t.fromTerm(x);
      expect(t.text(id)).toBe(termToString(x));
      expect(termToString(t.toTerm(id))).toBe(termToString(x));
    }
  });

  it('keeps ids dense and stable across growth (100,000 random terms)', () => {
    const t = new TermTable();
    const seen = new Map<string, number>();
    let seed = 7;
    const rnd = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    for (let i = 0; i < 100000; i++) {
      const args = Array.from({ length: rnd(3) }, () => (seen.size > 0 && rnd(2) === 0 ? rnd(seen.size) : t.constant(`c${rnd(50)}`)));
      const id = t.compound(`f${rnd(5)}`, args);
      const key = t.text(id);
      if (seen.has(key)) expect(seen.get(key)).toBe(id);
      else seen.set(key, id);
    }
    expect(t.size).toBeGreaterThanOrEqual(seen.size);
    for (const [text, id] of seen) expect(t.text(id)).toBe(text);
  });
});
