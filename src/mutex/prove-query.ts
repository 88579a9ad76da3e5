/**
 * The queries of the inductive proof (prove.ts): how one claim's question is put to the SAT
 * encoding of a transition. A claim's cone is encoded under the stage's budget (a cone the budget
 * left cannot pay for is refused), the claims proven so far are assumed of its current state,
 * and the solver is asked whether the successor can violate the claim ({@link canViolate}), or,
 * to explain a failure, which member pairs it cannot rule out ({@link unrefuted}); a large batch
 * asks on one growing encoding instead ({@link growingAsk}). What the answers mean for the proof,
 * batches and the fixpoint, is prove.ts'; nothing here decides which claim is proven.
 */
import type { Deadline } from '../deadline.js';
import { affordable } from './cone-cost.js';
import { ConeTooLarge, type ConeEncoding, EncodingStopped, type RuleIndex, atLeastTwo, atMostOne, encodeCone, queryCone } from './encode.js';
import { type JointAsk, jointCones } from './joint-cones.js';
import { type FailingModel, type FailingModels, assumes, failingModel } from './prove-models.js';
import type { MutexView } from './view.js';

/** A claim to prove: at most one (`amo`) or at least one (`alo`) member true, always. */
export interface Claim {
  readonly kind: 'amo' | 'alo';
  /** Claims of one batch are proven together (the lead's choice: one batch per hypothesis). */
  readonly batch: number;
  /** Fluent indexes. */
  readonly members: readonly number[];
}

/** Limits of the proof. */
export interface ProofLimits {
  /** The stage's time budget: once passed, the proof stops and keeps what it has proven. */
  readonly deadline: Deadline;
  /** Conflicts one SAT query may take before it counts as failed. */
  readonly maxConflicts: number;
  /** Pair queries spent explaining each failed AMO claim. */
  readonly maxPairQueries: number;
  /** Work (clause literals built plus clause visits) after which no further batch is started. */
  readonly maxWork: number;
  /**
   * Per claim, 1 when it is an "at most one" implied by another claim proven on the rules with
   * variables (a coarser group containing its group): not assumed in the queries, whose
   * formula it would not change (default: none).
   */
  readonly implied?: Uint8Array;
  /** Estimated cone literals encoded per second at most (cone-cost.ts; default its constant): a cone the budget left cannot pay for is refused. */
  readonly coneRate?: number;
  /**
   * Per claim, 1 when proving it cannot change the chosen encoding (choose.ts, `couldBeChosen`):
   * its batch is asked after the others, which the budget then reaches first (default: none).
   */
  readonly later?: Uint8Array;
}

/**
 * The claims of `active` as constraints on the cone's current state, weakened to the cone. An
 * "at most one" query assumes no "at least one" claim: those proven lifted are active from the
 * start, and assumed there they would change the search of the AMO queries, and so what the
 * work budget reaches (checkers' piece counts); the ground proof never had them there before.
 * A claim with fewer than two members in the cone adds no clause (at most one) and is skipped
 * before any list is made: every claim is walked per query, a million on pancakes88. So is an
 * "at most one" claim marked `implied` (its group lies inside a group of a coarser hypothesis
 * proven for every key, whose claim is assumed: pancakes88's 246 finer splits of one relation).
 */
function assumeInvariants(enc: ConeEncoding, view: MutexView, claims: readonly Claim[], active: readonly boolean[], query: Claim['kind'], limits: ProofLimits): void {
  const inCone = new Uint8Array(view.fluents.length);
  for (const f of enc.fluents) inCone[f] = 1;
  const now = (f: number): number => enc.atom(view.fluents[f]!.trueAtom);
  const look = every(LOOK_STRIDE, () => limits.deadline.passed());
  claims.forEach((c, i) => {
    if (look()) throw new ProofStopped();
    if (!assumes(query, c, i, active, limits.implied)) return;
    let n = 0;
    for (const f of c.members) n += inCone[f]!;
    // At most one of a subset is implied; at least one only holds when no member is missing.
    if (c.kind === 'amo' && n >= 2) atMostOne(enc.solver, c.members.filter((f) => inCone[f] === 1).map(now));
    else if (c.kind === 'alo' && n === c.members.length) enc.solver.addClause(c.members.map(now));
  });
}

