/**
 * The induction of the lifted "at most one" proof (docs/mutex.md, 2a and "Cost"): which
 * hypotheses and implications are checked again after others leave, and what is kept when the
 * budget stops it. The checks themselves are lifted.ts's; this module only schedules them.
 */
import type { Term } from '../gdl/ast.js';
import { isGround } from '../gdl/terms.js';
import type { NormalRule } from '../normalize/types.js';
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
  /** The order hypotheses are checked in within a round ({@link checkOrder}). */
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
  const { hyps, statics } = task;
  // A claim on some keys loses only the keys whose step fails (alexChess: one promoted piece's
  // key, `bn8`, failed the whole of "one square per piece" for 54 pieces); it is checked again then
  // only if it took equalities from itself, as any claim that took some from it is.
  const keysOf = [...(startKeys ?? task.keysOf)];
  const active = start.map((a, i) => a || fixed[i] === true);
  const dirty = start.map((a, i) => a && fixed[i] !== true);
  // Per hypothesis, the claims its last check took equalities from, and of a claim on some keys which (null: any).
  const reads = hyps.map((): Reads => new Map());
  // Checked with implications assumed: their use is not recorded, so not kept by settled.
  const withImplied = hyps.map(() => false);
  const impActive = task.imps.map(() => withImps);
  const failedEvery = hyps.map(() => false);
  const failedLeft = hyps.map((): ReadonlySet<string> => new Set());
  const failedLost = hyps.map(() => new Set<string>());
  const failed = (): Failed[] => hyps.map((_, i) => ({ every: failedEvery[i]!, left: failedLeft[i]!, lost: failedLost[i]! }));
  let assumed = assumedOf(hyps, active, keysOf, statics);
  let implied = task.imps.filter((_, j) => impActive[j]);
  for (let changed = true; changed; assumed = assumedOf(hyps, active, keysOf, statics), implied = task.imps.filter((_, j) => impActive[j])) {
    changed = false;
    const lost = new Set<number>();
    for (const i of task.order) {
      if (!active[i] || !dirty[i]) continue;
      const stop = task.stop(i, keysOf[i]);
      if (stop !== undefined) return { outcome: stop, proven: settled(active, dirty, reads, withImplied, fixed), implied: [], keys: keysOf, failed: failed() };
      dirty[i] = false;
      reads[i] = new Map();
      withImplied[i] = implied.length > 0;
      const answer = task.check(i, recording(assumed, reads[i]!), implied, keysOf[i]);
      if (answer === true) continue;
      // A pair left open after the budget ran out may be the budget's: not recorded as failed.
      const real = answer === false && !task.spent();
      const left = answer === false || answer.whole ? [] : keysOf[i]?.filter((k) => !answer.open.has(k)) ?? [];
      if (answer !== false && left.length > 0) {
        keysOf[i] = left;
        changed = true;
        // What took equalities from a key that left is checked again (itself included). Marked at
        // once, not at the round's end: a budget stop before then keeps only what is not dirty (settled).
        const gone = new Set([...answer.open].map(keyText));
        answer.failed.forEach((k) => failedLost[i]!.add(keyText(k)));
        hyps.forEach((_, j) => (dirty[j] ||= active[j] === true && fixed[j] !== true && tookFrom(reads[j]!, i, gone)));
        assumed = assumedOf(hyps, active, keysOf, statics);
        continue;
      }
      // What fails leaves at once, so that the checks after it in this round do not lean on it.
      const leaving = [i, ...weaker(hyps, i, active, dirty, keysOf)];
      for (const j of leaving) (active[j] = false), lost.add(j);
      if (answer !== false) failedLeft[i] = new Set([...answer.failed].map(keyText));
      // The weaker claims leave with the whole claim, or with every key it checked, failed in time.
      const inTime = real || (answer !== false && answer.failed.size === answer.open.size);
      leaving.forEach((j) => (failedEvery[j] = j === i ? real : inTime));
      changed = true;
      assumed = assumedOf(hyps, active, keysOf, statics);
    }
    let impLost = false;
    task.imps.forEach((_, j) => {
      if (!impActive[j] || task.implicationStep(j, assumed, implied)) return;
      impActive[j] = false;
      changed = impLost = true;
    });
    hyps.forEach((_, i) => (dirty[i] ||= active[i] === true && fixed[i] !== true && (impLost || [...reads[i]!.keys()].some((r) => lost.has(r)))));
  }
  return { outcome: 'done', proven: active, implied, keys: keysOf, failed: failed() };
}

