/**
 * Head-first plans for the superset stage: bind the head, then only test the rest for
 * existence. After the delta literal (if any), the other positive literals fall into parts
 * linked through variables that are neither bound nor in the head. A part whose head
 * variables the other parts bind anyway decides nothing but whether some binding exists, so
 * it can wait until the head is bound, where it runs under `once` and, in a later round,
 * after the check that the head is new:
 *
 *   legal_speed(P, NX, NY) <= velx(P, DX), pmone(DX, NX), vely(P, DY), pmone(DY, NY),
 *                             posx(P, X), add(X, NX, X1), track(X1, Y1), add(Y, NY, Y1), posy(P, Y)
 *
 * binds P, NX, NY by the velocities alone and asks the track once per new head. The greedy
 * order (cheapest literal next) takes `add` and `track` first instead, and enumerates every
 * position on the track before it reaches the velocities: racer4's relaxed game gave 5.0M
 * answers for 21,000 moves in 42 s with it.
 */
import type { Estimates, LiteralShape, PlannedClause, RowEstimate, RuleShape } from './plan.js';
import { orderBody, planCost, planGoals, rowsOf } from './plan.js';
import { bindingsCap } from './project.js';
import type { PlannedGoal } from './planned.js';
import { greedyOrder, linkedGroups } from '../datalog/plan.js';
import { collectVars } from '../gdl/terms.js';
import { variantName } from './clauses.js';

/**
 * The parts to run last (each a list of positive literals), in the order to run them; empty
 * when every part binds a head variable no other part binds. A part is deferred when the
 * parts kept before the head bind all its head variables; the costliest parts are tried
 * first. Parts without a head variable are left to the ordinary order (a cheap filter is best
 * run early).
 */
export function deferredParts(shape: RuleShape, delta: LiteralShape | undefined, estimate: RowEstimate, bound0: ReadonlySet<string> = new Set()): LiteralShape[][] {
  const bound = new Set([...bound0, ...(delta?.vars ?? [])]);
  const parts = linkedParts(shape.positives.filter((l) => l !== delta), (v) => bound.has(v) || shape.headVars.has(v));
  const headVars = (p: readonly LiteralShape[]): string[] => [...new Set(p.flatMap((l) => l.vars))].filter((v) => shape.headVars.has(v) && !bound.has(v));
  const candidates = parts.filter((p) => headVars(p).length > 0).map((p) => ({ p, cost: partCost(p, bound, estimate) }));
  candidates.sort((a, b) => b.cost - a.cost);
  const deferred = new Set<readonly LiteralShape[]>();
  for (const { p } of candidates) {
    const others = new Set(parts.filter((q) => q !== p && !deferred.has(q)).flatMap((q) => q.flatMap((l) => l.vars)));
    if (headVars(p).every((v) => others.has(v))) deferred.add(p);
  }
  return candidates.filter((c) => deferred.has(c.p)).map((c) => [...c.p]).reverse();
}

/** `literals` grouped by shared variables that `ignore` does not exclude. */
function linkedParts(literals: readonly LiteralShape[], ignore: (v: string) => boolean): LiteralShape[][] {
  return linkedGroups(literals.map((l) => l.vars), ignore).map((g) => g.map((i) => literals[i]!));
}

/** Estimated answers of a part joined alone in the project's greedy order, given `bound0`. */
function partCost(part: readonly LiteralShape[], bound0: ReadonlySet<string>, estimate: RowEstimate): number {
  const bound = new Set(bound0);
  const rows = (l: LiteralShape): number => rowsOf(l, bound, false, estimate)(0);
  let states = 1;
  greedyOrder(part, bound, rows, (l) => {
    states *= Math.max(1, rows(l));
    for (const v of l.vars) bound.add(v);
  });
  return states;
}

/**
 * The head-first plan `plan` of delta variant `deltaAt` with the delta literal moved into the
 * deferred parts that read its own variables (those no other literal outside the deferred parts
 * and not the head reads), run as one part after it, and the run started instead from the
 * distinct tuples of the delta's other arguments (a projection of the delta table, every tuple
 * of this round's delta). Corpus chess's block-the-threat rules have two such parts, the
 * threat's cell and the king's (`blocks_rook_threat ?x ?y ?tx ?ty ?kx ?ky`). Chess's
 * king-in-check legal rules (the 2006 scramblings, lines 56-57 of GERMANY) have the delta
 * `part2(?player, ?kx, ?ky)` (the king's cell): head first enumerates every move of the player
 * once per new king cell, 25 times a round, each time testing the cell's line; here the moves
 * are enumerated once per player, and the lines of the new king cells are tried, under `once`,
 * for the moves that are new. Undefined when the rule has no such shape.
 *
 * The same heads: the body is the same conjunction, with the existential quantifier over the
 * delta's own variables moved inward to the only part that reads them (the part is
 * existential, under `once`, and binds nothing read after it). Never more join states: the
 * enumeration before the head is bound runs once per distinct tuple instead of once per delta
 * fact, and per head the part tries the delta's facts in turn, each followed by what the head
 * first plan ran for that fact, stopping at the first success (with several parts merged, their
 * joint solutions, not the sum of each part's: the same where, as in chess, each part is a
 * fully bound test). Its estimate is the lower of `plan`'s and its own.
 */
export function deltaDeferred(id: number, shape: RuleShape, deltaAt: number, deferred: readonly (readonly LiteralShape[])[], plan: PlannedClause, estimates: Estimates): PlannedClause | undefined {
  const delta = shape.positives[deltaAt]!;
  const call = delta.read!.delta;
  if (call.kind !== 'call') return undefined;
  const later = new Set(deferred.flat());
  const elsewhere = new Set([...shape.headVars, ...shape.literals.filter((l) => l !== delta && !later.has(l)).flatMap((l) => l.vars)]);
  const own = new Set(delta.vars.filter((v) => !elsewhere.has(v)));
  const parts = deferred.filter((p) => p.some((l) => l.vars.some((v) => own.has(v))));
  if (own.size === 0 || parts.length === 0) return undefined;
  const keep: number[] = [];
  for (let i = 0; i < call.args.length; i++) {
    const a = call.args[i]!;
    const vars = [...collectVars(a, new Set())];
    if (vars.every((v) => !own.has(v))) keep.push(i);
    else if (a.kind !== 'var') return undefined;
  }
  if (keep.length === 0) return undefined;
  const args = keep.map((i) => call.args[i]!);
  const bound0 = new Set(args.flatMap((a) => [...collectVars(a, new Set())]));
  const first: PlannedGoal = { kind: 'call', name: `A|${call.name}|${keep.join('.')}`, args, projects: { base: call.name, args: call.args, keep, all: true } };
  // The delta literal alone, just before the parts that read its own variables, run as one
  // part (the delta links them): read first there, as it was in `plan`.
  const merged = new Set(parts);
  const order = [...deferred.filter((p) => !merged.has(p)), [delta], parts.flat()];
  const body = orderBody(shape, delta, false, estimates.order, bound0, order);
  const { goals, steps } = planGoals(shape, body, delta, true, estimates, bound0, [first]);
  // Its own estimate too: at most `cap` distinct tuples (and never more than the delta's
  // rows), each running the body once; `plan`'s bounds it from above (see above).
  const cap = bindingsCap(shape.positives, [...bound0], estimates);
  const cost = (d: number): number => Math.min(plan.cost(d), Math.min(d, cap) * (1 + planCost(steps, d)));
  return { name: variantName(id), head: shape.rule.head.args, goals, rule: shape.rule, cost };
}
