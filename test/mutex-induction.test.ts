// The lifted proof's induction (src/mutex/lifted-induction.ts, docs/mutex.md "Cost of the lifted
// proof"): what is checked again after a hypothesis leaves, what leaves with it, and what is kept
// when the budget stops the induction. The checks are scripted: each says which claims it took
// equalities from (lifted-core's `use`) and whether it passes.
import { describe, expect, it } from 'vitest';
import { NO_POS, type Term, mkAtom, mkConst, mkFn } from '../src/gdl/ast.js';
import type { Hypothesis } from '../src/mutex/candidates.js';
import type { Assumed } from '../src/mutex/lifted-core.js';
import { sampledWorth } from '../src/mutex/find-proofs.js';
import { checkOrder } from '../src/mutex/lifted-check-order.js';
import { type InductionTask, heaviestFirst, induce, occupiedAlone } from '../src/mutex/lifted-induction.js';
import type { NormalRule } from '../src/normalize/types.js';

const hyp = (relation: string, input: number[], arity = 0): Hypothesis => ({ relation, input, output: [...Array(arity).keys()].filter((p) => !input.includes(p)), groups: [] });

/** A `next` rule writing `(name args...)`, args "?x" variables, others constants (no body: only heads are read here). */
const nextRule = (name: string, args: string[]): NormalRule => {
  const terms: Term[] = args.map((a) => (a.startsWith('?') ? { kind: 'var', name: a, pos: NO_POS } : mkConst(a)));
  return { head: mkAtom('next', [mkFn(name, terms)]), body: [], pos: NO_POS };
};

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
    spent: () => checks.length >= budget,
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

  it('with weights, the relation worth most is checked first, its hypotheses larger inputs first; a budget cut keeps it', () => {
    // chess under lazy axioms: `check` (few rules, rarely true) came before `cell` (many rules,
    // a piece or blank on every square) and took the budget (docs/mutex.md, chess30).
    const hyps = [hyp('check/4', []), hyp('cell/3', [0, 1]), hyp('check/4', [0, 2, 3]), hyp('check/4', [0])];
    const rules = (n: number): NormalRule[] => Array.from({ length: n }, () => nextRule('r', ['?x']));
    const byRelation = new Map([['check/4', rules(8)], ['cell/3', rules(30)]]);
    const keysOf = hyps.map(() => undefined);
    expect(checkOrder(hyps, keysOf, byRelation)).toEqual([2, 3, 0, 1]);
    // check on no input: one group of 640 members, true in 1 state of 100; cell: 64 groups of 13, every state.
    const cellGroups = Array.from({ length: 64 }, (_, k) => Array.from({ length: 13 }, (_, m) => 1000 + 13 * k + m));
    const states = Array.from({ length: 100 }, (_, n) => [...cellGroups.map((g) => g[0]!), ...(n === 0 ? [0] : [])]);
    const { weights, everyState } = sampledWorth([[Array.from({ length: 640 }, (_, f) => f)], cellGroups, [[0, 1]], [[0, 1, 2]]], states);
    expect(everyState).toEqual([false, true, false, false]);
    expect(weights[1]).toBeGreaterThan(weights[0]!);
    const order = checkOrder(hyps, keysOf, byRelation, weights);
    expect(order).toEqual([1, 2, 3, 0]);
    // The budget allows one check: in this order it proves `cell`.
    const { task: t } = task(hyps, hyps.map((h) => ({ uses: [], passes: () => h.relation === 'cell/3' })), 1);
    const r = induce({ ...t, order }, [true, true, true, true], [], false);
    expect(r.outcome).toBe('deadline');
    expect(r.proven).toEqual([false, true, false, false]);
  });

  it('with the sample\'s worth, the claims every sampled state occupied are proven alone first, not leaning on a rare claim that fails', () => {
    // cell passes only assuming control's claim (taking it), and takes check's when there; check fails; the budget allows four checks.
    const hyps = [hyp('cell/3', [0, 1]), hyp('check/4', [0, 2, 3]), hyp('control/1', []), hyp('pawn/2', [0])];
    const keysOf = hyps.map(() => undefined);
    const worth = { weights: [576, 3, 0, 1], everyState: [true, false, true, false] };
    const scripts: Script[] = [
      { uses: [1, 2], passes: (found) => found.includes(2) },
      { uses: [], passes: () => false },
      { uses: [], passes: () => true },
      { uses: [], passes: () => true },
    ];
    // All together: cell took check's claim, check left, cell waits to be checked again when the budget stops it.
    const together = task(hyps, scripts, 4);
    const r = induce({ ...together.task, order: [0, 1, 2, 3] }, [true, true, true, true], [], false);
    expect(r.outcome).toBe('deadline');
    expect(r.proven).toEqual([false, false, true, true]);
    const alone = occupiedAlone([true, true, true, true], keysOf, worth);
    expect(alone).toEqual([true, false, true, false]);
    const first = task(hyps, scripts, 4);
    const a = induce({ ...first.task, order: [0, 1, 2, 3] }, alone!, [], false);
    expect(a.proven).toEqual([true, false, true, false]);
    const rest = induce({ ...first.task, order: [0, 1, 2, 3] }, [true, true, true, true], a.proven, false);
    expect(rest.proven).toEqual([true, false, true, true]);
    // Without worth, or when every active claim is occupied in every state, nothing is proven alone first.
    expect(occupiedAlone([true, true, true, true], keysOf, undefined)).toBeUndefined();
    expect(occupiedAlone([true, false, true, false], keysOf, worth)).toBeUndefined();
  });

  it('the partial claim worth more than the rest together is induced alone first: a budget cut after it keeps it', () => {
    // snakeAssemblit (docs/mutex.md, margin31): `cell` [2] on two keys passes leaning on `cell` [0, 2]
    // (taking it) when there; [0, 2] and `marked` fail; `at` on every key is proven already (fixed).
    const hyps = [hyp('at/3', [0]), hyp('cell/3', [0, 2]), hyp('marked/2', [0]), hyp('cell/3', [2])];
    const scripts: Script[] = [
      { uses: [], passes: () => true },
      { uses: [], passes: () => false },
      { uses: [], passes: () => false },
      { uses: [1], passes: () => true },
    ];
    const fixed = [true, false, false, false];
    const active = [true, true, true, true];
    const keyed = (t: InductionTask): InductionTask => ({ ...t, keysOf: [undefined, [[mkConst('1')]], [[mkConst('1')]], [[mkConst('red')], [mkConst('blue')]]], order: [3, 1, 2, 0] });
    // All together, the budget allowing three checks: [2] took [0, 2]'s claim, which left; [2] waits to be checked again.
    const together = task(hyps, scripts, 3);
    const r = induce(keyed(together.task), active, fixed, true);
    expect(r.outcome).toBe('deadline');
    expect(r.proven).toEqual([true, false, false, false]);
    // [2] alone first (its weight is more than the others' together), then the rest with it fixed, within the same three checks.
    const weights = [50, 200, 10, 5000];
    const lone = task(hyps, scripts, 3);
    const a = heaviestFirst(keyed(lone.task), active, fixed, weights);
    expect(a?.proven).toEqual([true, false, false, true]);
    const rest = induce(keyed(lone.task), active, a!.proven, true);
    expect(rest.outcome).toBe('done');
    expect(rest.proven).toEqual([true, false, false, true]);
    expect(lone.checks).toEqual([3, 1, 2]);
    // Not when it does not outweigh the rest, nor without weights: nothing is checked.
    const none = task(hyps, scripts, 3);
    expect(heaviestFirst(keyed(none.task), active, fixed, [50, 3000, 10, 2990])).toBeUndefined();
    expect(heaviestFirst(keyed(none.task), active, fixed, undefined)).toBeUndefined();
    // Nor when it is the only claim open (nothing to lean on): the induction over all checks it anyway.
    expect(heaviestFirst(keyed(none.task), [true, false, false, true], fixed, weights)).toBeUndefined();
    // Nor when it outweighs the rest but is worth few bits (the checkers family's rare partial claims).
    expect(heaviestFirst(keyed(none.task), active, fixed, [0, 0, 0, 1])).toBeUndefined();
    expect(none.checks).toEqual([]);
  });

  it('with weights, of a relation\'s hypotheses on as many inputs, the one whose outputs its next rules write as constants goes first', () => {
    // chess's `check ?player ?type ?x ?y`: the type a constant in every head, x and y variables.
    // [0,1,2] and [0,1,3] are false and took 1.3 processor seconds before [0,2,3], which the
    // budget then cut (docs/mutex.md, samp31).
    const hyps = [hyp('check/4', [0, 1, 2], 4), hyp('check/4', [0, 1, 3], 4), hyp('check/4', [0, 2, 3], 4), hyp('check/4', [0, 1], 4)];
    const byRelation = new Map([['check/4', ['pawn', 'knight', 'rook', 'rook'].map((t) => nextRule('check', ['?player', t, '?x', '?y']))]]);
    const keysOf = hyps.map(() => undefined);
    expect(checkOrder(hyps, keysOf, byRelation, [1, 1, 1, 1])).toEqual([2, 0, 1, 3]);
    // Larger inputs still first, and without weights (eager games) the order of before.
    expect(checkOrder(hyps, keysOf, byRelation)).toEqual([0, 1, 2, 3]);
    // The budget allows one check: in this order it proves the true one.
    const { task: t } = task(hyps, hyps.map((_, i) => ({ uses: [], passes: () => i === 2 })), 1);
    const r = induce({ ...t, order: checkOrder(hyps, keysOf, byRelation, [1, 1, 1, 1]) }, [true, true, true, true], [], false);
    expect(r.proven).toEqual([false, false, true, false]);
  });
});
