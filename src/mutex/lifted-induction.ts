/**
 * The induction of the lifted "at most one" proof (docs/mutex.md, 2a and "Cost"): which
 * hypotheses and implications are checked again after others leave, and what is kept when the
 * budget stops it. The checks themselves are lifted.ts's; this module only schedules them.
 */
import type { Term } from '../gdl/ast.js';
import type { Hypothesis } from './candidates.js';
import type { Implication } from './implications.js';
import type { Assumed, AssumedClaim } from './lifted-core.js';
import { type Subst, key } from './lifted-terms.js';

/** Keys of a partial hypothesis (claimed for those only), undefined for one claimed on every key. */
export type KeysOf = readonly (readonly (readonly Term[])[] | undefined)[];

/** What the induction schedules: the hypotheses, the implications and how each is checked. */
export interface InductionTask {
  readonly hyps: readonly Hypothesis[];
  readonly keysOf: KeysOf;
  /** Claims that always hold (static relations' functional dependencies). */
  readonly statics: ReadonlyMap<string, AssumedClaim[]>;
  /** The order hypotheses are checked in within a round (lifted-check-order.ts' checkOrder). */
  readonly order: readonly number[];
  readonly imps: readonly Implication[];
  /**
   * Hypothesis i's step with these claims assumed, for the keys given (those it is claimed for now;
   * undefined: every key): true when every pair is refuted, false when one is left open, or the keys
   * (of those given, the same arrays) with a pair left open when the others' pairs are all refuted.
   */
  check(i: number, assumed: Assumed, implied: readonly Implication[], keys: readonly (readonly Term[])[] | undefined): boolean | OpenKeys;
  /** Implication j's step with these claims assumed. */
  implicationStep(j: number, assumed: Assumed, implied: readonly Implication[]): boolean;
  /** Before each check: whether to stop, giving up ('pairs': nothing proven) or for the budget. */
  stop(i: number, keys: readonly (readonly Term[])[] | undefined): 'pairs' | 'deadline' | undefined;
  /**
   * After a check that answered false: whether the budget ran out by then. A check stops closing
   * cases at the deadline (lifted-unfold.ts), so its open pair may be the budget's, not a failure
   * of the step: it is not recorded in {@link Failed} (the claim leaves all the same).
   */
  spent(): boolean;
}

/**
 * The keys of a claim on some keys whose step left a pair open, the step of its other keys shown;
 * `whole`: every key checked left one open (keys a smaller claim implies are not checked: lifted-keys.ts),
 * and the claim leaves whole, as for `false`; `failed`: those of `open` whose check ended before the
 * budget ran out (the others' open pair may be the budget's: {@link InductionTask.spent}).
 */
export interface OpenKeys {
  readonly open: ReadonlySet<readonly Term[]>;
  readonly whole: boolean;
  readonly failed: ReadonlySet<readonly Term[]>;
}

/**
 * Per hypothesis, the steps that failed in one induction, each checked to its end before the budget
 * ran out (find-proofs.ts labels such a claim "observed only", not "unproven for lack of budget").
 * A step that fails with some claims assumed fails with fewer (an assumed claim only closes cases),
 * and the set only shrinks: no set the induction could end with shows it. Keys as {@link keyText}.
 */
export interface Failed {
  /**
   * The claim left, on every key: a claim on every key (or on some keys checked all or nothing) whose
   * step, or a stronger claim's of its relation ({@link weaker}), left a pair open.
   */
  readonly every: boolean;
  /** A claim on some keys that left whole: the keys its last check left open (a key a smaller claim implies is not checked, nor here). */
  readonly left: ReadonlySet<string>;
  /** The keys a claim on some keys lost while it stayed: never checked again, here or in an induction started from its keys. */
  readonly lost: ReadonlySet<string>;
}

/** Where an induction ended, the hypotheses and implications proven, and the keys each claim on some keys is left with. */
interface InductionResult {
  readonly outcome: 'done' | 'pairs' | 'deadline';
  readonly proven: readonly boolean[];
  readonly implied: readonly Implication[];
  /** Per hypothesis, the keys its claim holds for (undefined: every key): those of `keysOf` (or of the start) less those that failed. */
  readonly keys: KeysOf;
  /** Per hypothesis, what failed in this induction (also when the budget stopped it). */
  readonly failed: readonly Failed[];
}

