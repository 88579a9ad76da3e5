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
import type { LiteralShape, RowEstimate, RuleShape } from './plan.js';
import { rowsOf } from './plan.js';
import { greedyOrder, linkedGroups } from '../datalog/plan.js';

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
