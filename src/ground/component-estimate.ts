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
 * and, for the ground rules of **plain** rules (no test, no head filter: see {@link isPlain}),
 * with the smaller {@link PLAIN_MARGIN}: alexChess's four `between` rules, about 7.9×10⁶ rules
 * each (2.8×10⁷ in all, 5.7 times the 5×10⁶ left), passed the margin of 20 and the first of them
 * was enumerated for 12-17 processor seconds up to the rule limit.
 *
 * Components of output keywords (`legal`, `next`, ...) are left to the rule's own checks: their
 * rules are split, rewritten as frame rules or made lazy one by one, by position.
 */
import { formatEstimate, relationLimitError } from '../gdl/diagnostics.js';
import { isOutputKeyword } from '../gdl/keywords.js';
import type { JoinRule } from './compile.js';
import { ruleEstimate } from './evaluate.js';
import { type Context, ESTIMATE_MARGIN, rulesMade } from './run-context.js';

/**
 * How far the summed estimate of plain rules may exceed what is left of the ground-rule budget
 * before they are refused unenumerated. The margin of 20 covers what the estimate leaves out
 * (tests, head filters: pancakes88's `base` rule, 416 times over by its distincts); a plain rule
 * has neither, so what is left is the join's own error (rows per key taken as the mean) and
 * ground rules two rules share (attritionWar's `next` rule, plain, made 2.06×10⁶ for an estimate
 * of 1.56×10⁶: under, not over). In the corpus games logged, the largest plain first round
 * besides alexChess's `between` (5.7 times what was left) was chineseCheckers6's `count`, 0.35
 * times (docs/hard-games.md, branch `refuse8`).
 */
const PLAIN_MARGIN = 4;

/** One budget's sum: the estimate of its rules and the largest of them. */
interface Sum {
  total: number;
  count: number;
  largest: JoinRule | undefined;
  largestEstimate: number;
}

const emptySum = (): Sum => ({ total: 0, count: 0, largest: undefined, largestEstimate: 0 });

function add(sum: Sum, rule: JoinRule, estimate: number): void {
  sum.total += estimate;
  sum.count++;
  if (estimate >= sum.largestEstimate) {
    sum.largest = rule;
    sum.largestEstimate = estimate;
  }
}

/**
 * Whether every binding of `rule`'s join is one ground rule of its own, as far as the estimate
 * can tell: no `distinct` and no negated static atom (tests the estimate ignores), no head
 * filter of the supersets and no demanded seed (which drop heads after the join). Its
 * estimate then counts ground rules, not candidates.
 */
function isPlain(ctx: Context, rule: JoinRule): boolean {
  const rel = rule.head.rel;
  return rule.distincts.length === 0 && !rule.negatives.some((n) => ctx.statics.has(n.rel))
    && !ctx.headFilter.has(rel) && ctx.headSeeds?.has(rel) !== true;
}

/**
 * Throws the limit error of the budget (ground atoms for static relations, ground rules for the
 * others) that the first round of the component with relations `rels` would pass, estimated
 * before enumerating; names the relation, the rule with the largest estimate and the sum.
 */
export function checkComponentEstimate(ctx: Context, rules: readonly JoinRule[], rels: ReadonlySet<string>): void {
  if ([...rels].some((r) => isOutputKeyword(r))) return;
  const atoms = emptySum();
  const ground = emptySum();
  const plain = emptySum();
  for (const rule of rules) {
    if (rule.positives.some((p) => rels.has(p.rel))) continue;
    const estimate = ruleEstimate(ctx, rule);
    if (ctx.statics.has(rule.head.rel)) {
      add(atoms, rule, estimate);
      continue;
    }
    add(ground, rule, estimate);
    if (isPlain(ctx, rule)) add(plain, rule, estimate);
  }
  const rulesLeft = ctx.limits.maxRules - rulesMade(ctx);
  const ruleWords = `ground rules (limit ${ctx.limits.maxRules})`;
  refuse(ctx, atoms, ESTIMATE_MARGIN, 2, ctx.limits.maxAtoms - ctx.counters.atoms, `ground atoms (limit ${ctx.limits.maxAtoms})`, 'ground-atoms');
  refuse(ctx, ground, ESTIMATE_MARGIN, 2, rulesLeft, ruleWords, 'rules');
  refuse(ctx, plain, PLAIN_MARGIN, 1, rulesLeft, ruleWords, 'rules');
}

function refuse(ctx: Context, sum: Sum, margin: number, least: number, left: number, what: string, kind: 'ground-atoms' | 'rules'): void {
  const rule = sum.largest;
  if (rule === undefined || sum.count < least || sum.total <= margin * Math.max(left, 1)) return;
  const rel = `${rule.head.rel}/${rule.source.head.args.length}`;
  const rules = sum.count === 1 ? 'this rule' : `the ${sum.count} rules`;
  const largest = sum.count === 1 ? '' : ` (this one about ${formatEstimate(sum.largestEstimate)})`;
  throw relationLimitError(ctx.file, rule.source.pos, rule.head.rel,
    `instantiating ${rules} for '${rel}' would make about ${formatEstimate(sum.total)} ${what}${largest}, estimated before enumerating`,
    { kind, estimate: sum.total });
}
