/**
 * The inductive proof of candidate groups. A set S of claims ("at most one member of group g is
 * true", "at least one member of g is true") is an invariant of the game when
 *   1. the initial state satisfies every claim of S, and
 *   2. from any non-terminal state satisfying every claim of S, no legal joint move leads to a
 *      state violating a claim of S.
 * Step 2 is asked of the SAT encoding of one transition (encode.ts), one query per claim, with
 * all claims of S assumed of the current state. A claim whose query is satisfiable (or
 * undecided within the conflict budget) leaves S, and the remaining claims are checked again,
 * until nothing leaves: the greatest inductive subset, all of whose claims hold in every
 * reachable state.
 *
 * Claims come in batches (one per hypothesis), smallest first. The proven set P grows batch by batch: for
 * batch B, the greatest subset of B inductive relative to P and itself joins P. Claims of P
 * stay proven, since more assumptions never break an induction step. A final batch retries
 * every claim that failed, so claims that need each other across batches still meet. The work
 * (literals of the clauses built plus clause visits of unit propagation) has a budget, so large games stop early with what
 * is proven so far, deterministically, rather than by the clock.
 */
import type { Deadline } from '../deadline.js';
import { type ConeEncoding, EncodingStopped, type RuleIndex, atLeastTwo, atMostOne, encodeCone, ruleIndex } from './encode.js';
import type { MutexView } from './view.js';

/** A claim to prove: at most one (`amo`) or at least one (`alo`) member true, always. */
export interface Claim {
  readonly kind: 'amo' | 'alo';
  /** Claims of one batch are proven together (the lead's choice: one batch per hypothesis). */
  readonly batch: number;
  /** Fluent indexes. */
  readonly members: readonly number[];
}

/** The outcome per claim, aligned with the input; `unrefutedPairs` for failed AMO claims. */
interface ProofResult {
  readonly proven: readonly boolean[];
  /** For each failed AMO claim: how many member pairs the proof could not rule out (capped). */
  readonly unrefutedPairs: ReadonlyMap<number, { readonly pairs: number; readonly capped: boolean }>;
  readonly queries: number;
  /** Literals of the clauses built plus clause visits, the measure of {@link ProofLimits.maxWork}. */
  readonly work: number;
  /** False when the work budget stopped the proof before every batch was tried. */
  readonly complete: boolean;
}

/** Limits of the proof. */
interface ProofLimits {
  readonly deadline: Deadline;
  /** Conflicts one SAT query may take before it counts as failed. */
  readonly maxConflicts: number;
  /** Pair queries spent explaining each failed AMO claim. */
  readonly maxPairQueries: number;
  /** Work (clause literals built plus clause visits) after which no further batch is started. */
  readonly maxWork: number;
}

/** Per claim, whether the initial state satisfies it. */
function holdInitially(view: MutexView, claims: readonly Claim[]): boolean[] {
  const init = new Set(view.init);
  return claims.map((claim) => {
    const n = claim.members.filter((f) => init.has(f)).length;
    return claim.kind === 'amo' ? n <= 1 : n >= 1;
  });
}

/** The claims of `active` as constraints on the cone's current state, weakened to the cone. */
function assumeInvariants(enc: ConeEncoding, view: MutexView, claims: readonly Claim[], active: readonly boolean[]): void {
  const inCone = new Set(enc.fluents);
  const now = (f: number): number => enc.atom(view.fluents[f]!.trueAtom);
  claims.forEach((c, i) => {
    if (!active[i]) return;
    const members = c.members.filter((f) => inCone.has(f));
    // At most one of a subset is implied; at least one only holds when no member is missing.
    if (c.kind === 'amo') atMostOne(enc.solver, members.map(now));
    else if (members.length === c.members.length) enc.solver.addClause(members.map(now));
  });
}

/** {@link encodeCone} under the run's deadline: past it, the proof ends with {@link ProofTimeout}. */
function encode(view: MutexView, index: RuleIndex, roots: readonly number[], allMoves: boolean, limits: ProofLimits): ConeEncoding {
  try {
    return encodeCone(view, index, roots, allMoves, () => limits.deadline.tick());
  } catch (err) {
    if (err instanceof EncodingStopped) throw new ProofTimeout();
    throw err;
  }
}

/** Counts the work of the proof: literals of the clauses built and clause visits of the SAT solver. */
interface Meter {
  queries: number;
  work: number;
}

