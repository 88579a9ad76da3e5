/**
 * The inductive proof of candidate groups. A set S of claims ("at most one member of group g is
 * true", "at least one member of g is true") is an invariant of the game when
 *   1. the initial state satisfies every claim of S, and
 *   2. from any non-terminal state satisfying every claim of S, no legal joint move leads to a
 *      state violating a claim of S.
 * Step 2 is asked of the SAT encoding of one transition (encode.ts), one query per claim, with
 * all claims of S assumed of the current state through selector variables. A claim whose query
 * is satisfiable (or undecided within the conflict budget) leaves S, and the remaining claims
 * are checked again, until nothing leaves: the greatest inductive subset, all of whose claims
 * hold in every reachable state.
 */
import type { Deadline } from '../deadline.js';
import { type ConeEncoding, type RuleIndex, atLeastTwo, atMostOne, encodeCone, ruleIndex } from './encode.js';
import type { MutexView } from './view.js';

/** A claim to prove: at most one (`amo`) or at least one (`alo`) member true, always. */
export interface Claim {
  readonly kind: 'amo' | 'alo';
  /** Fluent indexes. */
  readonly members: readonly number[];
}

/** The outcome per claim, aligned with the input; `unrefutedPairs` for failed AMO claims. */
export interface ProofResult {
  readonly proven: readonly boolean[];
  /** For each failed AMO claim: how many member pairs the proof could not rule out (capped). */
  readonly unrefutedPairs: ReadonlyMap<number, { readonly pairs: number; readonly capped: boolean }>;
  readonly queries: number;
  /** False when the deadline stopped the proof early (every unchecked claim counts as failed). */
  readonly complete: boolean;
}

/** Limits of the proof. */
export interface ProofLimits {
  readonly deadline: Deadline;
  /** Conflicts one SAT query may take before it counts as failed. */
  readonly maxConflicts: number;
  /** Pair queries spent explaining each failed AMO claim. */
  readonly maxPairQueries: number;
}

/** Whether the initial state satisfies a claim. */
function holdsInitially(view: MutexView, claim: Claim): boolean {
  const init = new Set(view.init);
  const n = claim.members.filter((f) => init.has(f)).length;
  return claim.kind === 'amo' ? n <= 1 : n >= 1;
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

/** Whether the successor can violate `claim` from a state satisfying the active claims. */
function canViolate(view: MutexView, index: RuleIndex, claims: readonly Claim[], active: readonly boolean[], claim: Claim, limits: ProofLimits): boolean {
  const nexts = claim.members.map((f) => view.fluents[f]!.nextAtom);
  const enc = encodeCone(view, index, nexts);
  assumeInvariants(enc, view, claims, active);
  // A fluent no rule makes true stays false in the successor.
  const next = nexts.filter((a) => a >= 0).map(enc.atom);
  if (claim.kind === 'amo') return enc.solver.solve([atLeastTwo(enc.solver, next)], limits.maxConflicts) !== 'unsat';
  return enc.solver.solve(next.map((v) => -v), limits.maxConflicts) !== 'unsat';
}

/**
 * How many member pairs of a failed AMO claim the proof cannot rule out (up to the query cap):
 * one encoding of the claim's cone, one query per pair under assumptions.
 */
function unrefuted(view: MutexView, index: RuleIndex, claims: readonly Claim[], active: readonly boolean[], claim: Claim, limits: ProofLimits): { pairs: number; capped: boolean } {
  const nexts = claim.members.map((f) => view.fluents[f]!.nextAtom);
  const enc = encodeCone(view, index, nexts);
  assumeInvariants(enc, view, claims, active);
  let pairs = 0;
  let asked = 0;
  for (let x = 0; x < nexts.length; x++) {
    for (let y = x + 1; y < nexts.length; y++) {
      // A member no rule makes true cannot be one of a violating pair.
      if (nexts[x]! < 0 || nexts[y]! < 0) continue;
      if (asked++ >= limits.maxPairQueries || limits.deadline.passed()) return { pairs, capped: true };
      if (enc.solver.solve([enc.atom(nexts[x]!), enc.atom(nexts[y]!)], limits.maxConflicts) !== 'unsat') pairs++;
    }
  }
  return { pairs, capped: false };
}

/** Proves the greatest inductive subset of `claims`. */
export function proveClaims(view: MutexView, claims: readonly Claim[], limits: ProofLimits): ProofResult {
  const index = ruleIndex(view);
  const active = claims.map((c) => holdsInitially(view, c));
  let queries = 0;
  let complete = true;
  for (let changed = true; changed && complete; ) {
    changed = false;
    for (let i = 0; i < claims.length; i++) {
      if (!active[i]) continue;
      if (limits.deadline.passed()) {
        complete = false;
        break;
      }
      queries++;
      if (canViolate(view, index, claims, active, claims[i]!, limits)) {
        active[i] = false;
        changed = true;
      }
    }
  }
  if (!complete) active.fill(false);
  const unrefutedPairs = new Map<number, { pairs: number; capped: boolean }>();
  claims.forEach((c, i) => {
    if (active[i] || c.kind !== 'amo' || !complete || !holdsInitially(view, c)) return;
    const u = unrefuted(view, index, claims, active, c, limits);
    unrefutedPairs.set(i, u);
  });
  return { proven: active, unrefutedPairs, queries, complete };
}
