/**
 * The joint proof's queries on one growing encoding (docs/mutex.md, "Proofs that finish inside the
 * budget", det16). ground-joint.ts asked each active claim on its own cone, encoded anew for every
 * query. On chineseCheckers4 those cones are nearly the whole game (137 fluents, about 400,000
 * clause literals each), and encoding one per exclusion took the joint pass past its budget, at a
 * point that moved with the machine's load. Here one encoding (cone-grow.ts) takes on each query's
 * cone; every claim assumed is added, at the first query that assumes it (and again when the cone
 * has grown since), behind a selector variable (its clauses hold only when the selector is true),
 * and each query selects the claims proven or active now; a claim's goal ("two members next", ...)
 * is made at its first query. Another claim's unselected clauses and unassumed goal constrain
 * nothing, and what the search learned stays valid for the next query (learned clauses follow from
 * the clauses alone, selectors and goals being free variables), so a query's formula is its own
 * cone's, as ground-joint.ts built it, with more of the game's completion beside it: sound, and
 * never weaker.
 */
import type { RuleIndex } from './encode.js';
import { atLeastTwo, atMostOne } from './encode.js';
import { GrowingCone } from './cone-grow.js';
import type { MutexView } from './view.js';

/** A claim of the joint proof: at most one, at least one, or the first member only with the second. */
interface JointClaimLike {
  readonly kind: 'amo' | 'alo' | 'imp';
  readonly members: readonly number[];
}

/** One query's answer: with a model (sat), the current state's true fluents of the encoding and its fluents; the work since the last query. */
interface KeptAnswer {
  readonly answer: 'sat' | 'unsat' | 'unknown';
  readonly work: number;
  readonly now: readonly number[];
  readonly cone: readonly number[];
}

/**
 * Clause literals the growing encoding may reach; past it, the joint proof encodes each query's
 * cone anew, as before (`undefined` from the ask: a game of large cones keeps the memory it had).
 */
const MAX_LITERALS = 6_000_000;

/**
 * The encoding may grow to this many times its size after the first query; past it the claims'
 * cones are mostly disjoint, and every query (and every claim's constraints, added again each time
 * the cone grows) would pay for all of them: the rest are encoded anew, as before. amazonsTorus_10x10's
 * batch of 100 square groups, each cone a few squares: one growing encoding took 48 queries to the
 * budget with none proven, against 100 queries and 2.4 s on cones encoded anew. Counted in literals,
 * not time, so the choice is the same run to run.
 */
const MAX_GROWTH = 4;

/** Asks claim `i` of `claims` with the claims `state` marks (1 proven, 2 active) assumed; undefined once the encoding is too large. */
export type JointAsk = (i: number, state: readonly number[], maxConflicts: number, passed: () => boolean) => KeptAnswer | undefined;

/**
 * The joint proof's queries on one growing encoding; `stop` is asked per atom and rule encoded,
 * `fits` of the atoms a query adds to it (cone-grow.ts). Also the queries of prove.ts' larger
 * batches, the claims it assumes marked in `state`.
 */
export function jointCones(view: MutexView, index: RuleIndex, claims: readonly JointClaimLike[], stop: () => boolean, fits?: (atoms: readonly number[]) => boolean): JointAsk {
  const cone = new GrowingCone(view, index, stop);
  const { solver } = cone;
  // Per claim: its selector (0: it adds no clause) and the cone's fluent count when it was added.
  const selector = new Map<number, { readonly s: number; readonly size: number }>();
  const goals = new Map<number, readonly number[]>();
  let spent = 0;
  let first = 0;
  const now = (f: number): number => cone.atom(view.fluents[f]!.trueAtom);
  const select = (j: number): number => {
    const had = selector.get(j);
    if (had !== undefined && had.size === cone.fluents.length) return had.s;
    const c = claims[j]!;
    const members = c.members.filter((f) => now(f) !== 0);
    let s = 0;
    if (c.kind === 'amo' && members.length >= 2) atMostOne(solver, members.map(now), (s = solver.newVar()));
    else if (c.kind === 'alo' && members.length === c.members.length) solver.addClause([-(s = solver.newVar()), ...members.map(now)]);
    else if (c.kind === 'imp' && members.length === 2) solver.addClause([-(s = solver.newVar()), -now(c.members[0]!), now(c.members[1]!)]);
    selector.set(j, { s, size: cone.fluents.length });
    return s;
  };
  return (i, state, maxConflicts, passed) => {
    if (solver.literalCount > MAX_LITERALS || (first > 0 && solver.literalCount > MAX_GROWTH * first)) return undefined;
    const claim = claims[i]!;
    const nexts = claim.members.map((f) => view.fluents[f]!.nextAtom);
    cone.add(nexts, claim.kind === 'alo', fits);
    const selected: number[] = [];
    state.forEach((v, j) => {
      if (v === 0) return;
      const s = select(j);
      if (s > 0) selected.push(s);
    });
    let goal = goals.get(i);
    if (goal === undefined) {
      const next = nexts.filter((a) => a >= 0).map((a) => cone.atom(a));
      goal = claim.kind === 'amo' ? [atLeastTwo(solver, next)]
        : claim.kind === 'imp' ? [cone.atom(nexts[0]!), ...(nexts[1]! < 0 ? [] : [-cone.atom(nexts[1]!)])] : next.map((v) => -v);
      goals.set(i, goal);
    }
    if (first === 0) first = solver.literalCount;
    const answer = solver.solve([...selected, ...goal], maxConflicts, passed);
    const total = solver.literalCount + solver.visitCount;
    const work = total - spent;
    spent = total;
    const on = answer === 'sat' ? cone.fluents.filter((f) => solver.value(now(f))) : [];
    return { answer, work, now: on, cone: [...cone.fluents] };
  };
}
