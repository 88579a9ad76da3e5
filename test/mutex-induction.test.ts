// The lifted proof's induction (src/mutex/lifted-induction.ts, docs/mutex.md "Cost of the lifted
// proof"): what is checked again after a hypothesis leaves, what leaves with it, and what is kept
// when the budget stops the induction. The checks are scripted: each says which claims it took
// equalities from (lifted-core's `use`) and whether it passes.
import { describe, expect, it } from 'vitest';
import type { Hypothesis } from '../src/mutex/candidates.js';
import type { Assumed } from '../src/mutex/lifted-core.js';
import { type InductionTask, induce } from '../src/mutex/lifted-induction.js';

const hyp = (relation: string, input: number[]): Hypothesis => ({ relation, input, output: [], groups: [] });

/** A check: the hypotheses whose claims it takes (when assumed), and whether it passes given those it found. */
interface Script {
  readonly uses: readonly number[];
  readonly passes: (found: readonly number[]) => boolean;
}

/** A task over `hyps` checked by `scripts`, stopping for the budget before check number `budget` (0-based); records the checks made. */
function task(hyps: Hypothesis[], scripts: Script[], budget = Infinity): { task: InductionTask; checks: number[] } {
  const checks: number[] = [];
  const t: InductionTask = {
    hyps,
    keysOf: hyps.map(() => undefined),
    statics: new Map(),
    order: [...hyps.keys()],
    imps: [],
    check: (i: number, assumed: Assumed) => {
      checks.push(i);
      const found = scripts[i]!.uses.filter((j) => {
        const claim = (assumed.get(hyps[j]!.relation) ?? []).find((c) => c.hypothesis === j);
        if (claim !== undefined) assumed.use?.(claim);
        return claim !== undefined;
      });
      return scripts[i]!.passes(found);
    },
    implicationStep: () => true,
    stop: () => (checks.length >= budget ? 'deadline' : undefined),
  };
  return { task: t, checks };
}

describe('the lifted induction', () => {
  it('checks again only what took equalities from a claim that left', () => {
    // 0 passes leaning on 2; 1 passes on its own; 2 fails. 0 is checked again (and fails without 2), 1 is not.
    const hyps = [hyp('a/2', [0]), hyp('b/2', [0]), hyp('c/2', [0])];
    const { task: t, checks } = task(hyps, [
      { uses: [2], passes: (found) => found.includes(2) },
      { uses: [], passes: () => true },
      { uses: [], passes: () => false },
    ]);
    const r = induce(t, [true, true, true], [], true);
    expect(r.outcome).toBe('done');
    expect(r.proven).toEqual([false, true, false]);
    expect(checks).toEqual([0, 1, 2, 0]);
  });

  it('a hypothesis that fails takes the weaker ones of its relation (inputs a subset) with it, unchecked', () => {
    const hyps = [hyp('r/3', [0, 1]), hyp('r/3', [0]), hyp('r/3', [2]), hyp('r/3', [])];
    const { task: t, checks } = task(hyps, [
      { uses: [], passes: () => false },
      { uses: [], passes: () => true },
      { uses: [], passes: () => true },
      { uses: [], passes: () => true },
    ]);
    const r = induce(t, [true, true, true, true], [], true);
    // [0] and [] are subsets of [0, 1]: they leave with it; [2] is not, and is checked.
    expect(r.proven).toEqual([false, false, true, false]);
    expect(checks).toEqual([0, 2]);
  });

  it('when the budget stops it, keeps the checked hypotheses that lean only on kept ones', () => {
    // 0 passes on its own, 1 leans on 2, 2 is never checked: 0 is kept, 1 is not.
    const hyps = [hyp('a/2', [0]), hyp('b/2', [0]), hyp('c/2', [0])];
    const { task: t } = task(hyps, [
      { uses: [], passes: () => true },
      { uses: [2], passes: (found) => found.includes(2) },
      { uses: [], passes: () => true },
    ], 2);
    const r = induce(t, [true, true, true], [], true);
    expect(r.outcome).toBe('deadline');
    expect(r.proven).toEqual([true, false, false]);
  });

  it('fixed hypotheses (an invariant already) are assumed, never checked, and kept when the budget stops it', () => {
    const hyps = [hyp('a/2', [0]), hyp('b/2', [0])];
    const { task: t, checks } = task(hyps, [
      { uses: [], passes: () => false },
      { uses: [0], passes: (found) => found.includes(0) },
    ]);
    const r = induce(t, [true, true], [true, false], true);
    expect(checks).toEqual([1]);
    expect(r.proven).toEqual([true, true]);
  });
});
