/**
 * "At most one" hypotheses proven on the rules with variables (docs/mutex.md, section 2a), in
 * the spirit of Helmert's invariant synthesis (Fast Downward, translate/invariants.py) adapted
 * to GDL, where `next` defines the whole successor state. A hypothesis (relation f, input
 * positions I) claims: in every reachable state, for every key, at most one `f` fluent with
 * those input arguments is true. A set S of such claims is an invariant when the initial state
 * satisfies it and, for every pair of `next` rule schemas with head `f` (a rule paired with a
 * renamed copy of itself included), the two bodies cannot both hold in one state satisfying S
 * under one joint move when the heads agree on I and differ elsewhere. "Cannot" is shown
 * syntactically, and only then: a `distinct` whose sides become identical, an atom both
 * required and forbidden, two `does` of one role (one move per role: their actions unify), two
 * `true` atoms of a claim of S with identical inputs (their outputs unify). Anything else
 * counts as possible, so the answer is "proven" or "unknown", never wrong.
 */
import type { Deadline } from '../deadline.js';
import { type Term, mkConst } from '../gdl/ast.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import type { Hypothesis } from './candidates.js';
import { type Assumed, type Refute, type StaticFacts, closes } from './lifted-core.js';
import { everyRoleMoves } from './lifted-moves.js';
import { derivedFunctions, functionalStatics, withFunctions } from './lifted-functional.js';
import { type Subst, renameRule, unify } from './lifted-terms.js';
import { type RuleBase, inlinedLegal, ruleBase, unfoldedCasesClose } from './lifted-unfold.js';
import { relaxedBounds } from './lifted-bounds.js';
import { termRel } from './lifted-relax.js';
import { THROUGH_RULES, forbiddenDerived } from './lifted-entail.js';
import { type Implication, impliedAtoms } from './implications.js';
import { implicationRules, implicationStep } from './lifted-alo.js';
import { provenExistence } from './lifted-exists.js';
import { type DerivedFailures, transitionFunctions } from './lifted-derived.js';
import { expandedNexts } from './lifted-expand.js';
import { memberCasesClose } from './lifted-exactly.js';
import { type Exclusion, proveExclusions, withExclusions } from './lifted-exclusion.js';
import { type Failed, type InductionTask, type OpenKeys, type Worth, assumedOf, heaviestFirst, induce, keyText, occupiedAlone } from './lifted-induction.js';
import { checkOrder } from './lifted-check-order.js';
import { keysNotImplied, merged, perKeyUses } from './lifted-keys.js';
import { type OrderFact, proveOrders, withOrders } from './lifted-order.js';
import type { MutexView } from './view.js';


/** Limits of the lifted proof. */
interface LiftedLimits {
  readonly deadline: Deadline;
  /** Rule pairs checked before the lifted proof gives up (every claim then counts as unknown). */
  readonly maxPairs: number;
  /** Arguments of every fluent of the ground game, per `name/arity` (lifted-unfold.ts; default none known). */
  readonly fluents?: StaticFacts;
  /**
   * Implications between two relations that the sampled states (the initial one included, the
   * base case) satisfy (implications.ts): proven in the same induction as the hypotheses.
   */
  readonly implications?: readonly Implication[];
  /** Exclusions between two relations that the sampled states satisfy (lifted-exclusion.ts, 2g): proven first, then assumed. */
  readonly exclusions?: readonly Exclusion[];
  /** Whole relations some member of which is assumed true in the current state (lifted-exactly.ts, 2g). */
  readonly exactly?: readonly (readonly Term[])[];
  /** Order facts between a counter and a record that the sampled states satisfy (lifted-order.ts, 2k): proven after the induction, then assumed. */
  readonly orders?: readonly OrderFact[];
  /**
   * Where the derived relations' claims that failed are kept (lifted-derived.ts), shared by the
   * lifted proofs of one stage over the same hypotheses (the joint one of 2g repeats the first's
   * induction; default: one of its own).
   */
  readonly derivedFailed?: DerivedFailures;
  /** What the sampled states say each hypothesis is worth: an order, and a first subset proven alone (lifted-induction.ts; lazy axioms; default neither). */
  readonly worth?: Worth;
  /**
   * Per hypothesis, the bits its groups save in the sampled states (sampledWorth), for every game:
   * a partial claim worth more than the rest together is proven alone before them (lifted-induction.ts' heaviestFirst; default none).
   */
  readonly weights?: readonly number[];
  /**
   * A claim on some keys keeps the keys whose step holds when others fail (lazy axioms, where the
   * lifted proofs are all there is: alexChess). Default false, all or nothing: an eager game's
   * ground SAT proves what is left, and checking every key of a failing claim costs the budget.
   */
  readonly perKey?: boolean;
}