/**
 * The order hypotheses are checked in within a round: with `weights` (per hypothesis, the bits its
 * groups save in the sampled states; lazy axioms, find-proofs.ts), the relations whose best
 * hypothesis saves most first, so that a budget cut short keeps the claims worth most (chess's
 * `cell`, behind 3 to 6 processor seconds of `check` hypotheses); then fewer rules first (cheap, and settled when
 * the budget stops the induction), claims on some keys before claims on every key of a relation
 * (so that those do not lean on them long), larger inputs first (their pairs close more often,
 * a pair open for them is tried first for the smaller ones, and those then leave with them: weaker).
 */
export function checkOrder(hyps: readonly Hypothesis[], keysOf: KeysOf, byRelation: ReadonlyMap<string, readonly NormalRule[]>, weights?: readonly number[]): number[] {
  const rules = (i: number): number => byRelation.get(hyps[i]!.relation)?.length ?? 0;
  const keyed = (i: number): number => (keysOf[i] === undefined ? 0 : 1);
  const heaviest = relationWeights(hyps, weights);
  const weight = (i: number): number => heaviest.get(hyps[i]!.relation) ?? 0;
  // Without weights (eager games) every count is 0: the order of before the weights.
  const written = weights === undefined ? hyps.map(() => 0) : hyps.map((h) => constantOutputs(h, byRelation.get(h.relation) ?? []));
  // With weights (lazy axioms), claims on some keys on fewer inputs first: a claim on more inputs
  // then skips the keys they imply (lifted.ts' keysNotImplied), and no weaker claim leaves with a
  // claim on some keys (weaker). alexChess: one square per piece (54 keys) before per piece and rank (421).
  const inputs = (i: number): number => (weights !== undefined && keyed(i) === 1 ? -hyps[i]!.input.length : hyps[i]!.input.length);
  return [...hyps.keys()].sort((x, y) => weight(y) - weight(x) || rules(x) - rules(y) || keyed(y) - keyed(x) || inputs(y) - inputs(x)
    || written[y]! - written[x]!);
}

/**
 * The `next` rules of `h`'s relation that write a constant (a ground term) at each of its output
 * positions. Among hypotheses of one relation with as many inputs, the one with more is checked
 * first (lazy axioms, {@link checkOrder}): two such rules writing the same constant agree on the
 * output whatever their bodies (a rule paired with itself included), so more of its pairs close
 * at once, where a variable output needs equalities from both bodies. chess's `check` (a piece
 * type per square: the type is a constant in all 8 rules) is true on [0,2,3] and false on [0,1,2]
 * and [0,1,3] (y and x are variables in every head), which took 1.3 processor seconds first and
 * left [0,2,3] to the budget's end (docs/mutex.md, samp31). Only an order: what the induction
 * accepts does not depend on it.
 */
function constantOutputs(h: Hypothesis, rules: readonly NormalRule[]): number {
  return rules.filter((r) => {
    const fluent = r.head.args[0];
    return fluent?.kind === 'fn' && h.output.every((p) => fluent.args[p] !== undefined && isGround(fluent.args[p]!));
  }).length;
}

/** What the sampled states say of each hypothesis (find-proofs.ts' sampledWorth; lazy axioms). */
export interface Worth {
  /** The bits its groups save, in proportion to the states occupying them ({@link checkOrder}). */
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
 * Per relation, the largest weight of its hypotheses (none without weights). A relation's
 * hypotheses stay together in the order, larger inputs first: a failed one takes its weaker
 * kin with it ({@link weaker}), which checking the heaviest hypothesis first (often the one on
 * no input, and false) would not.
 */
function relationWeights(hyps: readonly Hypothesis[], weights: readonly number[] | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (weights === undefined) return out;
  hyps.forEach((h, i) => out.set(h.relation, Math.max(out.get(h.relation) ?? 0, weights[i] ?? 0)));
  return out;
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