/**
 * The greatest subset of the `active` hypotheses (and of the implications, when `withImps`)
 * whose every step is shown assuming the subset, `fixed` hypotheses (already proven an invariant
 * of their own: they hold in every reachable state) assumed throughout and never checked again.
 * What fails leaves at once, with the weaker hypotheses of its relation ({@link weaker}); a claim
 * on some keys whose step fails for some of them only keeps the others (`startKeys`: those it
 * starts with, default `task.keysOf`; the result's `keys`). A check is done again only when a
 * claim it took equalities from left or lost keys since (lifted-core.ts' `use`: a check gives the
 * same answer without the claims it took nothing from), or an implication left. When the budget
 * stops it, the hypotheses {@link settled} are proven, for the keys they are left with.
 */
export function induce(task: InductionTask, start: readonly boolean[], fixed: readonly boolean[], withImps: boolean, startKeys?: KeysOf): InductionResult {
  const s = inductionState(task, start, fixed, withImps, startKeys);
  for (let changed = true; changed; refresh(task, s)) {
    // The hypotheses that left in this round: what took equalities from them is checked again.
    const lost = new Set<number>();
    const round = checkRound(task, s, lost);
    if (round === 'pairs' || round === 'deadline') {
      return { outcome: round, proven: settled(s.active, s.dirty, s.reads, s.withImplied, fixed), implied: [], keys: s.keysOf, failed: failedOf(s) };
    }
    const impLost = checkImplications(task, s);
    changed = round || impLost;
    task.hyps.forEach((_, i) => (s.dirty[i] ||= s.active[i] === true && fixed[i] !== true && (impLost || [...s.reads[i]!.keys()].some((r) => lost.has(r)))));
  }
  return { outcome: 'done', proven: s.active, implied: s.implied, keys: s.keysOf, failed: failedOf(s) };
}

/** What one induction ({@link induce}) changes as it goes: per hypothesis and per implication, and the claims assumed now. */
interface InductionState {
  /** The keys each claim holds for now (undefined: every key); a claim on some keys loses the keys whose step fails. */
  readonly keysOf: (readonly (readonly Term[])[] | undefined)[];
  readonly fixed: readonly boolean[];
  readonly active: boolean[];
  /** Waiting to be checked (again) under the current claims. */
  readonly dirty: boolean[];
  /** Per hypothesis, the claims its last check took equalities from, and of a claim on some keys which (null: any). */
  readonly reads: Reads[];
  /** Checked with implications assumed: their use is not recorded, so not kept by {@link settled}. */
  readonly withImplied: boolean[];
  readonly impActive: boolean[];
  /** {@link Failed}'s fields per hypothesis. */
  readonly failedEvery: boolean[];
  readonly failedLeft: ReadonlySet<string>[];
  readonly failedLost: Set<string>[];
  /** The active claims as assumptions, made again whenever a claim leaves or loses keys. */
  assumed: Assumed;
  /** The active implications, made again at each round. */
  implied: readonly Implication[];
}

/** The state an induction starts from: `start` and `fixed` active, those of `start` not fixed to be checked. */
function inductionState(task: InductionTask, start: readonly boolean[], fixed: readonly boolean[], withImps: boolean, startKeys: KeysOf | undefined): InductionState {
  const { hyps } = task;
  // A claim on some keys loses only the keys whose step fails (alexChess: one promoted piece's
  // key, `bn8`, failed the whole of "one square per piece" for 54 pieces); it is checked again then
  // only if it took equalities from itself, as any claim that took some from it is.
  const keysOf = [...(startKeys ?? task.keysOf)];
  const active = start.map((a, i) => a || fixed[i] === true);
  const impActive = task.imps.map(() => withImps);
  return {
    keysOf,
    fixed,
    active,
    dirty: start.map((a, i) => a && fixed[i] !== true),
    reads: hyps.map((): Reads => new Map()),
    withImplied: hyps.map(() => false),
    impActive,
    failedEvery: hyps.map(() => false),
    failedLeft: hyps.map((): ReadonlySet<string> => new Set()),
    failedLost: hyps.map(() => new Set<string>()),
    assumed: assumedOf(hyps, active, keysOf, task.statics),
    implied: task.imps.filter((_, j) => impActive[j]),
  };
}

