/**
 * The false groups sampling missed, refuted by walks from the sampled states (docs/mutex.md,
 * "False observed groups refuted by walks"). The claims "at most one" that the proofs left
 * unproven are the targets; from the sampled states (reachable), walks follow legal joint moves
 * (so every state they visit is reachable too), steered toward states where many targets have a
 * member true, and a state with two members of a target true refutes it. The work is counted in
 * simulator evaluations weighted by the game's ground rules, so that the same states are visited
 * on every run whatever the machine's load; the stage's budget is only a safety stop.
 */
import type { Deadline } from '../deadline.js';
import type { Candidates } from './candidates.js';
import { strengthen } from './ground-exclusions.js';
import type { Claim, ClaimVerdict } from './prove.js';
import { type MutexView, fluentIndexes } from './view.js';

/**
 * Plays the ground game for the walks (the pipeline makes one from the ground simulator: the
 * mutex stage needs no simulator of its own). States are the explorer's own handles; moves its ids.
 * Method syntax on purpose: an explorer of any state type is one of `unknown` states.
 */
export interface Explorer<S = unknown> {
  /**
   * The state whose fluents are the term ids `terms` (a sampled state, or one the explorer gave);
   * undefined when the explorer cannot make it whole (a lazy part reads fluents the stage's states
   * do not show, and no state seen had these: pipeline/mutex-explorer.ts).
   */
  state(terms: readonly number[]): S | undefined;
  /** The term ids of the fluents of `state`. */
  terms(state: S): number[];
  /** The legal moves of each role in `state`, or undefined when it is terminal or a role has none. */
  legal(state: S): readonly (readonly number[])[] | undefined;
  /** The successor of `state` after the joint move `moves` (one legal move per role, in role order). */
  successor(state: S, moves: readonly number[]): S;
  /** A seeded pseudo-random integer in `0..bound-1` (the same sequence on every run). */
  below(bound: number): number;
  /**
   * The work the calls so far cost beyond the game's ground rules, in rule evaluations, counted
   * so that it is the same on every run (a game with lazy axioms: its lazy queries); absent: none.
   */
  work?(): number;
}

/**
 * The explorer's work beyond the ground rules (in rule evaluations) since the meter's last
 * reading: the refuters add it to their counts, so that a lazy game's queries are paid for.
 */
export function workMeter(explorer: Explorer): () => number {
  let last = explorer.work?.() ?? 0;
  return () => {
    const now = explorer.work?.() ?? 0;
    const spent = now - last;
    last = now;
    return spent;
  };
}

/**
 * Rule evaluations the walks may spend: each simulator call (a state's legal moves, a successor)
 * counts the game's ground rules. About 0.5 processor seconds on the games measured (docs/mutex.md).
 */
const WALK_WORK = 40_000_000;
/** Joint moves whose successors are weighed per step, and steps per walk. */
const BRANCHES = 4;
const DEPTH = 48;

/** What the walks found: per claim, 1 when refuted; the refuting states (fluent indexes); the work spent. */
interface Refutation {
  readonly refuted: Uint8Array;
  readonly states: readonly (readonly number[])[];
  readonly evaluations: number;
  readonly walks: number;
  /** The safety stop (the stage's budget) ended the walks before their count did. */
  readonly cut: boolean;
}

/**
 * Marks refuted the candidates whose "at most one" claim the walks refuted (a copy of `cands`;
 * `amoClaim` per candidate, -1: none): they count as singletons, as a group sampling refuted.
 */
export function withRefuted(cands: Candidates, amoClaim: Int32Array, refuted: Uint8Array): Candidates {
  const atMostOne = Uint8Array.from(cands.atMostOne);
  for (let i = 0; i < atMostOne.length; i++) if (amoClaim[i]! >= 0 && refuted[amoClaim[i]!] === 1) atMostOne[i] = 0;
  return { ...cands, atMostOne };
}

/**
 * Walks from `sampled` (fluent indexes, reachable states) refuting the "at most one" claims whose
 * verdict is not proven. `fluentOfTerm` maps a term id to its fluent index (-1: none); `stop` is
 * the safety stop (the stage's budget), looked at before every evaluation.
 */
