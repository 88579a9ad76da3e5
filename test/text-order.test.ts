// What it tests: sortTermsByText (src/ground/text-order.ts), the order of a ground game's atoms,
// gives exactly the order of sorting the terms' KIF texts by code point, on random terms whose
// names are prefixes of one another, hold the characters that sort between the space and `)`
// ('!' .. "'"), start with one (so they sort before the compound arguments' `(`), lie beyond the BMP, and share one functor across several arities; and that a
// name the decomposition cannot hold (one with a space) still sorts by text.
import { describe, expect, it } from 'vitest';
import { TermTable } from '../src/datalog/terms.js';
import { compareCodePoints } from '../src/gdl/terms.js';
import { sortTermsByText } from '../src/ground/text-order.js';

/** A generator of random numbers below n, seeded, so that a failure repeats. */
function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => (s = (s * 1103515245 + 12345) % 2147483648) % n;
}

const NAMES = ['a', 'ab', 'a!', "a'", 'a#b', 'b', 'B', '1', '10', '1!', '\u{1F600}', '\uFFFD', 'z\u{1F600}', 'f', 'fg', 'cell', '!x', "'", '&a'];

/** `count` random ground terms of `table`, nested up to `depth`, their ids (duplicates possible). */
function randomTerms(table: TermTable, rand: (n: number) => number, count: number, depth: number): number[] {
  const make = (d: number): number => {
    const name = NAMES[rand(NAMES.length)]!;
    if (d === 0 || rand(3) === 0) return table.constant(name);
    const args = Array.from({ length: 1 + rand(4) }, () => make(d - 1));
    return table.compound(name, args);
  };
  return Array.from({ length: count }, () => make(depth));
}

/** The ids sorted by comparing their texts, the order the ground game's contract names. */
function byText(table: TermTable, ids: readonly number[]): number[] {
  return [...ids].sort((x, y) => compareCodePoints(table.text(x), table.text(y)));
}

describe('sortTermsByText', () => {
  it('orders random terms as their texts by code point', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const table = new TermTable();
      const rand = random(seed);
      const ids = [...new Set(randomTerms(table, rand, 3000, 1 + (seed % 3)))];
      const got = sortTermsByText(table, ids);
      expect(got.map((id) => table.text(id))).toEqual(byText(table, ids).map((id) => table.text(id)));
    }
  });

  it('orders atoms of one relation with several arities by text, the shorter not always first', () => {
    const table = new TermTable();
    const c = (n: string): number => table.constant(n);
    const ids = [table.compound('p', [c('a')]), table.compound('p', [c('a'), c('b')]), table.compound('p', [c('a!')]), table.compound('p', [c('a!'), c('a')]), c('p'), table.compound('p', [table.compound('a', [c('b')])])];
    // (p (a b)) (p a b) (p a!) ... : ' ' < '!' < ')' decide where a name is a prefix of another.
    expect(sortTermsByText(table, ids).map((id) => table.text(id))).toEqual(['(p (a b))', '(p a b)', '(p a! a)', '(p a!)', '(p a)', 'p']);
  });

  it('orders atoms whose arguments are compounds nested deeper than the radix sort goes', () => {
    const table = new TermTable();
    const rand = random(7);
    const deep = (d: number, leaf: number): number => (d === 0 ? leaf : table.compound(NAMES[rand(NAMES.length)]!, [deep(d - 1, leaf)]));
    const leaves = randomTerms(table, rand, 200, 1);
    const ids = [...new Set(leaves.map((l, i) => table.compound('p', [deep(i % 12, l), table.constant(NAMES[i % NAMES.length]!)])))];
    expect(sortTermsByText(table, ids).map((id) => table.text(id))).toEqual(byText(table, ids).map((id) => table.text(id)));
  });

  it('falls back to the texts when a name holds a space', () => {
    const table = new TermTable();
    const ids = [table.compound('f', [table.constant('a b')]), table.compound('f', [table.constant('a')]), table.compound('f', [table.constant('a'), table.constant('c')])];
    expect(sortTermsByText(table, ids).map((id) => table.text(id))).toEqual(byText(table, ids).map((id) => table.text(id)));
  });
});
