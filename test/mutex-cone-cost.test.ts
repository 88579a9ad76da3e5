// Cones the budget cannot pay for (docs/mutex.md, "Cones the budget cannot pay for"): a query
// whose cone is estimated larger than what is left of the budget could encode is not encoded,
// its batch is given up and the batches after it are still tried.
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { coneLiterals } from '../src/mutex/cone-cost.js';
import { ConeTooLarge, encodeCone, ruleIndex } from '../src/mutex/encode.js';
import { proveClaims } from '../src/mutex/prove.js';
import type { MutexView } from '../src/mutex/view.js';
import { PROOF_LIMITS as limits, PassingAtThirdLook, syntheticFluent } from './support/mutex-budget.js';

/**
 * Four fluents f0..f3 (true atoms 0..3, next atoms 4..7). (next f0) has 1,000 rules, each reading
 * one of (true f2), (true f3); (next f2) has one rule reading (true f0); f1 and f3 are never made
 * true. So "at most one of f0, f1" has a cone of 1,000 rules, "at most one of f2, f3" one of a
 * single rule, and both are inductive.
 */
function twoCones(bigRules = 1000): MutexView {
  const fluent = (i: number): MutexView['fluents'][number] => syntheticFluent(i, i, i === 0 || i === 2 ? 4 + i : -1);
  const big = Array.from({ length: bigRules }, (_, r) => ({ head: 4, pos: [2 + (r % 2)], neg: [] }));
  return { atoms: 8, rules: [...big, { head: 6, pos: [0], neg: [] }], fluents: [0, 1, 2, 3].map(fluent), moves: [], terminal: -1, init: [], opaque: [] };
}

const claims = [
  { kind: 'amo' as const, batch: 0, members: [0, 1] },
  { kind: 'amo' as const, batch: 1, members: [2, 3] },
];

describe('the cost of a cone, before it is encoded', () => {
  it('estimates three literals per body literal and three per rule of the derived atoms', () => {
    const view = twoCones();
    const index = ruleIndex(view);
    expect(coneLiterals(view, index, [4, 2, 3])).toBe(6000);
    expect(coneLiterals(view, index, [6, 0])).toBe(6);
  });

  it('is refused by the encoding when its fits test says so, before any clause is built', () => {
    const view = twoCones();
    expect(() => encodeCone(view, ruleIndex(view), [4], false, () => false, () => false)).toThrow(ConeTooLarge);
    expect(encodeCone(view, ruleIndex(view), [4], false, () => false, () => true).solver.literalCount).toBeGreaterThan(0);
  });
});

describe('the ground proof with a cone it cannot pay for', () => {
  it('proves both claims when the budget can pay for both cones', () => {
    const r = proveClaims(twoCones(), claims, { ...limits, deadline: Deadline.never().within(1000) });
    expect(r.verdicts).toEqual(['proven', 'proven']);
    expect(r.budgetSpent).toBe(false);
  });

  it('gives up the batch of the large cone, still proves the one after it, and counts the budget as reached', () => {
    // 1,000 processor seconds at 0.1 estimated literals a second: 100 literals, between the two cones.
    const r = proveClaims(twoCones(), claims, { ...limits, deadline: Deadline.never().within(1000), coneRate: 0.1 });
    expect(r.verdicts).toEqual(['unproven', 'proven']);
    expect(r.complete).toBe(false);
    expect(r.budgetSpent).toBe(true);
    expect(r.queries).toBe(1);
  });
});

describe('the ground proof when the budget passes while the rule index is built', () => {
  it('stops the proof (claims unproven), not the stage with an error', () => {
    // The third look is the index's first clock read.
    // 5,000 rules: the index reads the clock once per 4,096 rules (Deadline.tick).
    const r = proveClaims(twoCones(5000), claims, { ...limits, deadline: new PassingAtThirdLook(Infinity) });
    expect(r.verdicts).toEqual(['unproven', 'unproven']);
    expect(r.complete).toBe(false);
  });
});
