// Distinct values of a relation's column counted as bits (src/datalog/relation.ts, `distinct`)
// instead of through an index built for the join planner's estimate, and `reserve`: checked
// against a Set per column while rows keep coming (the count catches up), with values spread
// too thin for bits (the index takes over), and rows kept when room is reserved.
import { describe, expect, it } from 'vitest';
import { Relation } from '../src/datalog/relation.js';
import { createRandom } from '../src/play/random.js';

/** The distinct values of column `col` of `rel`, counted directly. */
function expected(rel: Relation, col: number): number {
  const seen = new Set<number>();
  for (let r = 0; r < rel.size; r++) seen.add(rel.get(r, col));
  return seen.size;
}

describe('Relation.distinct', () => {
  it('agrees with a Set per column as rows are added between the counts', () => {
    const random = createRandom(11);
    const rel = new Relation(3);
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 500; i++) rel.insert([random.below(40), 1000 + random.below(300), random.below(5)]);
      for (let col = 0; col < 3; col++) expect(rel.distinct(col)).toBe(expected(rel, col));
    }
  });

  it('falls back to the index when the values are spread too thin for bits', () => {
    const rel = new Relation(2);
    rel.append([5, 0]);
    rel.append([5, 1]);
    expect(rel.distinct(0)).toBe(1);
    // Ids a hundred million apart: a bit window over them would be far sparser than allowed.
    for (let i = 1; i <= 20; i++) rel.append([i * 100_000_000, i]);
    expect(rel.distinct(0)).toBe(21);
    rel.append([5, 99]);
    rel.append([7, 99]);
    expect(rel.distinct(0)).toBe(22);
    expect(rel.distinct(1)).toBe(expected(rel, 1));
  });

  it('keeps the rows when room is reserved, and grows past it', () => {
    const rel = new Relation(2);
    for (let i = 0; i < 10; i++) rel.append([i, i * 2]);
    rel.reserve(1000);
    for (let i = 10; i < 2000; i++) rel.append([i, i * 2]);
    expect(rel.size).toBe(2000);
    for (let i = 0; i < 2000; i += 97) expect(rel.tuple(i)).toEqual([i, i * 2]);
    expect(rel.find([1234, 2468])).toBe(1234);
  });
});
