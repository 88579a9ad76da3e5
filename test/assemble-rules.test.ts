// canonicalFromBuffer (src/ground/assemble-rules.ts): the rule buffer's rules over new atom ids,
// sorted and unique in one copy, must be exactly canonicalRules of the buffer renumbered (the
// two-copy way it replaced), on random buffers with many ties on the sort keys and duplicates.
import { describe, expect, it } from 'vitest';
import { random } from './support/seeded.js';
import { canonicalFromBuffer } from '../src/ground/assemble-rules.js';
import { type CompactRules, canonicalRules } from '../src/ground/compact.js';
import { appendRule, createRuleBuffer, type RuleBuffer } from '../src/ground/rule-buffer.js';

/** Up to `n` atoms below `atoms`, in any order, repeats allowed (the buffer's bodies need not be sorted here). */
function body(next: () => number, n: number, atoms: number): number[] {
  return Array.from({ length: Math.floor(next() * (n + 1)) }, () => Math.floor(next() * atoms));
}

/** `buf`'s rules over `renumber`, bodies sorted without duplicates, in the buffer's order: what canonicalRules sorted. */
function renumbered(buf: RuleBuffer, renumber: Int32Array): CompactRules {
  const heads = new Int32Array(buf.count);
  const starts = new Int32Array(buf.count + 1);
  const negAt = new Int32Array(buf.count);
  const lits: number[] = [];
  const sorted = (ids: number[]): number[] => [...new Set(ids.map((id) => renumber[id]!))].sort((x, y) => x - y);
  for (let i = 0; i < buf.count; i++) {
    const all = [...buf.lits.subarray(buf.starts[i]!, buf.starts[i + 1]!)];
    heads[i] = renumber[buf.heads[i]!]!;
    starts[i] = lits.length;
    lits.push(...sorted(all.filter((l) => (l & 1) === 0).map((l) => l >> 1)));
    negAt[i] = lits.length;
    lits.push(...sorted(all.filter((l) => (l & 1) === 1).map((l) => l >> 1)));
  }
  starts[buf.count] = lits.length;
  return { count: buf.count, heads, starts, negAt, lits: Int32Array.from(lits) };
}

/** The rules of `c` as plain tuples, to compare. */
function rulesOf(c: CompactRules): [number, number[], number[]][] {
  return Array.from({ length: c.count }, (_, i) => [c.heads[i]!, [...c.lits.subarray(c.starts[i]!, c.negAt[i]!)], [...c.lits.subarray(c.negAt[i]!, c.starts[i + 1]!)]]);
}

const never = (): void => {};

describe('canonicalFromBuffer', () => {
  it('equals canonicalRules of the renumbered buffer (random buffers, ties and duplicates)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      // Few atoms and heads: many rules share a head and their first two positive literals.
      const atoms = 3 + Math.floor(next() * 6);
      const renumber = Int32Array.from({ length: atoms }, (_, i) => i);
      for (let i = atoms - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [renumber[i], renumber[j]] = [renumber[j]!, renumber[i]!];
      }
      const buf = createRuleBuffer();
      for (let r = Math.floor(next() * 60); r > 0; r--) {
        const rule: [number, number[], number[]] = [Math.floor(next() * 3), body(next, 5, atoms), body(next, 3, atoms)];
        appendRule(buf, ...rule);
        if (next() < 0.25) appendRule(buf, rule[0], [...rule[1]].reverse(), rule[2]);
      }
      const expected = rulesOf(canonicalRules(renumbered(buf, renumber), atoms, never));
      expect(rulesOf(canonicalFromBuffer(buf, renumber, atoms, never)), `seed ${seed}`).toEqual(expected);
    }
  });

  it('keeps a rule once when the buffer holds it twice, and an empty buffer empty', () => {
    const buf = createRuleBuffer();
    appendRule(buf, 2, [1, 0], [3]);
    appendRule(buf, 2, [0, 1], [3]);
    appendRule(buf, 0, [], []);
    const renumber = Int32Array.from([3, 2, 1, 0]);
    expect(rulesOf(canonicalFromBuffer(buf, renumber, 4, never))).toEqual([[1, [2, 3], [0]], [3, [], []]]);
    expect(canonicalFromBuffer(createRuleBuffer(), renumber, 4, never).count).toBe(0);
  });
});
