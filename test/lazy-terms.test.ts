// The lazy evaluators' term table (src/play/lazy-terms.ts): an overlay that reads the ground
// game's table and keeps the terms it makes to itself.
import { describe, expect, it } from 'vitest';
import { TermTable } from '../src/datalog/terms.js';
import { termToString } from '../src/gdl/terms.js';
import { overlayTerms } from '../src/play/lazy-terms.js';

describe('overlayTerms', () => {
  it("finds the base's terms under their ids and numbers its own after them, leaving the base unchanged", () => {
    const base = new TermTable();
    const one = base.constant('1');
    const cell = base.compound('cell', [one, one]);
    const size = base.size;
    const over = overlayTerms(base);
    expect(over.compound('cell', [one, one])).toBe(cell);
    const two = over.constant('2');
    const pos = over.compound('pos', [two, over.compound('cell', [one, one])]);
    expect([two, pos].every((id) => id >= size)).toBe(true);
    expect(over.compound('pos', [two, cell])).toBe(pos);
    expect(over.lookup('pos', [two, cell])).toBe(pos);
    expect(over.text(pos)).toBe('(pos 2 (cell 1 1))');
    expect(termToString(over.toTerm(pos))).toBe('(pos 2 (cell 1 1))');
    expect(over.findTerm(over.toTerm(pos))).toBe(pos);
    expect([over.name(pos), over.arity(pos), over.arg(pos, 1)]).toEqual(['pos', 2, cell]);
    expect([base.size, base.lookup('2'), base.findSymbol('pos')]).toEqual([size, -1, -1]);
    expect(over.size).toBe(size + 2);
  });

  it('refuses to add a term once the base has grown under it', () => {
    const base = new TermTable();
    base.constant('a');
    const over = overlayTerms(base);
    base.constant('b');
    expect(() => over.constant('c')).toThrow(/grew/);
  });
});
