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
 * is proven so far, deterministically; the stage's time budget (a Deadline of its own) stops it
 * the same way when the clock runs out first. Claims the proof never decided are reported as
 * unproven for lack of budget, apart from those a SAT query showed not inductive.
 */
import type { Deadline } from '../deadline.js';
import { affordable } from './cone-cost.js';
import { ConeTooLarge, type ConeEncoding, EncodingStopped, type RuleIndex, atLeastTwo, atMostOne, encodeCone, queryCone, ruleIndex } from './encode.js';
import { type JointAsk, jointCones } from './joint-cones.js';
import { type FailingModel, FailingModels, assumes, failingModel } from './prove-models.js';
import type { MutexView } from './view.js';

/** A claim to prove: at most one (`amo`) or at least one (`alo`) member true, always. */
export interface Claim {
  readonly kind: 'amo' | 'alo';
  /** Claims of one batch are proven together (the lead's choice: one batch per hypothesis). */
  readonly batch: number;
  /** Fluent indexes. */
  readonly members: readonly number[];
}

/**
 * What the proof says of one claim: proven; not inductive (a SAT query found a transition from
 * a state satisfying the proven claims to one violating it, or the initial state violates it);
 * or unproven for lack of budget (never asked, asked in a batch the budget cut short, or its
 * query undecided within the conflict budget). With lazy axioms no query is asked: a claim the
 * lifted proofs left open is not inductive as far as they tell, unless the budget cut them
 * (find-proofs.ts).
 */
export type ClaimVerdict = 'proven' | 'not-inductive' | 'unproven';

/** The outcome per claim, aligned with the input; `unrefutedPairs` for failed AMO claims. */
interface ProofResult {
  readonly proven: readonly boolean[];
  readonly verdicts: readonly ClaimVerdict[];
  /** For each failed AMO claim: how many member pairs the proof could not rule out (capped). */
  readonly unrefutedPairs: ReadonlyMap<number, { readonly pairs: number; readonly capped: boolean }>;
  readonly queries: number;
  /** Literals of the clauses built plus clause visits, the measure of {@link ProofLimits.maxWork}. */
  readonly work: number;
  /** False when the work budget or the time budget stopped the proof before every batch was tried. */
  readonly complete: boolean;
  /**
   * The stage's time budget had passed when the proof ended (before the failures were explained),
   * or a batch was given up because its cone was more than the budget left could pay for.
   */
  readonly budgetSpent: boolean;
}