/** Whether the successor can violate `claim` from a state satisfying the active claims. */
function canViolate(
  view: MutexView, index: RuleIndex, claims: readonly Claim[], active: readonly boolean[], claim: Claim, limits: ProofLimits, meter: Meter,
): boolean {
  const nexts = claim.members.map((f) => view.fluents[f]!.nextAtom);
  // "Some member stays or becomes true" usually rests on every role making some move.
  const enc = encode(view, index, nexts, claim.kind === 'alo', limits);
  assumeInvariants(enc, view, claims, active);
  // A fluent no rule makes true stays false in the successor.
  const next = nexts.filter((a) => a >= 0).map(enc.atom);
  const assumptions = claim.kind === 'amo' ? [atLeastTwo(enc.solver, next)] : next.map((v) => -v);
  const answer = enc.solver.solve(assumptions, limits.maxConflicts, () => limits.deadline.passed());
  if (answer === 'unknown' && limits.deadline.passed()) throw new ProofTimeout();
  meter.queries++;
  meter.work += enc.solver.literalCount + enc.solver.visitCount;
  return answer !== 'unsat';
}

/**
 * How many member pairs of a failed AMO claim the proof cannot rule out (up to the query cap):
 * one encoding of the claim's cone, one query per pair under assumptions.
 */
function unrefuted(
  view: MutexView, index: RuleIndex, claims: readonly Claim[], active: readonly boolean[], claim: Claim, limits: ProofLimits, meter: Meter,
): { pairs: number; capped: boolean } {
  const nexts = claim.members.map((f) => view.fluents[f]!.nextAtom);
  const enc = encode(view, index, nexts, false, limits);
  assumeInvariants(enc, view, claims, active);
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
      if (answer === 'unknown' && limits.deadline.passed()) throw new ProofTimeout();
      if (answer !== 'unsat') pairs++;
    }
  }
  meter.work += enc.solver.literalCount + enc.solver.visitCount;
  return { pairs, capped };
}

/**
 * Greatest fixpoint over the claims in `batch` (indexes), with the claims already `active`
 * outside it assumed: a claim leaves when its violation is satisfiable; repeat until stable.
 */
function proveBatch(
  view: MutexView, index: RuleIndex, claims: readonly Claim[], initially: readonly boolean[], active: boolean[], batch: readonly number[],
  limits: ProofLimits, meter: Meter,
): boolean {
  for (const i of batch) active[i] = initially[i]!;
  for (let changed = true; changed; ) {
    changed = false;
    for (const i of batch) {
      if (!active[i]) continue;
      if (limits.deadline.passed()) throw new ProofTimeout();
      if (meter.work > limits.maxWork) {
        // Claims of an unfinished batch were proven assuming batch-mates not yet checked:
        // none of them may count.
        for (const j of batch) active[j] = false;
        return false;
      }
      if (canViolate(view, index, claims, active, claims[i]!, limits, meter)) {
        active[i] = false;
        changed = true;
      }
    }
  }
  return true;
}

/** Raised when a limit of the run's deadline is reached during the proof; the caller reports it. */
export class ProofTimeout extends Error {
  constructor() {
    super('a limit of the run was reached while proving mutex groups');
  }
}

/**
 * Proves claims batch by batch, then retries the failures together (see the module comment).
 * `proven` marks claims already proven elsewhere (lifted.ts): they are assumed from the start.
 */
export function proveClaims(view: MutexView, claims: readonly Claim[], limits: ProofLimits, proven: readonly boolean[] = []): ProofResult {
  const index = ruleIndex(view);
  const initially = holdInitially(view, claims);
  // Claims proven already (on the lifted rules) hold in every reachable state: assumed, not asked.
  const active = claims.map((_, i) => proven[i] === true);
  const meter: Meter = { queries: 0, work: 0 };
  const batches = new Map<number, number[]>();
  claims.forEach((c, i) => active[i] || batches.set(c.batch, [...(batches.get(c.batch) ?? []), i]));
  let complete = true;
  // "At most one" batches first, small ones first: when the budget runs out, as many claims as
  // possible are settled.
  const kind = (b: number): number => (claims[batches.get(b)![0]!]!.kind === 'amo' ? 0 : 1);
  const order = [...batches.keys()].sort((a, b) => kind(a) - kind(b) || batches.get(a)!.length - batches.get(b)!.length || a - b);
  for (const batch of order) {
    if (meter.work > limits.maxWork) {
      complete = false;
      break;
    }
    if (!proveBatch(view, index, claims, initially, active, batches.get(batch)!, limits, meter)) {
      complete = false;
      break;
    }
  }
  const failed = claims.flatMap((_, i) => (active[i] ? [] : [i]));
  if (complete && failed.length > 0 && meter.work <= limits.maxWork) {
    // The retry batch only adds claims: if it runs out of budget, the earlier proofs stand.
    const before = [...active];
    if (!proveBatch(view, index, claims, initially, active, failed, limits, meter)) before.forEach((v, i) => (active[i] = v));
  }
  const unrefutedPairs = new Map<number, { pairs: number; capped: boolean }>();
  claims.forEach((c, i) => {
    if (active[i] || c.kind !== 'amo' || !initially[i] || meter.work > limits.maxWork) return;
    unrefutedPairs.set(i, unrefuted(view, index, claims, active, c, limits, meter));
  });
  return { proven: active, unrefutedPairs, queries: meter.queries, work: meter.work, complete };
}
