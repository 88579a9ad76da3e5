/**
 * Projected delta variants: the existential part of a delta literal first, each binding of its
 * shared variables once. The part E of a delta literal is the delta literal and the positive
 * literals linked to it through variables outside the head (`existentialPart`); the rest of
 * the body shares only head variables S with it. So
 *
 *   h(X) <= E(S, L), R(X)        with L the part's own variables, S ⊆ X
 *
 * runs in two queries: the distinct bindings of S that E has with the new facts, then the
 * rest once per binding, reading them from a table `T|n`. A plan that runs E and R in one
 * clause derives every head instance once per binding of L: chess's legal rules read the
 * king's cell beside the moving piece's, and in the relaxed game (without the negated threat
 * test that used it) every king cell multiplied every legal move, 1.9M answers for 7,622
 * moves. Bindings of S already run in an earlier round are skipped: their heads were derived
 * with the rest as it was then, and what the rest gained since is joined by the rest's own
 * delta variants, which read E's full tables.
 */
import type { Term } from '../gdl/ast.js';
import { NO_POS } from '../gdl/ast.js';
import {
  type CostStep, type Estimates, type LiteralShape, type PlannedClause, type RuleShape,
  existentialPart, orderBody, planCost, planGoals,
} from './plan.js';
import type { PlannedGoal } from './planned.js';

/** The two clauses of a projected variant and the table between them. */
export interface ProjectedPlan {
  /** `part(S...) :- E`, the delta literal first: the bindings of S (with duplicates). */
  readonly part: PlannedClause;
  /** `rest(Head...) :- table(S...), R`. */
  readonly rest: PlannedClause;
  /** The table of distinct S bindings the rest reads (filled, used and emptied per call). */
  readonly table: string;
  /** The variables S, in the order of the table's arguments. */
  readonly shared: readonly string[];
  /** The part's first positive literal: the part's delta variants share the memo of bindings run. */
  readonly partKey: number;
  /** Estimated states for `deltaRows` new facts. */
  readonly cost: (deltaRows: number) => number;
}

/**
 * The projected plan of delta variant `deltaAt`, with the distinct bindings passed in table
 * `table`; undefined where it cannot help: the part has no variables of its own (no
 * duplicates to remove), the rest is empty, or a `distinct` links the part's own variables
 * to the rest's.
 */
export function planProjected(shape: RuleShape, deltaAt: number, table: string, estimates: Estimates): ProjectedPlan | undefined {
  const delta = shape.positives[deltaAt]!;
  const part = existentialPart(shape, delta);
  const partVars = new Set([...part].flatMap((l) => l.vars));
  const own = [...partVars].filter((v) => !shape.headVars.has(v));
  const restPositives = shape.positives.filter((l) => !part.has(l));
  if (own.length === 0 || restPositives.length === 0) return undefined;
  const distincts = shape.literals.filter((l) => l.read === undefined);
  const inPart = distincts.filter((l) => l.vars.every((v) => partVars.has(v)));
  if (distincts.some((l) => !inPart.includes(l) && l.vars.some((v) => own.includes(v)))) return undefined;
  const shared = [...partVars].filter((v) => shape.headVars.has(v)).sort();
  const sharedTerms: Term[] = shared.map((name) => ({ kind: 'var', name, pos: NO_POS }));
  const partPositives = shape.positives.filter((l) => part.has(l));

  const partShape: RuleShape = { rule: shape.rule, headVars: new Set(shared), literals: [...partPositives, ...inPart], positives: partPositives };
  const partBody = orderBody(partShape, delta, false, estimates.order);
  const p = planGoals(partShape, partBody, delta, false, estimates, new Set(), []);

  const restShape: RuleShape = { ...shape, literals: shape.literals.filter((l) => !part.has(l) && !inPart.includes(l)), positives: restPositives };
  const bound = new Set(shared);
  const restBody = orderBody(restShape, undefined, false, estimates.order, bound);
  const r = planGoals(restShape, restBody, undefined, true, estimates, bound, [{ kind: 'call', name: table, args: sharedTerms }]);

  return twoQueries(shape, p, r, table, shared, bindingsCap(partPositives, shared, estimates), shape.positives.findIndex((l) => part.has(l)));
}

/** One planned body: its goals and their cost steps (what `planGoals` returns). */
type PlannedBody = { readonly goals: PlannedGoal[]; readonly steps: CostStep[] };

/**
 * The two clauses of a split body, `part(S...) :- p` and `rest(Head...) :- table(S...), r`
 * (the projected and the staged plans), costed as the part's states, at most `cap` distinct
 * bindings of S, each running the rest once.
 */
export function twoQueries(shape: RuleShape, p: PlannedBody, r: PlannedBody, table: string, shared: readonly string[], cap: number, partKey: number): ProjectedPlan {
  const sharedTerms: Term[] = shared.map((name) => ({ kind: 'var', name, pos: NO_POS }));
  const cost = (d: number): number => planCost(p.steps, d) + Math.min(states(p.steps, d), cap) * (1 + planCost(r.steps, 0));
  return {
    part: { name: '', head: sharedTerms, goals: p.goals, rule: shape.rule, cost },
    rest: { name: '', head: shape.rule.head.args, goals: r.goals, rule: shape.rule, cost },
    table,
    shared,
    partKey,
    cost,
  };
}

/** States at the end of a plan's steps (a once group counts as one). */
function states(steps: readonly CostStep[], d: number): number {
  let n = 1;
  for (const s of steps) if (!s.once) n *= s.rows(d);
  return n;
}

/**
 * At most how many distinct bindings of `shared` there are: per variable, the fewest distinct
 * values of a table argument it fills, multiplied (Infinity when a variable fills none).
 */
export function bindingsCap(positives: readonly LiteralShape[], shared: readonly string[], estimates: Estimates): number {
  let cap = 1;
  for (const v of shared) {
    let fewest = Infinity;
    for (const l of positives) {
      const r = l.read!;
      if (r.table === undefined) continue;
      r.args.forEach((a, i) => {
        if (a.kind !== 'var' || a.name !== v) return;
        const all = estimates.cost(r.relKey, r.table, r.args.map(() => false));
        const per = estimates.cost(r.relKey, r.table, r.args.map((_, k) => k === i));
        fewest = Math.min(fewest, per > 0 ? all / per : all);
      });
    }
    cap *= fewest;
  }
  return cap;
}
