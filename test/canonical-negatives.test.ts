// canonicalNegatives (src/ground/compact.ts): after pruning drops negative literals, only runs of
// rules with the same head and positive body are sorted again; the result must be canonicalRules'.
import { describe, expect, it } from 'vitest';
import { random } from './support/seeded.js';
import { type CompactRules, canonicalNegatives, canonicalRules } from '../src/ground/compact.js';

type Rule = readonly [number, readonly number[], readonly number[]];

/** Compact rules of `rules` (head, positive body, negative body), in the order given. */
function compact(rules: readonly Rule[]): CompactRules {
  const heads = new Int32Array(rules.length);
  const starts = new Int32Array(rules.length + 1);
  const negAt = new Int32Array(rules.length);
  const lits: number[] = [];
  rules.forEach(([h, pos, neg], i) => {
    heads[i] = h;
    starts[i] = lits.length;
    lits.push(...pos);
    negAt[i] = lits.length;
    lits.push(...neg);
  });
  starts[rules.length] = lits.length;
  return { count: rules.length, heads, starts, negAt, lits: Int32Array.from(lits) };
}

/** The rules of `c` as tuples, to compare. */
function rulesOf(c: CompactRules): Rule[] {
  const out: Rule[] = [];
  for (let i = 0; i < c.count; i++) {
    out.push([c.heads[i]!, [...c.lits.subarray(c.starts[i]!, c.negAt[i]!)], [...c.lits.subarray(c.negAt[i]!, c.starts[i + 1]!)]]);
  }
  return out;
}

/** An ascending set of up to `n` atoms below `atoms`. */
function body(next: () => number, n: number, atoms: number): number[] {
  const set = new Set<number>();
  const size = Math.floor(next() * (n + 1));
  for (let k = 0; k < size; k++) set.add(Math.floor(next() * atoms));
  return [...set].sort((x, y) => x - y);
}

const never = (): void => {};

describe('canonicalNegatives', () => {
  it('equals canonicalRules on canonical rules that lost negative literals (random games)', () => {
    const atoms = 6;
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const made: Rule[] = [];
      for (let i = 0; i < 40; i++) made.push([Math.floor(next() * 3), body(next, 2, atoms), body(next, 3, atoms)]);
      const canonical = canonicalRules(compact(made), atoms, never);
      // Atoms dropped from negative bodies, as pruning drops those over unreachable atoms.
      const gone = new Set(body(next, 3, atoms));
      const pruned = compact(rulesOf(canonical).map(([h, pos, neg]) => [h, pos, neg.filter((a) => !gone.has(a))]));
      expect(rulesOf(canonicalNegatives(pruned, atoms, never))).toEqual(rulesOf(canonicalRules(pruned, atoms, never)));
    }
  });

  it('sorts a run of equal head and positive body by negative body and drops duplicates', () => {
    // Canonical before (not 1) and (not 3) were dropped: [1 2] < [2 3] < [3].
    const pruned = compact([[0, [4], [2]], [0, [4], [2]], [0, [4], []], [0, [5], [2]], [1, [], [0]]]);
    expect(rulesOf(canonicalNegatives(pruned, 6, never))).toEqual([[0, [4], []], [0, [4], [2]], [0, [5], [2]], [1, [], [0]]]);
  });

  it('returns canonical rules themselves, without a copy', () => {
    const rules = compact([[0, [1], [2]], [0, [1], [3]], [1, [], []]]);
    expect(canonicalNegatives(rules, 4, never)).toBe(rules);
  });

  it('hands rules not sorted by head and positive body to canonicalRules', () => {
    const unsorted = compact([[1, [], []], [0, [2], []], [0, [1], [3]], [0, [1], [3]]]);
    expect(rulesOf(canonicalNegatives(unsorted, 4, never))).toEqual([[0, [1], [3]], [0, [2], []], [1, [], []]]);
  });
});