/**
 * {@link encodeCone} under the stage's budget: past it, the proof stops with {@link ProofStopped};
 * a cone the budget left cannot pay for (cone-cost.ts) is not encoded ({@link ConeRefused}).
 */
function encode(view: MutexView, index: () => RuleIndex, roots: readonly number[], allMoves: boolean, limits: ProofLimits): ConeEncoding {
  // Inside the guard: building the index looks at the budget too (EncodingStopped).
  return guarded(() => {
    const idx = index();
    return encodeCone(view, idx, roots, allMoves, every(LOOK_STRIDE, () => limits.deadline.passed()), affordable(view, idx, limits.deadline, limits.coneRate));
  });
}

/** The atoms {@link encode} would encode for `roots` (encode.ts' `queryCone`), under the stage's budget. */
export function coneOf(view: MutexView, index: () => RuleIndex, roots: readonly number[], allMoves: boolean, limits: ProofLimits): number[] {
  return guarded(() => queryCone(view, index(), roots, allMoves, every(LOOK_STRIDE, () => limits.deadline.passed())));
}

/** `f()`, an encoding stopped by the budget raised as {@link ProofStopped}, a cone too large as {@link ConeRefused}. */
function guarded<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof EncodingStopped) throw new ProofStopped();
    if (err instanceof ConeTooLarge) throw new ConeRefused();
    throw err;
  }
}

/**
 * Calls of a look made by {@link every} per read of the budget's clock, where one call is an
 * atom encoded or a claim assumed: a read of the processor time costs about a microsecond, an
 * atom's completion more, so the budget is read often (a Deadline's tick reads it per 4096:
 * one look in 4096 atoms of thousands of rules each came 0.7 processor seconds late on blobwars).
 */
const LOOK_STRIDE = 64;

/** A test that asks `passed` once per `stride` calls. */
function every(stride: number, passed: () => boolean): () => boolean {
  let calls = 0;
  return () => ++calls % stride === 0 && passed();
}

/** Raised inside the proof when the time budget has passed; prove.ts' `proveBatch` catches it. */
export class ProofStopped extends Error {}

/** Raised instead of encoding a cone the budget left cannot pay for: its batch is given up, the next one tried. */
export class ConeRefused extends ProofStopped {}

/** Counts the work of the proof: literals of the clauses built and clause visits of the SAT solver. */
export interface Meter {
  queries: number;
  work: number;
}

/** What the proof has found so far: which claims are active, and why the others left. */
export interface ProofState {
  readonly active: boolean[];
  /** Per claim that left S: 'sat' (not inductive) or 'unknown' (undecided within the conflict budget). */
  readonly left: ('sat' | 'unknown' | undefined)[];
  /** Per claim, the model of its last "sat" answer (prove-models.ts). */
  readonly models: FailingModels;
}

/**
 * Whether the successor can violate `claim` from a state satisfying the active claims: 'sat'
 * (it can), 'unsat' (it cannot) or 'unknown' (the conflict budget ran out first).
 */
export function canViolate(
  view: MutexView, index: () => RuleIndex, claims: readonly Claim[], active: readonly boolean[], claim: Claim, limits: ProofLimits, meter: Meter,
  save: (model: FailingModel) => void,
): 'sat' | 'unsat' | 'unknown' {
  const nexts = claim.members.map((f) => view.fluents[f]!.nextAtom);
  // "Some member stays or becomes true" usually rests on every role making some move.
  const enc = encode(view, index, nexts, claim.kind === 'alo', limits);
  assumeInvariants(enc, view, claims, active, claim.kind, limits);
  // A fluent no rule makes true stays false in the successor.
  const next = nexts.filter((a) => a >= 0).map(enc.atom);
  const assumptions = claim.kind === 'amo' ? [atLeastTwo(enc.solver, next)] : next.map((v) => -v);
  const answer = enc.solver.solve(assumptions, limits.maxConflicts, () => limits.deadline.passed());
  if (answer === 'unknown' && limits.deadline.passed()) throw new ProofStopped();
  meter.queries++;
  meter.work += enc.solver.literalCount + enc.solver.visitCount;
  if (answer === 'sat') save(failingModel(enc.fluents, (f) => enc.solver.value(enc.atom(view.fluents[f]!.trueAtom))));
  return answer;
}