/**
 * Per hypothesis whether "at most one per key" is proven (for every key, or for the keys of
 * `partial` when the hypothesis was offered only for those), the proven claims as assumptions
 * for lifted-alo.ts, and the rule pairs checked.
 */
interface LiftedResult {
  readonly proven: readonly boolean[];
  readonly assumed: Assumed;
  /** The implications proven (with the proven hypotheses). */
  readonly implied: readonly Implication[];
  readonly pairs: number;
  /**
   * The pair limit or the deadline stopped an induction before it settled every claim: a claim
   * left open may be one the budget cut, not one whose proof failed (find-proofs.ts labels them).
   */
  readonly cut: boolean;
  /**
   * Per hypothesis offered on some keys only, the keys (as lifted-induction.ts' {@link keyText}) its
   * claim is proven for: those offered less those whose step failed; undefined: a claim on every key.
   */
  readonly keys: readonly (ReadonlySet<string> | undefined)[];
  /**
   * Per hypothesis not proven, what of it failed in the induction over every claim (and those
   * after it), each step checked to its end before the budget ran out (lifted-induction.ts'
   * {@link Failed}): find-proofs.ts labels those claims "observed only" when the induction was cut
   * later. Failures in the inductions over some claims before it (proven alone first) are not
   * recorded: the one over every claim checks them again with more assumed. Empty when none ran.
   */
  readonly failed: readonly Failed[];
}

/** What a pair check reads besides the two rules. */
interface Context {
  readonly assumed: Assumed;
  /** The implications assumed of the current state. */
  readonly implied: readonly Implication[];
  /** The `legal` rules of the game, each `legal(R, A)` with its body. */
  readonly legal: readonly NormalRule[];
  /** Static facts and unfoldable derived rules (lifted-unfold.ts). */
  readonly base: RuleBase;
  readonly deadline: Deadline;
  /** Fresh tags for renaming unfolded rules apart. */
  readonly counter: { tag: number };
  /** Whole relations with a member true in the current state: a pair left open is split over which (2g). */
  readonly exactly: readonly (readonly Term[])[];
  /** A pair left open that forbids what a move makes true: its bodies with every role's move, checked again with `deep` (2l). */
  readonly moves?: (body: readonly Literal[], s: Subst) => Literal[] | undefined;
  readonly deep?: Refute;
}

/** Most cases (one `legal` rule per `does` fact of the pair) a pair check splits into. */
const MAX_LEGAL_CASES = 256;

/**
 * Whether two `next` rules with head relation f cannot both fire for one key with different
 * outputs in a state satisfying the assumed claims (true: refuted; false: unknown).
 */
function pairRefuted(r1: NormalRule, r2: NormalRule, input: readonly number[], ctx: Context, at?: readonly Term[]): boolean {
  const a = renameRule(r1, '1');
  const b = renameRule(r2, '2');
  const t1 = a.head.args[0]!;
  const t2 = b.head.args[0]!;
  if (t1.kind !== 'fn' || t2.kind !== 'fn') return false;
  const s: Subst = new Map();
  if (!input.every((i) => unify(t1.args[i]!, t2.args[i]!, s))) return true;
  // A claim on one key only: both heads have that key.
  if (at !== undefined && !input.every((i, j) => unify(t1.args[i]!, at[j]!, s))) return true;
  const outputs = [...t1.args.keys()].filter((i) => !input.includes(i));
  const goal: [Term[], Term[]] = [outputs.map((i) => t1.args[i]!), outputs.map((i) => t2.args[i]!)];
  const both = [...a.body, ...b.body];
  // The implied atoms of the current state's fluents hold too (assumed, as the `true` atoms' claims are).
  const body = [...both, ...impliedAtoms(both, s, ctx.implied, ctx.counter)];
  // The cheap checks first (what the proof could always close), then the unfolding of derived relations.
  return bodiesClose(body, s, goal, ctx);
}

