/**
 * Staged variants: a body cut in two where variables die, each binding of the survivors once.
 * A body ordered `B₁ … Bₖ | Bₖ₊₁ … Bₙ` binds in its first k literals variables that the
 * rest and the head never read (dead) beside ones they do (live, L):
 *
 *   h(X) <= P(L, D), R(L, X)        with D read by P alone
 *
 * One clause derives each head instance once per binding of D. attritionWar's score rule
 * `(next (whiteScore ?xNext)) <= (true (whiteScore ?x)) (does white (bid ?x1)) (does black
 * (bid ?y1)) (min ?x1 ?y1 ?minBid) (w1 ?score) (sum ?x2 ?minBid ?x) (sum ?x2 ?score ?xNext)`
 * reads the two bids only through their minimum: 101 scores × 101 × 101 bids × 3 gave 1.2M
 * answers for 101 heads, 35 s of its 38 s. Staged, the prefix (scores, bids, minimum) yields
 * its distinct bindings of L = {x, minBid} (at most 101 × 101), the rest runs once per binding.
 *
 * It runs like a projected variant (src/reach/project.ts): the prefix's distinct bindings of L
 * go into a table `T|n` that the rest reads. Unlike the projected plan the cut need not follow
 * the delta literal's existential part: it is any point of the main plan's order where a
 * variable dies, the one estimated cheapest.
 */
import type { Term } from '../gdl/ast.js';
import { NO_POS } from '../gdl/ast.js';
import { type Estimates, type LiteralShape, type RuleShape, orderBody, planGoals } from './plan.js';
import { type ProjectedPlan, bindingsCap, twoQueries } from './project.js';

/**
 * The staged plan of a variant (`deltaAt` null: the one reading full tables), with the live
 * bindings passed in table `table`, cut where it is estimated cheapest for `deltaRows` new
 * facts; undefined where no cut leaves a dead variable with at least two positive literals
 * before it (one alone has no duplicate bindings to remove) and one after. The delta literal
 * stays in the prefix, so the rest reads full tables only. Its `partKey` means nothing: the
 * memo of bindings run is keyed by the variant and the live variables (src/reach/compile.ts).
 */
export function planStaged(shape: RuleShape, deltaAt: number | null, deltaRows: number, table: string, estimates: Estimates): ProjectedPlan | undefined {
  const delta = deltaAt === null ? undefined : shape.positives[deltaAt];
  const body = orderBody(shape, delta, false, estimates.order);
  // after[k]: the variables of the head and of body[k..].
  const after: Set<string>[] = [];
  let acc = new Set(shape.headVars);
  after[body.length] = acc;
  for (let k = body.length - 1; k >= 0; k--) after[k] = acc = new Set([...acc, ...body[k]!.vars]);
  let best: ProjectedPlan | undefined;
  const bound = new Set<string>();
  for (let k = 1; k < body.length; k++) {
    for (const v of body[k - 1]!.vars) bound.add(v);
    // Cut only before a positive literal: a distinct right after the prefix belongs to it.
    if (body[k]!.read === undefined) continue;
    const live = [...bound].filter((v) => after[k]!.has(v)).sort();
    if (live.length === bound.size) continue;
    const plan = planCut(shape, body, k, live, delta, table, estimates);
    if (plan !== undefined && (best === undefined || plan.cost(deltaRows) < best.cost(deltaRows))) best = plan;
  }
  return best;
}

/** The plan cut before `body[k]`, passing the `live` variables. */
function planCut(
  shape: RuleShape, body: readonly LiteralShape[], k: number, live: readonly string[],
  delta: LiteralShape | undefined, table: string, estimates: Estimates,
): ProjectedPlan | undefined {
  const prefix = body.slice(0, k);
  const rest = body.slice(k);
  const prefixPositives = prefix.filter((l) => l.read !== undefined);
  if (prefixPositives.length < 2 || (delta !== undefined && !prefix.includes(delta))) return undefined;
  const liveTerms: Term[] = live.map((name) => ({ kind: 'var', name, pos: NO_POS }));
  const partShape: RuleShape = { rule: shape.rule, headVars: new Set(live), literals: prefix, positives: prefixPositives };
  const p = planGoals(partShape, prefix, delta, false, estimates, new Set(), []);
  const restShape: RuleShape = { ...shape, literals: rest, positives: rest.filter((l) => l.read !== undefined) };
  const bound = new Set(live);
  const r = planGoals(restShape, rest, undefined, delta !== undefined, estimates, bound, [{ kind: 'call', name: table, args: liveTerms }]);
  return twoQueries(shape, p, r, table, live, bindingsCap(prefixPositives, live, estimates), -1);
}