/** Limits of the proof. */
interface ProofLimits {
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

/** Per claim, whether the initial state satisfies it (nothing allocated per claim: a million on pancakes88). */
function holdInitially(view: MutexView, claims: readonly Claim[]): boolean[] {
  const init = new Uint8Array(view.fluents.length);
  for (const f of view.init) init[f] = 1;
  return claims.map((claim) => {
    let n = 0;
    for (const f of claim.members) n += init[f]!;
    return claim.kind === 'amo' ? n <= 1 : n >= 1;
  });
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
function coneOf(view: MutexView, index: () => RuleIndex, roots: readonly number[], allMoves: boolean, limits: ProofLimits): number[] {
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

/** Raised inside the proof when the time budget has passed; {@link proveBatch} catches it. */
class ProofStopped extends Error {}

/** Raised instead of encoding a cone the budget left cannot pay for: its batch is given up, the next one tried. */
class ConeRefused extends ProofStopped {}

/** Counts the work of the proof: literals of the clauses built and clause visits of the SAT solver. */
interface Meter {
  queries: number;
  work: number;
}

/**
 * Whether the successor can violate `claim` from a state satisfying the active claims: 'sat'
 * (it can), 'unsat' (it cannot) or 'unknown' (the conflict budget ran out first).
 */
function canViolate(
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
function unrefuted(
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
function growingAsk(
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

/** What the proof has found so far: which claims are active, and why the others left. */
interface ProofState {
  readonly active: boolean[];
  /** Per claim that left S: 'sat' (not inductive) or 'unknown' (undecided within the conflict budget). */
  readonly left: ('sat' | 'unknown' | undefined)[];
  /** Per claim, the model of its last "sat" answer (prove-models.ts). */
  readonly models: FailingModels;
}

/**
 * Greatest fixpoint over the claims in `batch` (indexes), with the claims already `active`
 * outside it assumed: a claim leaves when its violation is satisfiable (or undecided); repeat
 * until stable. 'stopped' when the work or time budget cut the batch short, 'refused' when one of
 * its cones was more than the budget left could encode: then none of its claims counts, since
 * they were proven assuming batch-mates not yet checked, and none is reported not inductive.
 */
function proveBatch(
  view: MutexView, index: () => RuleIndex, claims: readonly Claim[], initially: readonly boolean[], st: ProofState, batch: readonly number[],
  limits: ProofLimits, meter: Meter,
): 'done' | 'stopped' | 'refused' {
  const { active, left } = st;
  for (const i of batch) active[i] = initially[i]!;
  const grown = growingAsk(view, index, claims, st, batch, limits, meter);
  // A claim asked on its own cone again (the retry batch) whose last failing model satisfies
  // what is assumed now fails again: answered by that model, without encoding (prove-models.ts).
  const again = (i: number): 'sat' | undefined => {
    if (!st.models.has(i)) return undefined;
    const c = claims[i]!;
    const atoms = coneOf(view, index, c.members.map((f) => view.fluents[f]!.nextAtom), c.kind === 'alo', limits);
    return st.models.answers(i, atoms, claims, active, limits.implied) ? 'sat' : undefined;
  };
  try {
    for (let changed = true; changed; ) {
      changed = false;
      for (const i of batch) {
        if (!active[i]) continue;
        if (limits.deadline.passed() || meter.work > limits.maxWork) throw new ProofStopped();
        const answer = grown?.(i) ?? again(i) ?? canViolate(view, index, claims, active, claims[i]!, limits, meter, (m) => st.models.keep(i, m));
        if (answer !== 'unsat') {
          active[i] = false;
          left[i] = answer;
          changed = true;
        }
      }
    }
  } catch (err) {
    if (!(err instanceof ProofStopped)) throw err;
    // Every claim of a batch cut short is unproven, also those that had left it (not inductive
    // relative to batch-mates): which had left depends on where the processor time ran out, and
    // the output would change from run to run with it (crossers3, docs/mutex.md 2c).
    for (const j of batch) {
      active[j] = false;
      left[j] = undefined;
    }
    return err instanceof ConeRefused ? 'refused' : 'stopped';
  }
  return 'done';
}

/**
 * Proves claims batch by batch, then retries the failures together (see the module comment).
 * `proven` marks claims already proven elsewhere (lifted.ts): they are assumed from the start.
 */
export function proveClaims(view: MutexView, claims: readonly Claim[], limits: ProofLimits, proven: readonly boolean[] = []): ProofResult {
  // Built at the first query: a game whose claims are all proven lifted, or whose budget is
  // spent already, never pays for indexing its ground rules (millions on amazonsTorus).
  let built: RuleIndex | undefined;
  const index = (): RuleIndex => (built ??= ruleIndex(view, () => limits.deadline.tick()));
  const initially = holdInitially(view, claims);
  // Claims proven already (on the lifted rules) hold in every reachable state: assumed, not asked.
  const active = claims.map((_, i) => proven[i] === true);
  const st: ProofState = { active, left: claims.map(() => undefined), models: new FailingModels(claims.length, view) };
  const meter: Meter = { queries: 0, work: 0 };
  const batches = new Map<number, number[]>();
  claims.forEach((c, i) => {
    if (active[i]) return;
    // Pushed, not spread: a batch (one hypothesis) can hold tens of thousands of claims.
    const batch = batches.get(c.batch);
    if (batch === undefined) batches.set(c.batch, [i]);
    else batch.push(i);
  });
  let complete = true;
  // A batch refused for its cone's size leaves the budget unspent: the batches after it are tried.
  let refused = false;
  // The batches that can change the encoding first; then "at most one" batches first, small ones
  // first: when the budget runs out, as many claims as possible are settled. (A batch is one
  // hypothesis and kind: its claims are all `later` or none.)
  const later = (b: number): number => limits.later?.[batches.get(b)![0]!] ?? 0;
  const kind = (b: number): number => (claims[batches.get(b)![0]!]!.kind === 'amo' ? 0 : 1);
  const order = [...batches.keys()].sort((a, b) => later(a) - later(b) || kind(a) - kind(b) || batches.get(a)!.length - batches.get(b)!.length || a - b);
  for (const batch of order) {
    if (meter.work > limits.maxWork || limits.deadline.passed()) {
      complete = false;
      break;
    }
    const outcome = proveBatch(view, index, claims, initially, st, batches.get(batch)!, limits, meter);
    if (outcome === 'done') continue;
    complete = false;
    if (outcome === 'stopped') break;
    refused = true;
  }
  const failed = claims.flatMap((_, i) => (active[i] ? [] : [i]));
  if (complete && failed.length > 0 && meter.work <= limits.maxWork) {
    // The retry batch only adds claims: if it runs out of budget, the earlier proofs stand.
    const before = [...active];
    const leftBefore = [...st.left];
    if (proveBatch(view, index, claims, initially, st, failed, limits, meter) !== 'done') {
      before.forEach((v, i) => (active[i] = v));
      leftBefore.forEach((v, i) => (st.left[i] = v));
    }
  }
  const verdicts = claims.map((_, i): ClaimVerdict => (active[i] ? 'proven' : !initially[i] || st.left[i] === 'sat' ? 'not-inductive' : 'unproven'));
  // A refused cone counts as the budget reached: it was left for lack of budget.
  const budgetSpent = limits.deadline.passed() || refused;
  const unrefutedPairs = explainFailures(view, index, claims, st, initially, limits, meter);
  return { proven: active, verdicts, unrefutedPairs, queries: meter.queries, work: meter.work, complete, budgetSpent };
}

/**
 * At most this many failed claims are explained, within at most {@link EXPLAIN_SECONDS} of the
 * stage's budget: the explanation (for `--stats`) proves nothing, and urmAdd's 331 failed claims
 * took 3.2 processor seconds of pair queries after its proofs were done, to the end of its budget.
 */
const MAX_EXPLAINED_CLAIMS = 16;

/** Processor seconds (at most what is left of the stage's budget) the explanation may take. */
const EXPLAIN_SECONDS = 1;

/** Unrefuted member pairs of the first AMO claims shown not inductive, while its small budget remains. */
function explainFailures(
  view: MutexView, index: () => RuleIndex, claims: readonly Claim[], st: ProofState, initially: readonly boolean[], limits: ProofLimits, meter: Meter,
): Map<number, { pairs: number; capped: boolean }> {
  const out = new Map<number, { pairs: number; capped: boolean }>();
  const own = { ...limits, deadline: limits.deadline.within(EXPLAIN_SECONDS) };
  try {
    claims.forEach((c, i) => {
      if (st.active[i] || c.kind !== 'amo' || !initially[i] || st.left[i] !== 'sat') return;
      if (out.size >= MAX_EXPLAINED_CLAIMS || meter.work > limits.maxWork || own.deadline.passed()) throw new ProofStopped();
      out.set(i, unrefuted(view, index, claims, st.active, c, own, meter));
    });
  } catch (err) {
    if (!(err instanceof ProofStopped)) throw err;
  }
  return out;
}
