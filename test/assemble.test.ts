// The ground game's canonical rules (src/ground/assemble.ts): sorted by head, then positive and
// negative bodies over the atoms in text order, each rule once, bodies ascending, whatever the
// order and the duplicates of the rule buffer they are read from.
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../src/gdl/terms.js';
import { createRandom } from '../src/play/random.js';
import { compareRules, handMadeGame } from './support/ground-game.js';

describe('assembled rules', () => {
  it('are sorted and unique over random rules with ties on the sort keys and duplicates', () => {
    const random = createRandom(5);
    // Atom names whose text order is not their interning order; few heads and literals, so that
    // many rules share a head and their first two positive literals (the counting passes' keys).
    const names = ['(p 9)', '(p 10)', 'z', '(q a b)', '(q (f 1) b)', 'y', '(p 1)', 'x'];
    const pick = (n: number): string[] => Array.from({ length: n }, () => names[random.below(names.length)]!);
    const rules: [string, string[], string[]][] = [];
    for (let i = 0; i < 400; i++) {
      const r: [string, string[], string[]] = [`(h ${random.below(3)})`, pick(random.below(5)), pick(random.below(3))];
      rules.push(r);
      // Some rules twice, their bodies in another order.
      if (random.below(4) === 0) rules.push([r[0], [...r[1]].reverse(), [...r[2]].reverse()]);
    }
    const g = handMadeGame(['r'], [], rules);
    const text = (id: number): string => g.terms.text(g.atoms[id]!.term);
    const key = (head: string, pos: string[], neg: string[]): string => {
      const ids = (l: string[]): number[] => [...new Set(l.map((t) => g.atoms.findIndex((a) => g.terms.text(a.term) === t)))].sort((a, b) => a - b);
      return JSON.stringify([ids([head]), ids(pos), ids(neg)]);
    };
    const expected = [...new Set(rules.map(([h, p, n]) => key(h, p, n)))].sort();
    const got = g.rules.map((r) => JSON.stringify([[r.head], r.pos, r.neg]));
    expect([...got].sort()).toEqual(expected);
    for (let i = 1; i < g.rules.length; i++) expect(compareRules(g.rules[i - 1]!, g.rules[i]!)).toBeLessThan(0);
    for (const r of g.rules) for (const body of [r.pos, r.neg]) for (let k = 1; k < body.length; k++) expect(body[k - 1]!).toBeLessThan(body[k]!);
    // Atoms in text order.
    for (let id = 1; id < g.atoms.length; id++) expect(compareCodePoints(text(id - 1), text(id))).toBeLessThan(0);
  });
});