/** Whether the conjunction closes: the cheap checks first, then the `legal` cases, the unfolding, the members' split (2g). */
function bodiesClose(body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]], ctx: Context): boolean {
  const check = (b: readonly Literal[], t: Subst): boolean =>
    closes(b, t, goal, ctx.assumed, ctx.base.facts, ctx.base.over, ctx.base.refute, ctx.base.fluents) || legalCasesClose(b, t, goal, ctx) || unfoldedCasesClose(b, t, goal, ctx);
  if (check(body, s) || memberCasesClose(body, s, ctx.exactly, check)) return true;
  // Every role moves, and forbidden atoms are entailed through chains of rules (lifted-moves.ts, 2l).
  const moved = ctx.moves?.(body, s);
  return moved !== undefined && ctx.deep !== undefined && bodiesClose(moved, s, goal, { ...ctx, base: { ...ctx.base, refute: ctx.deep }, moves: undefined });
}

/** Two constants no game has (a space in their names): as a goal, they never become identical. */
const NO_GOAL: readonly [Term[], Term[]] = [[mkConst(' one')], [mkConst(' other')]];

/** Whether two `next` rules (of the two relations of an exclusion) cannot both fire, whatever their heads (2g). */
function pairExcluded(r1: NormalRule, r2: NormalRule, ctx: Context): boolean {
  return bodiesClose([...renameRule(r1, '1').body, ...renameRule(r2, '2').body], new Map(), NO_GOAL, ctx);
}

/**
 * A joint move is legal: every `does(R, A)` of the bodies needs some `legal` rule with a head
 * unifying with `legal(R, A)` whose body holds in the same state. Splits into one case per
 * choice of such rules (renamed apart); the pair is refuted when every case closes.
 */
function legalCasesClose(body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]], ctx: Context): boolean {
  const does = body.flatMap((l) => (l.kind === 'pos' && l.atom.rel === 'does' && l.atom.args.length === 2 ? [l.atom] : []));
  if (does.length === 0) return false;
  const cases = does.reduce((n) => n * ctx.legal.length, 1);
  if (cases > MAX_LEGAL_CASES) return false;
  for (let c = 0; c < cases; c++) {
    const t: Subst = new Map(s);
    const extra: Literal[] = [];
    let possible = true;
    for (let k = 0, rest = c; k < does.length && possible; k++, rest = Math.floor(rest / ctx.legal.length)) {
      const r = renameRule(ctx.legal[rest % ctx.legal.length]!, `L${k}`);
      possible = unify(does[k]!.args[0]!, r.head.args[0]!, t) && unify(does[k]!.args[1]!, r.head.args[1]!, t);
      extra.push(...r.body);
    }
    // A choice whose heads do not fit the moves is no case at all.
    if (possible && !closes([...body, ...extra], t, goal, ctx.assumed, ctx.base.facts, ctx.base.over, ctx.base.refute, ctx.base.fluents)) return false;
  }
  return true;
}

/** Per hypothesis, whether the initial state has at most one member in each of its groups. */
function initiallyAmo(view: MutexView, hyps: readonly Hypothesis[]): boolean[] {
  const init = new Set(view.init);
  return hyps.map((h) => h.groups.every((g) => g.filter((f) => init.has(f)).length <= 1));
}

/** One group offered alone: its key (the input arguments as terms) and its members (fluent indexes). */
export interface KeyedGroup {
  readonly key: readonly Term[];
  readonly members: readonly number[];
}

/**
 * Proves "at most one per key" for the hypotheses marked `candidate` (those no sampled state
 * refuted): the greatest subset whose every rule pair is refuted assuming the subset. A
 * hypothesis not a candidate but with `partial` keys (the input arguments of its groups that
 * survived the sampling) is tried for those keys only, each pair with the heads' key fixed.
 * The induction is scheduled by lifted-induction.ts; when the budget stops it, what is settled
 * there is proven (docs/mutex.md, 2a "Scheduling the induction").
 */