/**
 * How many member pairs of a failed AMO claim the proof cannot rule out (up to the query cap):
 * one encoding of the claim's cone, one query per pair under assumptions.
 */
export function unrefuted(
  view: MutexView, index: () => RuleIndex, claims: readonly Claim[], active: readonly boolean[], claim: Claim, limits: ProofLimits, meter: Meter,
): { pairs: number; capped: boolean } {
  const nexts = claim.members.map((f) => view.fluents[f]!.nextAtom);
  const enc = encode(view, index, nexts, false, limits);
  assumeInvariants(enc, view, claims, active, 'amo', limits);
  let pairs = 0;
  let asked = 0;
  let capped = false;
  for (let x = 0; x < nexts.length && !capped; x++) {
    for (let y = x + 1; y < nexts.length; y++) {
      // A member no rule makes true cannot be one of a violating pair.
      if (nexts[x]! < 0 || nexts[y]! < 0) continue;
      if (asked++ >= limits.maxPairQueries) {
        capped = true;
        break;
      }
      meter.queries++;
      const answer = enc.solver.solve([enc.atom(nexts[x]!), enc.atom(nexts[y]!)], limits.maxConflicts, () => limits.deadline.passed());
      if (answer === 'unknown' && limits.deadline.passed()) throw new ProofStopped();
      if (answer !== 'unsat') pairs++;
    }
  }
  meter.work += enc.solver.literalCount + enc.solver.visitCount;
  return { pairs, capped };
}

/** Batches of at least this many claims (and at most {@link GROWN_MAX}) are asked on one growing encoding (joint-cones.ts). */
const GROWN_MIN = 8;
const GROWN_MAX = 512;

/**
 * The queries of a batch of {@link GROWN_MIN} to {@link GROWN_MAX} claims on one growing
 * encoding (joint-cones.ts, cone-grow.ts) made for the batch, with the claims {@link canViolate}
 * assumes assumed; what a query adds to it is refused as {@link encode} refuses a cone. Undefined
 * for other batches, and from a query on once the encoding is too large: asked as before.
 */
export function growingAsk(
  view: MutexView, index: () => RuleIndex, claims: readonly Claim[], st: ProofState, batch: readonly number[], limits: ProofLimits, meter: Meter,
): ((i: number) => 'sat' | 'unsat' | 'unknown' | undefined) | undefined {
  const { active } = st;
  if (batch.length < GROWN_MIN || batch.length > GROWN_MAX) return undefined;
  let ask: JointAsk | undefined;
  const kind = claims[batch[0]!]!.kind;
  const state = claims.map(() => 0);
  return (i) => guarded(() => {
    const idx = index();
    ask ??= jointCones(view, idx, claims, every(LOOK_STRIDE, () => limits.deadline.passed()), affordable(view, idx, limits.deadline, limits.coneRate));
    // As assumeInvariants: an AMO query assumes no ALO claim, and no claim marked implied.
    claims.forEach((c, j) => (state[j] = assumes(kind, c, j, active, limits.implied) ? 1 : 0));
    const r = ask(i, state, limits.maxConflicts, () => limits.deadline.passed());
    if (r === undefined) return undefined;
    if (r.answer === 'unknown' && limits.deadline.passed()) throw new ProofStopped();
    meter.queries++;
    meter.work += r.work;
    if (r.answer === 'sat') st.models.keep(i, { fluents: r.cone, on: r.now });
    return r.answer;
  });
}
