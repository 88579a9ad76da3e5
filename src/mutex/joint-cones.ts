/**
 * The joint proof's queries on one growing encoding (docs/mutex.md, "Proofs that finish inside the
 * budget", det16). ground-joint.ts asked each active claim on its own cone, encoded anew for every
 * query. On chineseCheckers4 those cones are nearly the whole game (137 fluents, about 400,000
 * clause literals each), and encoding one per exclusion took the joint pass past its budget, at a
 * point that moved with the machine's load. Here one encoding (cone-grow.ts) takes on each query's
 * cone; every claim assumed is added, at the first query that assumes it (and, for "at most one",
 * extended by the members a growth of the cone brings), behind a selector variable (its clauses
 * hold only when the selector is true), and each query selects the claims proven or active now; a claim's goal ("two members next", ...)
 * is made at its first query. Another claim's unselected clauses and unassumed goal constrain
 * nothing, and what the search learned stays valid for the next query (learned clauses follow from
 * the clauses alone, selectors and goals being free variables), so a query's formula is its own
 * cone's, as ground-joint.ts built it, with more of the game's completion beside it: sound, and
 * never weaker.
 */
import type { RuleIndex } from './encode.js';
import { atLeastTwo, atMostOne } from './encode.js';
import { GrowingCone } from './cone-grow.js';
import type { SatSolver } from './sat.js';
import type { MutexView } from './view.js';

/** A claim of the joint proof: at most one, at least one, the first member only with the second, or a clause (`positive`: its literals' signs). */
interface JointClaimLike {
  readonly kind: 'amo' | 'alo' | 'imp' | 'clause';
  readonly members: readonly number[];
  readonly positive?: readonly boolean[];
}

/** The assumptions that make a clause false in the successor: a negative literal's fluent next, a positive one's not (none when no rule makes it true). */
function clauseGoal(positive: readonly boolean[], nexts: readonly number[], atom: (a: number) => number): number[] {
  return nexts.flatMap((a, k) => (a < 0 ? [] : [positive[k] ? -atom(a) : atom(a)]));
}

/**
 * The assumptions that make `claim` false in the successor (`nexts`: its members' next atoms, -1
 * for none; `atom`: an atom's variable): two members of a group true, an implication's first member
 * without its second, a clause's every literal false, or no member of an "at least one" true.
 */
export function claimGoal(solver: SatSolver, claim: JointClaimLike, nexts: readonly number[], atom: (a: number) => number): number[] {
  const next = nexts.filter((a) => a >= 0).map(atom);
  return claim.kind === 'amo' ? [atLeastTwo(solver, next)]
    : claim.kind === 'imp' ? [atom(nexts[0]!), ...(nexts[1]! < 0 ? [] : [-atom(nexts[1]!)])]
      : claim.kind === 'clause' ? clauseGoal(claim.positive!, nexts, atom) : next.map((v) => -v);
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
 * cones are mostly disjoint, and every query's search would pay for all of them: the rest are
 * encoded anew, as before. amazonsTorus_10x10's batch of 100 square groups, each cone a few
 * squares: one growing encoding took 48 queries to the budget with none proven, against 100
 * queries and 2.4 s on cones encoded anew. With each claim's constraints added once (not again at
 * each growth) it still took only 52 (tidy17): the search, not the constraints, needs the cap.
 * Counted in literals, not time, so the choice is the same run to run.
 */
const MAX_GROWTH = 4;

/**
 * A claim's constraints in the encoding: its selector (0: none yet), the members they cover and
 * those members' current-state variables, in the order they joined; for "at most one" past six
 * members, `seen`, a variable true (when selected) once a covered member is (0: none made); the
 * cone's fluent count when the claim was last looked at; `whole` once nothing can join.
 */
interface Selected {
  s: number;
  readonly covered: Set<number>;
  readonly vars: number[];
  seen: number;
  size: number;
  whole: boolean;
}

/**
 * Adds the members `fresh` (new to the cone) to an "at most one" claim, behind its selector: the
 * first time it has two members, encode.ts' constraint over them (as each query once made it
 * anew); after that only the clauses the fresh members bring, under the same selector. Up to six
 * members in all, the pairs with a fresh one; past that a chain from `seen` (made once, over the
 * members covered: encode.ts' sequential encoding, which the pairs imply) through the fresh ones.
 */
function growAmo(solver: SatSolver, c: Selected, fresh: readonly number[], now: (f: number) => number): void {
  const add = fresh.map(now);
  fresh.forEach((f) => c.covered.add(f));
  if (c.s === 0) {
    c.vars.push(...add);
    if (c.vars.length >= 2) atMostOne(solver, c.vars, (c.s = solver.newVar()));
    return;
  }
  const g = c.s;
  if (c.seen === 0 && c.vars.length + add.length <= 6) {
    for (const n of add) {
      for (const x of c.vars) solver.addClause([-g, -x, -n]);
      c.vars.push(n);
    }
    return;
  }
  if (c.seen === 0) {
    c.seen = solver.newVar();
    for (const x of c.vars) solver.addClause([-g, -x, c.seen]);
  }
  for (const n of add) {
    const next = solver.newVar();
    solver.addClause([-g, -c.seen, next]);
    solver.addClause([-g, -n, next]);
    solver.addClause([-g, -c.seen, -n]);
    c.seen = next;
  }
}

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
  // Per claim: its selector and what it covers so far (cone-grow's fluents only ever join).
  const selector = new Map<number, Selected>();
  const goals = new Map<number, readonly number[]>();
  let spent = 0;
  let first = 0;
  const now = (f: number): number => cone.atom(view.fluents[f]!.trueAtom);
  const select = (j: number): number => {
    const had = selector.get(j);
    if (had !== undefined && (had.size === cone.fluents.length || had.whole)) return had.s;
    const c = claims[j]!;
    const fresh = c.members.filter((f) => now(f) !== 0 && had?.covered.has(f) !== true);
    const out = had ?? { s: 0, covered: new Set<number>(), vars: [], seen: 0, size: 0, whole: false };
    out.size = cone.fluents.length;
    if (c.kind === 'amo') growAmo(solver, out, fresh, now);
    else if (c.kind === 'alo' && fresh.length === c.members.length) solver.addClause([-(out.s = solver.newVar()), ...fresh.map(now)]);
    else if (c.kind === 'imp' && fresh.length === 2) solver.addClause([-(out.s = solver.newVar()), -now(c.members[0]!), now(c.members[1]!)]);
    else if (c.kind === 'clause' && fresh.length === c.members.length) solver.addClause([-(out.s = solver.newVar()), ...c.members.map((f, k) => (c.positive![k] ? now(f) : -now(f)))]);
    // Nothing more to add: every member covered, or an "at least one", an implication or a
    // clause added (once, when all its members are in the cone).
    out.whole = c.kind === 'amo' ? out.covered.size === c.members.length : out.s !== 0;
    selector.set(j, out);
    return out.s;
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
      goal = claimGoal(solver, claim, nexts, (a) => cone.atom(a));
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