/** The claims and implications assumed, made again from the state's active ones. */
function refresh(task: InductionTask, s: InductionState): void {
  s.assumed = assumedOf(task.hyps, s.active, s.keysOf, task.statics);
  s.implied = task.imps.filter((_, j) => s.impActive[j]);
}

/** {@link Failed} per hypothesis, as the state has it now. */
function failedOf(s: InductionState): Failed[] {
  return s.failedEvery.map((every, i) => ({ every, left: s.failedLeft[i]!, lost: s.failedLost[i]! }));
}

/**
 * One round: each active hypothesis waiting to be checked, in `task.order`. Whether a claim left
 * or lost keys (those that left are added to `lost`), or where the budget or the pairs stopped it.
 */
function checkRound(task: InductionTask, s: InductionState, lost: Set<number>): boolean | 'pairs' | 'deadline' {
  let changed = false;
  for (const i of task.order) {
    if (!s.active[i] || !s.dirty[i]) continue;
    const stop = task.stop(i, s.keysOf[i]);
    if (stop !== undefined) return stop;
    s.dirty[i] = false;
    s.reads[i] = new Map();
    s.withImplied[i] = s.implied.length > 0;
    const answer = task.check(i, recording(s.assumed, s.reads[i]!), s.implied, s.keysOf[i]);
    if (answer === true) continue;
    if (answer === false || !narrow(task, s, i, answer)) leave(task, s, i, answer, lost);
    changed = true;
  }
  return changed;
}

/**
 * A claim on some keys whose step left some of them open keeps the others (false when it keeps
 * none: it leaves whole). What took equalities from a key that left is checked again (itself
 * included), marked at once, not at the round's end: a budget stop before then keeps only what is
 * not dirty ({@link settled}).
 */
function narrow(task: InductionTask, s: InductionState, i: number, answer: OpenKeys): boolean {
  const left = answer.whole ? [] : s.keysOf[i]?.filter((k) => !answer.open.has(k)) ?? [];
  if (left.length === 0) return false;
  s.keysOf[i] = left;
  const gone = new Set([...answer.open].map(keyText));
  answer.failed.forEach((k) => s.failedLost[i]!.add(keyText(k)));
  task.hyps.forEach((_, j) => (s.dirty[j] ||= s.active[j] === true && s.fixed[j] !== true && tookFrom(s.reads[j]!, i, gone)));
  s.assumed = assumedOf(task.hyps, s.active, s.keysOf, task.statics);
  return true;
}

/**
 * Hypothesis i failed: it leaves at once with its weaker hypotheses ({@link weaker}), so that the
 * checks after it in this round do not lean on it, and what failed is recorded ({@link Failed}).
 */
function leave(task: InductionTask, s: InductionState, i: number, answer: false | OpenKeys, lost: Set<number>): void {
  // A pair left open after the budget ran out may be the budget's: not recorded as failed.
  const real = answer === false && !task.spent();
  const leaving = [i, ...weaker(task.hyps, i, s.active, s.dirty, s.keysOf)];
  for (const j of leaving) (s.active[j] = false), lost.add(j);
  if (answer !== false) s.failedLeft[i] = new Set([...answer.failed].map(keyText));
  // The weaker claims leave with the whole claim, or with every key it checked, failed in time.
  const inTime = real || (answer !== false && answer.failed.size === answer.open.size);
  leaving.forEach((j) => (s.failedEvery[j] = j === i ? real : inTime));
  s.assumed = assumedOf(task.hyps, s.active, s.keysOf, task.statics);
}

/** The implications' steps, under the claims assumed now: whether one left (it is then no longer active). */
function checkImplications(task: InductionTask, s: InductionState): boolean {
  let impLost = false;
  task.imps.forEach((_, j) => {
    if (!s.impActive[j] || task.implicationStep(j, s.assumed, s.implied)) return;
    s.impActive[j] = false;
    impLost = true;
  });
  return impLost;
}