export function proveLifted(
  normal: NormalGame, view: MutexView, hyps: readonly Hypothesis[], candidate: readonly boolean[], limits: LiftedLimits,
  partial: readonly (readonly KeyedGroup[] | undefined)[] = [],
): LiftedResult {
  const exact = ruleBase(normal, limits.fluents ?? new Map());
  // A `next` rule whose fluent is a variable is read over the static facts that bind it (2i).
  const nexts = expandedNexts(normal.rules.filter((r) => r.head.rel === 'next' && r.head.args.length === 1), exact.facts);
  const none = { proven: hyps.map(() => false), assumed: new Map(), implied: [], pairs: 0, cut: false, keys: [], failed: [] };
  // A `next` rule whose fluent is not a compound term could make any relation true: give up.
  if (nexts === undefined || nexts.some((r) => r.head.args[0]!.kind !== 'fn' && r.head.args[0]!.kind !== 'const')) return none;
  const byRelation = new Map<string, NormalRule[]>();
  for (const r of nexts) {
    const t = r.head.args[0]!;
    if (t.kind === 'var') continue; // none: checked above
    const rel = termRel(t);
    byRelation.set(rel, [...(byRelation.get(rel) ?? []), r]);
  }
  // A `legal` rule passing the move on to another relation is read as that relation's rules.
  const legal = inlinedLegal(normal.rules.filter((r) => r.head.rel === 'legal' && r.head.args.length === 2), exact.rules);
  const init = initiallyAmo(view, hyps);
  // Keys of a partial claim: the sampled states (the initial one included) had at most one member.
  // The base case of a partial claim: the initial state has at most one member of each group.
  const initSet = new Set(view.init);
  const keysOf = hyps.map((h, i) => (candidate[i] === true || h.relation.endsWith('/0') ? undefined
    : partial[i]?.filter((g) => g.members.filter((f) => initSet.has(f)).length <= 1).map((g) => g.key)));
  const active = hyps.map((h, i) => ((candidate[i] === true && init[i] === true) || (keysOf[i]?.length ?? 0) > 0) && !h.relation.endsWith('/0'));
  let pairs = 0;
  const statics = functionalStatics(normal);
  // Bounds of the derived relations (lifted-bounds.ts): what unfolding cannot see through, recursion included.
  const over = active.some((a) => a) ? relaxedBounds(normal, exact.facts, exact.fluents, limits.deadline) : new Map();
  const refute = forbiddenDerived(exact.rules, exact.facts);
  // Functional dependencies of derived relations, read off their bounds when a case first needs one.
  const derived = derivedFunctions(normal, exact.facts, over);
  // Exclusions between two relations (2g): an invariant of their own, proven first and then assumed.
  const exclusions = active.some((a) => a) ? limits.exclusions ?? [] : [];
  const exclusionsAssuming = (amo: Assumed): Exclusion[] => (exclusions.length === 0 ? [] : proveExclusions(exclusions, (rel) => byRelation.get(rel) ?? [],
    (r1, r2, set) => pairExcluded(r1, r2, { assumed: withFunctions(amo, derived), implied: [], legal, base: { ...exact, over, refute: set }, deadline: limits.deadline, counter: { tag: 0 }, exactly: [] }),
    (set) => withExclusions(refute, set), () => limits.deadline.passed()));
  const excluded = exclusionsAssuming(statics);
  let base = { ...exact, over, refute: withExclusions(refute, excluded) };
  // 2l: the pairs left open that forbid what a move makes true, again with every role's move.
  const deepOf = (set: readonly Exclusion[]): Refute => withExclusions(forbiddenDerived(exact.rules, exact.facts, THROUGH_RULES), set);
  let phase = { moves: everyRoleMoves(normal, (exact.facts.get('role/1') ?? []).map((r) => r[0]!), { tag: 0 }), deep: deepOf(excluded) };
  const imps = limits.implications ?? [];
  const stepRules = implicationRules(normal);
  // "Some fluent per key" facts for the implications' steps (2e): proven alone first, an invariant of their own.
  const exists = imps.length === 0 ? [] : provenExistence(normal, view, hyps, exact.fluents, statics, limits.deadline);
  const known = new Map<string, Pair[]>();
  let deadline = limits.deadline;
  // Derived relations functional within one transition, given the state's claims (2i): proven on demand per set of claims.
  const transition = transitionFunctions(normal, exact.facts, [...byRelation.keys()], (body, s, goal, assumed, within) =>
    bodiesClose(body, s, goal, { assumed, implied: [], legal, base, deadline: within, counter: { tag: 0 }, exactly: [] }), () => deadline, limits.derivedFailed);
  const task: InductionTask = {
    hyps, keysOf, statics, order: checkOrder(hyps, keysOf, byRelation, limits.worth?.weights), imps,
    check: (i, assumed, implied, keys) => {
      const uses = perKeyUses(assumed);
      return allPairsRefuted(byRelation.get(hyps[i]!.relation) ?? [], hyps[i]!.input,
        { assumed: transition(withFunctions(uses.assumed, derived)), implied, legal, base, deadline, counter: { tag: 0 }, exactly: limits.exactly ?? [], ...phase }, knownFor(known, hyps[i]!.relation), uses.settle, limits.perKey === true, keysNotImplied(hyps[i]!, keys, assumed));
    },
    implicationStep: (j, assumed, implied) => implicationStep(stepRules, imps[j]!, assumed, implied, deadline, exists),
    stop: (i, keys) => {
      const rules = byRelation.get(hyps[i]!.relation)?.length ?? 0;
      pairs += ((rules * (rules + 1)) / 2) * (keys?.length ?? 1);
      return pairs > limits.maxPairs ? 'pairs' : deadline.passed() ? 'deadline' : undefined;
    },
    spent: () => deadline.passed(),
  };
  // Claims on every key first, as an invariant of their own: what they prove stands when the budget
  // stops the whole induction, which a costly partial claim they leaned on (chess's pieces) would lose.
  const everyKey = active.map((a, i) => a && keysOf[i] === undefined);
  // Before them, with the sample's worth (lazy axioms), the claims on every key whose groups every sampled state occupied, alone: an invariant of their own.
  const heavy = occupiedAlone(active, keysOf, limits.worth);
  // In the plain order (fewer rules first): when the budget cuts it, the cheap claims (`control`, `step`) are settled.
  const alone = heavy === undefined ? undefined : induce({ ...task, order: checkOrder(hyps, keysOf, byRelation) }, heavy, [], false);
  if (alone?.outcome === 'pairs') return { ...none, pairs, cut: true };
  const fixed = alone?.proven ?? [];
  const plain = alone?.outcome === 'deadline' ? alone : active.some((a, i) => a && keysOf[i] !== undefined) ? induce(task, everyKey, fixed, false) : undefined;
  if (plain?.outcome === 'pairs') return { ...none, pairs, cut: true };
  // Those it dropped again, its proven fixed, with the implications (2d): atariGo_7x7's `group` on
  // every key needs them, and without them waited behind the partial claims (2.5 of the 2.9 s their
  // half gave), lost under load. Not all at once: the implications cost wargame02 its `location`.
  const first = plain?.outcome === 'done' && imps.length > 0 && everyKey.some((a, i) => a && plain.proven[i] !== true)
    ? induce(task, everyKey, plain.proven, true) : plain;
  if (first?.outcome === 'pairs') return { ...none, pairs, cut: true };
  // The whole set then gets half of what is left: the exactly-one proofs after it (lifted-alo.ts) are cheap and worth more.
  if (first !== undefined) deadline = limits.deadline.shareOfRest(0.5);
  // The claims on every key that failed alone are checked first: a failure found after the partial
  // claims were checked (and leaned on it) has them checked again, which cost ttcc4 its budget.
  const failed = first?.outcome === 'done' ? everyKey.map((e, i) => e && first.proven[i] !== true) : [];
  const second = { ...task, order: [...task.order.filter((i) => failed[i]), ...task.order.filter((i) => !failed[i])] };
  // The partial claim worth most bits, alone first: what it proves stands when the budget cuts the
  // induction below, where it leans on claims that fail later in it (snakeAssemblit's `cell` [2]).
  const lone = first?.outcome === 'deadline' ? undefined : heaviestFirst(task, active, first?.proven ?? fixed, limits.weights);
  if (lone?.outcome === 'pairs') return { ...none, pairs, cut: true };
  const result = first?.outcome === 'deadline' ? first : lone?.outcome === 'deadline' ? lone : induce(second, active, lone?.proven ?? first?.proven ?? fixed, true);
  if (result.outcome === 'pairs') return { ...none, pairs, cut: true };
  let { proven, implied, keys } = result;
  // What failed: only the induction over every claim says (when the budget stopped one over some
  // claims before it, their failures are not verdicts: the one over all would check them again).
  let failures = first?.outcome === 'deadline' || lone?.outcome === 'deadline' ? [] : result.failed;
  let cut = result.outcome === 'deadline';
  // The exclusions left open, tried again assuming the claims just proven (2g): with more, the induction again.
  if (excluded.length < exclusions.length && result.outcome === 'done') {
    const more = exclusionsAssuming(assumedOf(hyps, proven, keys, statics));
    base = { ...exact, over, refute: withExclusions(refute, more) };
    phase = { ...phase, deep: deepOf(more) };
    const again = more.length > excluded.length ? induce(task, active, first?.proven ?? fixed, true, keys) : undefined;
    cut ||= again !== undefined && again.outcome !== 'done';
    if (again !== undefined) failures = thenFailed(failures, again.failed);
    if (again !== undefined && again.outcome !== 'pairs') ({ proven, implied, keys } = { ...merged(proven, keys, again), implied: again.implied });
  }
  // Order facts between a counter and a record (2k), proven assuming the claims just proven: with some, the induction again.
  const orders = result.outcome === 'done' && proven.some((p) => p) ? limits.orders ?? [] : [];
  const amo = withFunctions(assumedOf(hyps, proven, keys, statics), derived);
  const ordered = orders.length === 0 ? [] : proveOrders(orders, (rel) => byRelation.get(rel) ?? [], (body, s, extra) => bodiesClose(body, s, NO_GOAL,
    { assumed: amo, implied: [], legal, base: { ...base, refute: (b, t) => extra(b, t) || base.refute(b, t) }, deadline: limits.deadline, counter: { tag: 0 }, exactly: [] }), () => limits.deadline.passed());
  if (ordered.length > 0) {
    base = { ...base, refute: withOrders(base.refute, ordered) };
    const again = induce(task, active, proven, true, keys);
    cut ||= again.outcome !== 'done';
    failures = thenFailed(failures, again.failed);
    if (again.outcome !== 'pairs') ({ proven, implied, keys } = { ...merged(proven, keys, again), implied: again.implied });
  }
  return { proven, assumed: assumedOf(hyps, proven, keys, statics), implied, pairs, cut, keys: keys.map((ks) => (ks === undefined ? undefined : new Set(ks.map(keyText)))), failed: failures };
}

