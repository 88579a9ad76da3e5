/**
 * A component's first round, estimated before any of its rules runs (issue 33). The check of a
 * single rule (evaluate.ts, `checkEstimate`) refuses a rule whose join alone is estimated far past
 * what is left of its budget; a relation written as many rules, each under that threshold, passed
 * it rule by rule and was enumerated up to the budget instead: laikLee_hex's static `isList` has
 * one rule per list length, `(isList (list ?e1 ... (list ?eN nil)))` over N `le` atoms, and its
 * fifth rule alone (about 10^7 atoms) ran for 18 s before the atom limit stopped it, unnamed by
 * any estimate. Here the rules of the component that read no relation of the component (the
 * whole first round: their stores are complete) are summed, per budget, with the same margin:
 *
 *   refuse when  Σ estimate(rule) > ESTIMATE_MARGIN × (what is left of the budget)
 *
 * Components of output keywords (`legal`, `next`, ...) are left to the rule's own checks: their
 * rules are split, rewritten as frame rules or made lazy one by one, by position.
 */
import { formatEstimate, relationLimitError } from '../gdl/diagnostics.js';
import { isOutputKeyword } from '../gdl/keywords.js';
import type { JoinRule } from './compile.js';
import { type Context, ESTIMATE_MARGIN, ruleEstimate } from './evaluate.js';

/** One budget's sum: the estimate of its rules and the largest of them. */
interface Sum {
  total: number;
  count: number;
  largest: JoinRule | undefined;
  largestEstimate: number;
}

/**
 * Throws the limit error of the budget (ground atoms for static relations, ground rules for the
 * others) that the first round of the component with relations `rels` would pass, estimated
 * before enumerating; names the relation, the rule with the largest estimate and the sum.
 */
export function checkComponentEstimate(ctx: Context, rules: readonly JoinRule[], rels: ReadonlySet<string>): void {
  if (rules.length < 2 || [...rels].some((r) => isOutputKeyword(r))) return;
  const atoms: Sum = { total: 0, count: 0, largest: undefined, largestEstimate: 0 };
  const ground: Sum = { total: 0, count: 0, largest: undefined, largestEstimate: 0 };
  for (const rule of rules) {
    if (rule.positives.some((p) => rels.has(p.rel))) continue;
    const estimate = ruleEstimate(ctx, rule);
    const sum = ctx.statics.has(rule.head.rel) ? atoms : ground;
    sum.total += estimate;
    sum.count++;
    if (estimate >= sum.largestEstimate) {
      sum.largest = rule;
      sum.largestEstimate = estimate;
    }
  }
  refuse(ctx, atoms, ctx.limits.maxAtoms - ctx.counters.atoms, `ground atoms (limit ${ctx.limits.maxAtoms})`, 'ground-atoms');
  refuse(ctx, ground, ctx.limits.maxRules - ctx.rules.count, `ground rules (limit ${ctx.limits.maxRules})`, 'rules');
}

function refuse(ctx: Context, sum: Sum, left: number, what: string, kind: 'ground-atoms' | 'rules'): void {
  const rule = sum.largest;
  if (rule === undefined || sum.count < 2 || sum.total <= ESTIMATE_MARGIN * Math.max(left, 1)) return;
  const rel = `${rule.head.rel}/${rule.source.head.args.length}`;
  throw relationLimitError(ctx.file, rule.source.pos, rule.head.rel,
    `instantiating the ${sum.count} rules for '${rel}' would make about ${formatEstimate(sum.total)} ${what} (this one about ${formatEstimate(sum.largestEstimate)}), estimated before enumerating`,
    { kind, estimate: sum.total });
}