/** What the sampled states say of each hypothesis (find-proofs.ts' sampledWorth; lazy axioms). */
export interface Worth {
  /** The bits its groups save, in proportion to the states occupying them (lifted-check-order.ts' checkOrder). */
  readonly weights: readonly number[];
  /** Every sampled state had a member of each of its groups ({@link occupiedAlone}). */
  readonly everyState: readonly boolean[];
}

/**
 * The claims on every key whose groups every sampled state occupied (chess: `cell` by square,
 * `control`, `step`), to be proven alone first (lifted.ts): a set of claims proven assuming only
 * itself is an inductive invariant of its own, so what it proves holds whatever the others do,
 * and no check of it leans on a claim that later fails (chess: `cell` proven leaning on a `check`
 * claim, rare in the sample and false, then waiting to be checked again when the budget ran out).
 * Undefined without worth, or when that would be none or every active claim on every key.
 */
export function occupiedAlone(active: readonly boolean[], keysOf: KeysOf, worth: Worth | undefined): boolean[] | undefined {
  if (worth === undefined) return undefined;
  const everyKey = active.map((a, i) => a && keysOf[i] === undefined);
  const alone = everyKey.map((e, i) => e && worth.everyState[i] === true);
  return alone.some((a) => a) && everyKey.some((e, i) => e && !alone[i]) ? alone : undefined;
}

/**
 * The partial claim (some keys only) worth more bits than every other claim still open together,
 * by `weights` (find-proofs.ts' sampledWorth), induced alone, `fixed` assumed (lifted.ts does so
 * before the induction over all of them, with what this proves fixed). Undefined when no partial
 * claim outweighs the rest (then nothing is checked).
 */
export function heaviestFirst(task: InductionTask, active: readonly boolean[], fixed: readonly boolean[], weights: readonly number[] | undefined): InductionResult | undefined {
  const heavy = heaviestAlone(active, task.keysOf, fixed, weights);
  return heavy === undefined ? undefined : induce(task, heavy, fixed, false);
}

/**
 * The least weight (bits saved, in proportion to the sampled states occupying the groups) of a
 * claim worth a check of its own before the induction over all: the checkers family's partial
 * claims outweigh the rest at weights 0 to 1 and fail alone; snakeAssemblit's `cell` [2] weighs 5,178.
 */
const MIN_ALONE_BITS = 64;

/**
 * The claim {@link heaviestFirst} induces alone, the claims `proven` so far left out.
 * snakeAssemblit's `cell` [2] (two groups of 2,700 fluents, all but 250 of its proven fluents)
 * was proven in the first round leaning on claims that failed later in it, so a budget cut
 * before the second round kept nothing of that induction; alone it is one 30 ms check. A set proven assuming only itself and invariants is an invariant of its
 * own (as {@link occupiedAlone}'s). Undefined without weights, when no partial claim outweighs
 * the rest, when it is the only claim open, or when it weighs less than {@link MIN_ALONE_BITS}.
 */
function heaviestAlone(active: readonly boolean[], keysOf: KeysOf, proven: readonly boolean[], weights: readonly number[] | undefined): boolean[] | undefined {
  if (weights === undefined) return undefined;
  const open = active.map((a, i) => a && proven[i] !== true);
  const total = open.reduce((sum, o, i) => (o ? sum + (weights[i] ?? 0) : sum), 0);
  let best = -1;
  open.forEach((o, i) => {
    if (o && keysOf[i] !== undefined && (best < 0 || (weights[i] ?? 0) > (weights[best] ?? 0))) best = i;
  });
  // More than the rest together: one claim that leaves the others little to add. Alone among the
  // open claims it leans on none, and the induction over all would check it again (amazons' `location`).
  if (best < 0 || (weights[best] ?? 0) <= total - (weights[best] ?? 0) || open.filter((o) => o).length < 2) return undefined;
  // A check alone that fails costs up to 0.4 processor s (checkers' `cell` [0, 2], rarely occupied, weight 0 to 1).
  if ((weights[best] ?? 0) < MIN_ALONE_BITS) return undefined;
  return active.map((_, i) => i === best);
}

