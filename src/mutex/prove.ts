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
 *
 * How one query is encoded and asked (the cone under the budget, the claims assumed) is
 * prove-query.ts'; this module holds the batches, the fixpoint and the failures' explanation.
 */
import { type RuleIndex, ruleIndex } from './encode.js';
import { FailingModels } from './prove-models.js';
import { type Claim, ConeRefused, type Meter, type ProofLimits, type ProofState, ProofStopped, canViolate, coneOf, growingAsk, unrefuted } from './prove-query.js';
import type { MutexView } from './view.js';

export type { Claim };

/**
 * What the proof says of one claim: proven; not inductive (a SAT query found a transition from
 * a state satisfying the proven claims to one violating it, or the initial state violates it);
 * or unproven for lack of budget (never asked, asked in a batch the budget cut short, or its
 * query undecided within the conflict budget). With lazy axioms the queries leave the lazy atoms
 * free, and a claim left unproven whose own lifted step failed counts as not inductive
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