/**
 * What failed in an induction over every claim, then in one after it that started from its keys
 * and checked again every claim not proven: a claim that left whole failed only if it failed again
 * (the later check, with more known, is its verdict; one the budget cut first is not failed), the
 * keys a claim lost in either (the later one never checks a lost key again).
 */
function thenFailed(before: readonly Failed[], after: readonly Failed[]): Failed[] {
  return after.map((a, i) => ({ ...a, lost: new Set([...(before[i]?.lost ?? []), ...a.lost]) }));
}

/** Two `next` rules (indexes into a relation's rules) checked as a pair. */
type Pair = readonly [number, number];

/** The pairs of `relation` that some check could not refute (tried first by the next), made when first asked. */
function knownFor(known: Map<string, Pair[]>, relation: string): Pair[] {
  let list = known.get(relation);
  if (list === undefined) known.set(relation, (list = []));
  return list;
}

/**
 * Whether every unordered pair of the rules (a rule with itself included) is refuted, for every
 * key of `keys` when given: true, or false (a claim on every key with a pair open; without
 * `perKey`, any key given with one), or the keys with a pair open (each key is a claim of its own:
 * lifted-induction.ts keeps the others; `whole` when that is every key given), and of those the
 * ones found open before the deadline (`failed`: no case of their check was cut by it).
 * The pairs of `known` (not refuted before, for another hypothesis of the relation or another
 * key) are tried first: the answer is the same in any order, and a false hypothesis usually fails
 * on one of them. A pair found open is added to `known`. `settle` is told after each key whether
 * its step was shown ({@link perKeyUses}).
 */
function allPairsRefuted(rules: readonly NormalRule[], input: readonly number[], ctx: Context, known: Pair[], settle: (shown: boolean) => void, perKey: boolean, keys?: readonly (readonly Term[])[]): boolean | OpenKeys {
  const all: Pair[] = [];
  for (let x = 0; x < rules.length; x++) for (let y = x; y < rules.length; y++) all.push([x, y]);
  const open = new Set<readonly Term[]>();
  const failed = new Set<readonly Term[]>();
  for (const at of keys ?? [undefined]) {
    const first = new Set(known.map(([x, y]) => x * rules.length + y));
    const pair = [...known, ...all.filter(([x, y]) => !first.has(x * rules.length + y))].find(([x, y]) => !pairRefuted(rules[x]!, rules[y]!, input, ctx, at));
    settle(pair === undefined);
    if (pair === undefined) continue;
    if (!first.has(pair[0] * rules.length + pair[1])) known.push(pair);
    if (at === undefined || !perKey) return false;
    open.add(at);
    // Found open before the deadline: no case of this key's check was cut by it (lifted-unfold.ts).
    if (!ctx.deadline.passed()) failed.add(at);
  }
  return open.size === 0 ? true : { open, whole: open.size === keys!.length, failed };
}