/**
 * When the budget stops the induction: the `fixed` hypotheses, and those checked (active, not
 * waiting to be checked again, no implication assumed) whose checks took equalities only from
 * claims of hypotheses kept. A check gives the same answer with the claims it took nothing from
 * left out, so each kept one is shown assuming exactly the kept ones (and holds initially): they
 * are an invariant of their own, whatever the others would have done.
 */
function settled(active: readonly boolean[], dirty: readonly boolean[], reads: readonly Reads[], withImplied: readonly boolean[], fixed: readonly boolean[]): boolean[] {
  const kept = active.map((a, i) => fixed[i] === true || (a && !dirty[i] && !withImplied[i]));
  for (let changed = true; changed; ) {
    changed = false;
    kept.forEach((k, i) => {
      if (!k || fixed[i] === true || [...reads[i]!.keys()].every((j) => kept[j])) return;
      kept[i] = false;
      changed = true;
    });
  }
  return kept;
}

/**
 * The hypotheses that leave with hypothesis i when a pair of its rules is left open: those of
 * its relation on every key, with fewer input positions (a subset of i's), not yet checked under
 * the current claims. Two fluents that agree on i's inputs and differ elsewhere agree on their
 * inputs and differ elsewhere too, so a case i's check cannot close is one theirs would have to
 * close with less to go on: they are taken as failed (leaving S is always sound) without the cost
 * of their own check, which on chess's `check` (13 hypotheses) was half a second each at best.
 */
function weaker(hyps: readonly Hypothesis[], i: number, active: readonly boolean[], dirty: readonly boolean[], keysOf: KeysOf): number[] {
  const h = hyps[i]!;
  return [...hyps.keys()].filter((j) => j !== i && active[j] && dirty[j] && keysOf[j] === undefined && hyps[j]!.relation === h.relation
    && hyps[j]!.input.length < h.input.length && hyps[j]!.input.every((p) => h.input.includes(p)));
}

/** What one check took equalities from: per hypothesis, the keys of its claim (null: any key, or a claim on every key). */
type Reads = Map<number, Set<string> | null>;

/** `assumed`, recording in `reads` the hypotheses whose claims a check took equalities from (lifted-core.ts' `use`), and which keys. */
function recording(assumed: Assumed, reads: Reads): Assumed {
  return {
    get: (relation) => assumed.get(relation),
    has: (relation) => assumed.has(relation),
    use: (claim, at) => {
      const h = claim.hypothesis;
      if (h === undefined) return;
      const seen = reads.get(h);
      if (at === undefined || claim.keys === undefined) reads.set(h, null);
      else if (seen === undefined) reads.set(h, new Set([at]));
      else seen?.add(at);
    },
  };
}

/** Whether a check that read `reads` took equalities from hypothesis h's claim at one of the keys `gone` (or at a key it did not say). */
function tookFrom(reads: Reads, h: number, gone: ReadonlySet<string>): boolean {
  const keys = reads.get(h);
  return keys !== undefined && (keys === null || [...keys].some((k) => gone.has(k)));
}

/** The active claims as assumptions: per relation, input positions and the keys of partial ones. */
export function assumedOf(hyps: readonly Hypothesis[], active: readonly boolean[], keysOf: KeysOf, statics: ReadonlyMap<string, AssumedClaim[]>): Assumed {
  const out = new Map<string, AssumedClaim[]>(statics);
  hyps.forEach((h, i) => {
    if (!active[i]) return;
    const ks = keysOf[i];
    const claim = ks === undefined ? { input: h.input, hypothesis: i } : { input: h.input, keys: new Set(ks.map(keyText)), hypothesis: i };
    out.set(h.relation, [...(out.get(h.relation) ?? []), claim]);
  });
  return out;
}

/** A key (input arguments, ground) as the assumed claims hold it: lifted-core.ts matches atoms' inputs against it. */
export function keyText(k: readonly Term[]): string {
  const empty: Subst = new Map();
  return k.map((t) => key(t, empty)).join(' ');
}
