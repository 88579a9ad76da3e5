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

  it('clones: the same ids and symbols, found again, and each table grows on its own', () => {
    const t = new TermTable();
    const kif = '(cell 1 2 b) (line (f a) (g (h c))) x (cell 2 1 b)';
    const ids = terms(kif).map((x) => t.fromTerm(x));
    // Room for far more terms than the original's slots: the copy's slots are placed anew.
    const c = t.clone(5000, 20000);
    expect(c.size).toBe(t.size);
    expect(c.symbolCount).toBe(t.symbolCount);
    expect(terms(kif).map((x) => c.findTerm(x))).toEqual(ids);
    for (const id of ids) expect(c.text(id)).toBe(t.text(id));
    const added = Array.from({ length: 3000 }, (_, i) => c.compound('q', [c.constant(`k${i}`), ids[0]!]));
    expect(new Set(added).size).toBe(3000);
    expect(t.findSymbol('q')).toBe(-1);
    expect(t.size).toBe(c.size - 6000);
    expect(c.fromTerm(terms('(cell 1 2 b)')[0]!)).toBe(ids[0]);
    expect(t.constant('y')).toBe(c.size - 6000);
  });
});
