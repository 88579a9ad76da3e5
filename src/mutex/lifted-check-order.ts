/**
 * The order the lifted induction (lifted-induction.ts) checks its hypotheses in within a round:
 * only an order, what the induction accepts does not depend on it, but a budget cut short keeps
 * what was checked first (docs/mutex.md, "Cost"). Apart from the induction's schedule, which
 * reads the order it is given (`InductionTask.order`).
 */
import type { NormalRule } from '../normalize/types.js';
import { isGround } from '../gdl/terms.js';
import type { Hypothesis } from './candidates.js';
import type { KeysOf } from './lifted-induction.js';

/**
 * The order hypotheses are checked in within a round: with `weights` (per hypothesis, the bits its
 * groups save in the sampled states; lazy axioms, find-proofs.ts), the relations whose best
 * hypothesis saves most first, so that a budget cut short keeps the claims worth most (chess's
 * `cell`, behind 3 to 6 processor seconds of `check` hypotheses); then fewer rules first (cheap, and settled when
 * the budget stops the induction), claims on some keys before claims on every key of a relation
 * (so that those do not lean on them long), larger inputs first (their pairs close more often,
 * a pair open for them is tried first for the smaller ones, and those then leave with them: weaker).
 */
export function checkOrder(hyps: readonly Hypothesis[], keysOf: KeysOf, byRelation: ReadonlyMap<string, readonly NormalRule[]>, weights?: readonly number[]): number[] {
  const rules = (i: number): number => byRelation.get(hyps[i]!.relation)?.length ?? 0;
  const keyed = (i: number): number => (keysOf[i] === undefined ? 0 : 1);
  const heaviest = relationWeights(hyps, weights);
  const weight = (i: number): number => heaviest.get(hyps[i]!.relation) ?? 0;
  // Without weights (eager games) every count is 0: the order of before the weights.
  const written = weights === undefined ? hyps.map(() => 0) : hyps.map((h) => constantOutputs(h, byRelation.get(h.relation) ?? []));
  // With weights (lazy axioms), claims on some keys on fewer inputs first: a claim on more inputs
  // then skips the keys they imply (lifted.ts' keysNotImplied), and no weaker claim leaves with a
  // claim on some keys (weaker). alexChess: one square per piece (54 keys) before per piece and rank (421).
  const inputs = (i: number): number => (weights !== undefined && keyed(i) === 1 ? -hyps[i]!.input.length : hyps[i]!.input.length);
  return [...hyps.keys()].sort((x, y) => weight(y) - weight(x) || rules(x) - rules(y) || keyed(y) - keyed(x) || inputs(y) - inputs(x)
    || written[y]! - written[x]!);
}

/**
 * The `next` rules of `h`'s relation that write a constant (a ground term) at each of its output
 * positions. Among hypotheses of one relation with as many inputs, the one with more is checked
 * first (lazy axioms, {@link checkOrder}): two such rules writing the same constant agree on the
 * output whatever their bodies (a rule paired with itself included), so more of its pairs close
 * at once, where a variable output needs equalities from both bodies. chess's `check` (a piece
 * type per square: the type is a constant in all 8 rules) is true on [0,2,3] and false on [0,1,2]
 * and [0,1,3] (y and x are variables in every head), which took 1.3 processor seconds first and
 * left [0,2,3] to the budget's end (docs/mutex.md, samp31). Only an order: what the induction
 * accepts does not depend on it.
 */
function constantOutputs(h: Hypothesis, rules: readonly NormalRule[]): number {
  return rules.filter((r) => {
    const fluent = r.head.args[0];
    return fluent?.kind === 'fn' && h.output.every((p) => fluent.args[p] !== undefined && isGround(fluent.args[p]!));
  }).length;
}

/**
 * Per relation, the largest weight of its hypotheses (none without weights). A relation's
 * hypotheses stay together in the order, larger inputs first: a failed one takes its weaker
 * kin with it (lifted-induction.ts' weaker), which checking the heaviest hypothesis first (often the one on
 * no input, and false) would not.
 */
function relationWeights(hyps: readonly Hypothesis[], weights: readonly number[] | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (weights === undefined) return out;
  hyps.forEach((h, i) => out.set(h.relation, Math.max(out.get(h.relation) ?? 0, weights[i] ?? 0)));
  return out;
}