export function refuteByWalks(
  view: MutexView, claims: readonly Claim[], verdicts: readonly ClaimVerdict[], sampled: readonly (readonly number[])[],
  explorer: Explorer, fluentOfTerm: ReadonlyMap<number, number>, stop: Deadline,
): Refutation {
  const refuted = new Uint8Array(claims.length);
  const targets = new Targets(view.fluents.length, claims, verdicts);
  const found: number[][] = [];
  const rules = Math.max(1, view.rules.length);
  const budget = Math.max(1, Math.floor(WALK_WORK / rules));
  let evaluations = 0;
  let walks = 0;
  let cut = false;
  // The explorer's work beyond the ground rules (a lazy game's queries), in evaluations: 0 for other games.
  const meter = workMeter(explorer);
  let beyond = 0;
  // One evaluation more, unless the count is spent or the safety stop has passed (then `cut`).
  const spend = (): boolean => ++evaluations + (beyond += meter() / rules) <= budget && !(cut ||= stop.passed());
  const fluents = (terms: readonly number[]): number[] => fluentIndexes(fluentOfTerm, terms);
  const look = (state: readonly number[]): number => {
    const hit = targets.violated(state);
    if (hit.length > 0) {
      hit.forEach((k) => (refuted[k] = 1));
      targets.close(hit);
      found.push([...state]);
    }
    return targets.touched(state);
  };
  // One walk: at each step, BRANCHES random joint moves, on to the successor touching the most targets.
  function walk(start: unknown): void {
    let state = start;
    for (let step = 0; step < DEPTH && targets.open > 0; step++) {
      if (!spend()) return;
      const legal = explorer.legal(state);
      if (legal === undefined) return;
      let best: { state: unknown; score: number } | undefined;
      for (let b = 0; b < BRANCHES && spend(); b++) {
        const next = explorer.successor(state, legal.map((moves) => moves[explorer.below(moves.length)]!));
        const score = look(fluents(explorer.terms(next)));
        if (best === undefined || score > best.score) best = { state: next, score };
      }
      if (best === undefined) return;
      state = best.state;
    }
  }
  // Seeds: the sampled states touching the most targets first (ties in sample order).
  const order = sampled.map((s, i) => [targets.touched(s), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  try {
    for (const [, i] of order) {
      if (targets.open === 0 || evaluations + beyond >= budget || (cut ||= stop.passed())) break;
      const seed = explorer.state(sampled[i]!.map((f) => view.fluents[f]!.term));
      if (seed === undefined) continue;
      walks++;
      walk(seed);
    }
  } catch (err) {
    // The explorer's simulator is made on first use, under the stage's budget: past it, a limit error.
    if (!stop.passed()) throw err;
    cut = true;
  }
  return { refuted, states: found, evaluations: Math.min(evaluations + Math.floor(beyond), budget), walks, cut };
}

/** The open targets: per fluent, the claims it is a member of; per claim, whether it is still open. */
class Targets {
  private readonly of: number[][];
  private readonly isOpen: Uint8Array;
  private readonly count: Int32Array;
  open = 0;

  constructor(fluents: number, claims: readonly Claim[], verdicts: readonly ClaimVerdict[]) {
    this.of = Array.from({ length: fluents }, (): number[] => []);
    this.isOpen = new Uint8Array(claims.length);
    this.count = new Int32Array(claims.length);
    claims.forEach((c, k) => {
      if (c.kind !== 'amo' || verdicts[k] === 'proven' || c.members.length < 2) return;
      this.isOpen[k] = 1;
      this.open++;
      for (const f of c.members) this.of[f]!.push(k);
    });
  }

  /** The open claims with two members true in `state`. */
  violated(state: readonly number[]): number[] {
    const out: number[] = [];
    this.tally(state, (k, n) => n === 2 && out.push(k));
    return out.sort((a, b) => a - b);
  }

  /** How many open claims have a member true in `state`. */
  touched(state: readonly number[]): number {
    let n = 0;
    this.tally(state, (_, c) => c === 1 && n++);
    return n;
  }

  close(ks: readonly number[]): void {
    for (const k of ks) if (this.isOpen[k] === 1) (this.isOpen[k] = 0), this.open--;
  }

  /** Counts per open claim the members true in `state`, calling `at` at each count; resets the counts after. */
  private tally(state: readonly number[], at: (claim: number, count: number) => void): void {
    for (const f of state) for (const k of this.of[f]!) if (this.isOpen[k] === 1) at(k, ++this.count[k]!);
    for (const f of state) for (const k of this.of[f]!) this.count[k] = 0;
  }
}

/** What `strengthen` reads of the first proof. */
type FirstProof = Parameters<typeof strengthen>[3];

/**
 * The joint proof of section 2h (`strengthen`) on the claims the walks did not refute, the
 * refuting states added to the sampled ones (fewer false pair facts to try); the verdicts back in
 * the order of `claims`, a refuted claim's kept (it is no group any more). When nothing was
 * refuted, exactly `strengthen` as before.
 */
export function strengthenRest(
  view: MutexView, sampled: readonly (readonly number[])[], claims: readonly Claim[], first: FirstProof, limits: Parameters<typeof strengthen>[4], walked: Refutation | undefined,
): ReturnType<typeof strengthen> {
  if (walked === undefined || !walked.refuted.includes(1)) return strengthen(view, sampled, claims, first, limits);
  const kept = claims.flatMap((_, k) => (walked.refuted[k] === 1 ? [] : [k]));
  const pick = <T>(xs: readonly T[]): T[] => kept.map((k) => xs[k]!);
  const r = strengthen(view, [...sampled, ...walked.states], pick(claims), { proven: pick(first.proven), verdicts: pick(first.verdicts), complete: first.complete }, limits);
  if (r === undefined) return undefined;
  const verdicts = [...first.verdicts];
  kept.forEach((k, j) => (verdicts[k] = r.verdicts[j]!));
  return { ...r, verdicts };
}
