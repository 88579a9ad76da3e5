// The relation store's indexes place appended rows lazily (src/datalog/relation.ts): rows
// appended after an index was read are found by its next read, in ascending chains, and
// counted as keys; membership after appends and inserts mixed keeps the relation a set.
import { describe, expect, it } from 'vitest';
import { Relation } from '../src/datalog/relation.js';

/** The rows of `rel` whose column 0 holds `v`, through its index on column 0. */
function chain(rel: Relation, v: number): number[] {
  const index = rel.index([0]);
  const out: number[] = [];
  for (let row = index.firstOf([v]); row >= 0; row = index.nextRow(row)) out.push(row);
  return out;
}

describe('lazy relation indexes', () => {
  it('finds rows appended after the last read, in ascending chains', () => {
    const rel = new Relation(2);
    for (let i = 0; i < 20; i++) rel.append([i % 3, i]);
    expect(chain(rel, 1)).toEqual([1, 4, 7, 10, 13, 16, 19]);
    for (let i = 20; i < 30; i++) rel.append([i % 3, i]);
    rel.append([7, 0]);
    expect(chain(rel, 1)).toEqual([1, 4, 7, 10, 13, 16, 19, 22, 25, 28]);
    expect(chain(rel, 7)).toEqual([30]);
    expect(rel.index([0]).keys).toBe(4);
    rel.append([8, 0]);
    expect(rel.index([0]).keys).toBe(5);
    expect(rel.distinct(0)).toBe(5);
  });

  it('keeps chains from the first repeated key of an index read while every key had one row', () => {
    const rel = new Relation(2);
    for (let i = 0; i < 40; i++) rel.append([i, i]);
    // Every key has one row so far (relation-index.ts keeps no chains then): each is its own row.
    expect(chain(rel, 17)).toEqual([17]);
    expect(rel.index([0]).keys).toBe(40);
    rel.append([17, 1]);
    rel.append([39, 1]);
    rel.append([17, 2]);
    expect(chain(rel, 17)).toEqual([17, 40, 42]);
    expect(chain(rel, 39)).toEqual([39, 41]);
    expect(chain(rel, 0)).toEqual([0]);
    expect(rel.index([0]).keys).toBe(40);
  });

  it('keeps a set when appends come between inserts and look-ups', () => {
    const rel = new Relation(2);
    expect(rel.insert([1, 2])).toBe(true);
    rel.append([3, 4]);
    rel.append([5, 6]);
    expect(rel.insert([3, 4])).toBe(false);
    expect(rel.has([5, 6])).toBe(true);
    rel.append([7, 8]);
    expect(rel.insert([7, 8])).toBe(false);
    expect(rel.insert([9, 10])).toBe(true);
    expect(rel.find([9, 10])).toBe(4);
    expect(rel.size).toBe(5);
  });
});
