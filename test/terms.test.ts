// What it tests: sortByCodePoints orders by code points (surrogate pairs included), keeps
// duplicates and their relative order, and sorts in place.
import { describe, expect, it } from 'vitest';
import { sortByCodePoints } from '../src/gdl/terms.js';

describe('sortByCodePoints', () => {
  it('orders texts by code point, keeping duplicates in their order', () => {
    const items = [{ t: 'b', n: 1 }, { t: 'a', n: 2 }, { t: 'B', n: 3 }, { t: 'b', n: 4 }, { t: '(cell 1 2)', n: 5 }, { t: 'a', n: 6 }];
    const out = sortByCodePoints(items, (x) => x.t);
    expect(out).toBe(items);
    expect(out.map((x) => x.n)).toEqual([5, 3, 2, 6, 1, 4]);
  });

  it('puts characters beyond the BMP after every BMP character, as code points do', () => {
    const texts = ['\u{1F600}', '\uFFFD', 'z'];
    expect(sortByCodePoints([...texts], (x) => x)).toEqual(['z', '\uFFFD', '\u{1F600}']);
  });

  it('sorts random texts like a code point comparison', () => {
    let seed = 7;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const alphabet = ['a', 'b', ' ', '(', ')', '1', '10', 'Z'];
    const texts = Array.from({ length: 500 }, () => Array.from({ length: 1 + rand(6) }, () => alphabet[rand(alphabet.length)]).join(''));
    const expected = [...texts].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    expect(sortByCodePoints([...texts], (x) => x)).toEqual(expected);
  });
});
