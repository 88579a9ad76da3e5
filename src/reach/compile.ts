/**
 * Compiles the rules of one component into Tau-Prolog clauses, each variant when it first
 * runs, planned with statistics of the facts known by then: relations of lower components are
 * complete when their dependents run, so their sizes and per-argument distinct counts give
 * real join orders (a static order cannot tell a 4,000-fact table from a 40-fact one).
 * Members of a recursive component grow while it runs, so its plans are dropped when one of
 * them has grown fourfold, and made again on next use.
 */
import { isGround } from '../gdl/terms.js';
import { type ProjectionHistory, type TauTerm, toTau } from '../engine/tau.js';
import { clauseTerms, literalTarget, tableName, variantName } from './clauses.js';
import { type Estimates, type PlannedClause, type RuleShape, coreFirstApplies, planDistinctHeads, planVariant, ruleShape } from './plan.js';
import { type ProjectedPlan, planProjected } from './project.js';
import { planStaged } from './staged.js';
import { deferredParts, deltaDeferred } from './head-first.js';
import type { Run } from './run.js';
import { estimator } from './estimates.js';
import { type Component, type RelaxedRule, keyOf } from './relaxed.js';
import { uses } from './ablation.js';
import type { PlannedGoal } from './planned.js';


/** A rule with its semi-naive variants; each is planned and loaded only when first run. */
export interface CompiledRule {
  readonly rule: RelaxedRule;
  /** A ground fact, added without asking Prolog. */
  readonly fact: boolean;
  /** What planning needs of the rule (unused for a fact). */
  readonly shape: RuleShape;
  /** One variant per positive body literal that reads a relation of the rule's own component. */
  readonly deltas: readonly DeltaVariant[];
  /** The full table and ground arguments of each positive literal whose table is known. */
  readonly reads: readonly TableRead[];
}

/** What a positive literal reads from a full table (`F|…`): its ground arguments, null elsewhere. */
interface TableRead {
  readonly table: string;
  readonly pattern: readonly (TauTerm | null)[];
}

/** A semi-naive variant: its `deltaAt`-th positive literal reads relation `relKey`, table `table` if known. */
export interface DeltaVariant {
  readonly relKey: string;
  readonly deltaAt: number;
  readonly table?: string;
  /** The engine's name of the delta copy of `table` (`D|table`). */
  readonly deltaTable?: string;
  /** The delta literal's table arguments where ground, as engine terms (null elsewhere). */
  readonly pattern?: readonly (TauTerm | null)[];
}

/** A component's rules, and the clauses loaded for them under the current plan. */
export interface CompiledComponent {
  readonly rules: ReadonlyMap<RelaxedRule, CompiledRule>;
  readonly members: ReadonlySet<string>;
  /** Member sizes the loaded clauses were planned with. */
  planned: ReadonlyMap<string, number>;
  /** Loaded plans per rule and variant (`null`: the variant reading only full tables). */
  loaded: Map<RelaxedRule, Map<number | null, LoadedVariant>>;
  /**
   * Bindings already run by projected variants, per rule and part (`ProjectedPlan.partKey`),
   * as KIF texts; kept across replans (see src/reach/project.ts). Staged delta variants
   * (src/reach/staged.ts) keep theirs under `staged deltaAt|live variables`.
   */
  readonly seen: Map<RelaxedRule, Map<number | string, Set<string>>>;
}

/** How a variant runs: one clause, or a projected pair (src/reach/project.ts). */
export type VariantRun =
  | { readonly kind: 'clause'; readonly id: number }
  | {
    readonly kind: 'projected';
    /** Clause ids of the part and of the rest. */
    readonly part: number;
    readonly rest: number;
    readonly table: string;
    readonly arity: number;
    /**
     * The bindings run in earlier calls (shared by the part's variants); null: none are
     * skipped, each call removes only its own duplicates (a staged variant reading full
     * tables, which naive rounds run again over grown tables with no delta variant after).
     */
    readonly seen: Set<string> | null;
  };

/**
 * The plans of a variant with their estimated costs: the main plan (delta first for a delta
 * variant), and core first where it applies.
 */
interface LoadedVariant {
  readonly main: { readonly id: number; readonly cost: (deltaRows: number) => number };
  /** The estimates the plans were made with. */
  readonly estimates: Estimates;
  /** Planned when first worth it (null: does not apply); loaded into the engine on first use. */
  coreFirst?: { readonly plan: PlannedClause; id?: number } | null;
  /** The same for the projected plan. */
  projected?: { readonly plan: ProjectedPlan; run?: VariantRun } | null;
  /** The same for the head-first plan (src/reach/head-first.ts); `deltaDeferred`: its delta-deferred form. */
  headFirst?: { readonly plan: PlannedClause; readonly deltaDeferred: boolean; id?: number } | null;
  /** The same for the staged plan (src/reach/staged.ts). */
  staged?: { readonly plan: ProjectedPlan; run?: VariantRun } | null;
}

/** The rules of `comp` and their variants: a full one and one per literal of the component. */
export function compileComponent(run: Run, comp: Component): CompiledComponent {
  const members = new Set(comp.relations);
  const rules = new Map<RelaxedRule, CompiledRule>();
  for (const rule of comp.rules) {
    if (rule.body.length === 0 && rule.head.args.every(isGround)) {
      rules.set(rule, { rule, fact: true, shape: ruleShape(rule), deltas: [], reads: [] });
      continue;
    }
    const deltas: DeltaVariant[] = [];
    const reads: TableRead[] = [];
    // `i` counts positive literals only, as planVariant does.
    rule.body.filter((l) => l.kind === 'pos').forEach((l, i) => {
      const relKey = keyOf(l.atom);
      const { table, pattern } = literalTarget(l);
      // The same engine terms serve the full-table probe and the delta-table probe.
      const tau = pattern?.map((t) => (t === null ? null : toTau(t)));
      if (table !== undefined) reads.push({ table: tableName('F', table), pattern: tau! });
      if (!members.has(relKey)) return;
      deltas.push({ relKey, deltaAt: i, ...(table === undefined ? {} : { table, deltaTable: tableName('D', table), pattern: tau! }) });
    });
    rules.set(rule, { rule, fact: false, shape: ruleShape(rule), deltas, reads });
  }
  return { rules, members, planned: sizes(run, comp.relations), loaded: new Map(), seen: new Map() };
}

/**
 * How a variant runs, planning and loading it on first use. Variants are planned lazily
 * because most never run (their delta stays empty), and planning a game with hundreds of
 * rules up front, again at every replan, costs more than evaluating it. Of a delta variant's
 * plans, the one estimated cheapest for the `deltaRows` new facts of this round runs: delta
 * first grows with their number, core first mostly with the core's size, projected with the
 * distinct bindings the delta's part has.
 */
export function variantClause(run: Run, compiled: CompiledComponent, rule: RelaxedRule, deltaAt: number | null, deltaRows: number): VariantRun {
  let plans = compiled.loaded.get(rule);
  if (plans === undefined) compiled.loaded.set(rule, (plans = new Map()));
  let v = plans.get(deltaAt);
  const shape = compiled.rules.get(rule)!.shape;
  if (v === undefined) {
    // The floor is for plans reused as the tables grow. With semi-naive rounds the full variant
    // runs once, in round 0, on the tables as they are now (amazonsTorus' legal rule: planned on
    // the floor, it enumerated every empty cell's queen lines before the 8 queens, 0.4 s).
    const reused = deltaAt !== null || !uses(run.switches, 'semi-naive');
    const estimates = { order: estimator(run, compiled.members, reused), cost: estimator(run, compiled.members, false) };
    const plan = planVariant(run.nextId, shape, { deltaAt }, estimates);
    const chosen = withDistinctHeads(run, shape, deltaAt, plan, estimates);
    v = { main: { id: load(run, chosen), cost: chosen.cost }, estimates };
    plans.set(deltaAt, v);
  }
  const main: VariantRun = { kind: 'clause', id: v.main.id };
  run.estimate = v.main.cost(deltaRows);
  // The others can only pay where delta first is costly; each is planned the first time it is.
  if (run.estimate < CORE_FIRST_WORTH) return main;
  if (v.headFirst === undefined) {
    const deferred = uses(run.switches, 'head-first') ? deferredParts(shape, deltaAt === null ? undefined : shape.positives[deltaAt], v.estimates.order) : [];
    const plan = deferred.length === 0 ? undefined : planVariant(run.nextId, shape, { deltaAt, deferred }, v.estimates);
    const late = plan === undefined || deltaAt === null ? undefined : deltaDeferred(run.nextId, shape, deltaAt, deferred, plan, v.estimates);
    v.headFirst = plan === undefined ? null : { plan: late ?? plan, deltaDeferred: late !== undefined };
  }
  const headFirst = v.headFirst === null ? [] : [{ cost: v.headFirst.plan.cost(deltaRows), run: (): VariantRun => ({ kind: 'clause', id: (v.headFirst!.id ??= load(run, v.headFirst!.plan)) }) }];
  if (v.staged === undefined) {
    // The table's name takes an id of its own: ids are unique in the engine.
    const plan = uses(run.switches, 'staged') ? planStaged(shape, deltaAt, deltaRows, `T|${run.nextId++}`, v.estimates) : undefined;
    v.staged = plan === undefined ? null : { plan };
  }
  const staged = v.staged === null ? [] : [{ cost: STAGED_PENALTY * v.staged.plan.cost(deltaRows), run: (): VariantRun => (v.staged!.run ??= loadStaged(run, compiled, rule, deltaAt, v.staged!.plan)) }];
  if (deltaAt === null) return cheapest(run, [{ cost: run.estimate, run: () => main }, ...headFirst, ...staged]);
  if (v.projected === undefined && !uses(run.switches, 'projected')) v.projected = null;
  if (v.projected === undefined) {
    // The table's name takes an id of its own: ids are unique in the engine.
    const plan = planProjected(shape, deltaAt, `T|${run.nextId++}`, v.estimates);
    v.projected = plan === undefined ? null : { plan };
  }
  const projected = v.projected === null ? [] : [{ cost: v.projected.plan.cost(deltaRows), run: (): VariantRun => (v.projected!.run ??= loadProjected(run, compiled, rule, v.projected!.plan)) }];
  // Not weighed against delta first and core first: their estimates take the tests on the
  // delta's own variables as independent filters, and in chess they pass for most delta facts
  // (docs/corpus.md, reach23).
  if (v.headFirst?.deltaDeferred === true) return cheapest(run, [...headFirst, ...projected]);
  if (v.coreFirst === undefined) {
    v.coreFirst = uses(run.switches, 'core-first') && coreFirstApplies(shape, deltaAt) ? { plan: planVariant(run.nextId, shape, { deltaAt, coreFirst: true }, v.estimates) } : null;
  }
  return cheapest(run, [
    { cost: v.main.cost(deltaRows), run: (): VariantRun => main },
    ...(v.coreFirst === null ? [] : [{ cost: v.coreFirst.plan.cost(deltaRows), run: (): VariantRun => ({ kind: 'clause', id: (v.coreFirst!.id ??= load(run, v.coreFirst!.plan)) }) }]),
    ...projected,
    ...headFirst,
    ...staged,
  ]);
}

/** Runs (loads on first use) the option estimated cheapest; ties keep the earlier option. */
function cheapest(run: Run, options: readonly { readonly cost: number; readonly run: () => VariantRun }[]): VariantRun {
  let best = options[0]!;
  for (const o of options) if (o.cost < best.cost) best = o;
  run.estimate = best.cost;
  return best.run();
}

/** Loads the two clauses of a projected plan; the bindings memo is the rule part's own. */
function loadProjected(run: Run, compiled: CompiledComponent, rule: RelaxedRule, plan: ProjectedPlan): VariantRun {
  let parts = compiled.seen.get(rule);
  if (parts === undefined) compiled.seen.set(rule, (parts = new Map()));
  let seen = parts.get(plan.partKey);
  if (seen === undefined) parts.set(plan.partKey, (seen = new Set()));
  const part = load(run, plan.part);
  const rest = load(run, plan.rest);
  return { kind: 'projected', part, rest, table: plan.table, arity: plan.shared.length, seen };
}

/**
 * Loads the two clauses of a staged plan. A delta variant skips the live bindings it ran in an
 * earlier round (as a projected one does): their heads were derived with the rest as it was
 * then, and what the rest gained since is joined by the rest's own delta variants, which read
 * the prefix's full tables. The variant reading full tables keeps no memo.
 */
function loadStaged(run: Run, compiled: CompiledComponent, rule: RelaxedRule, deltaAt: number | null, plan: ProjectedPlan): VariantRun {
  let seen: Set<string> | null = null;
  if (deltaAt !== null) {
    let parts = compiled.seen.get(rule);
    if (parts === undefined) compiled.seen.set(rule, (parts = new Map()));
    const key = `staged ${deltaAt}|${plan.shared.join(' ')}`;
    seen = parts.get(key) ?? null;
    if (seen === null) parts.set(key, (seen = new Set()));
  }
  const part = load(run, plan.part);
  const rest = load(run, plan.rest);
  return { kind: 'projected', part, rest, table: plan.table, arity: plan.shared.length, seen };
}

/**
 * How much cheaper a staged plan must be estimated than the others to run. Each answer of its
 * prefix is also made a KIF key and looked up in a set on the JavaScript side, and the estimates
 * do not see what `once` and the known-head test save the one-clause plans: on the bids game of
 * test/staged.test.ts the staged plan of the full variant was estimated at 2,492 states against
 * 2,755 and returned 1,247 answers against 110. attritionWar's score rules, where it pays 20
 * times over, estimate it 2 to 48 times cheaper.
 */
const STAGED_PENALTY = 2;

/**
 * Estimated states below which a delta-first plan is not worth comparing with core first.
 * Planning and loading a second variant clause costs about as much as a few dozen join steps
 * in Tau-Prolog, so below that order of magnitude the comparison cannot pay for itself; 64 is
 * that order of magnitude, not a measured optimum.
 */
const CORE_FIRST_WORTH = 64;

/**
 * The full variant's plan, or its distinct-heads plan (see `planDistinctHeads`) when that is
 * estimated at most half as costly; the table projection it reads is defined on the way.
 */
function withDistinctHeads(run: Run, shape: RuleShape, deltaAt: number | null, plan: PlannedClause, estimates: Estimates): PlannedClause {
  if (deltaAt !== null || !uses(run.switches, 'distinct-heads')) return plan;
  const distinct = planDistinctHeads(run.nextId, shape, estimates);
  if (distinct === undefined || 2 * distinct.plan.cost(0) > plan.cost(0)) return plan;
  const p = distinct.projection;
  return run.engine.defineProjection(tableName('F', p.table), p.keep, p.name) ? distinct.plan : plan;
}

/**
 * Loads a planned clause into the engine under a fresh id. The tables it calls are defined
 * first, if still without facts: a call of an undefined predicate would fail too, but through
 * Tau-Prolog's slow generic step (games call move tables nobody has made a move of for rounds).
 */
function load(run: Run, planned: PlannedClause): number {
  const id = run.nextId++;
  const exists = uses(run.switches, 'existence') ? planned : { ...planned, goals: withoutExistence(planned.goals) };
  const plan = uses(run.switches, 'dead-projection') ? exists : { ...exists, goals: exists.goals.map(unprojected) };
  const calls = [...plan.goals];
  while (calls.length > 0) {
    const g = calls.pop()!;
    if (g.kind === 'call' && g.projects !== undefined) {
      run.engine.defineTable(g.projects.base, g.projects.args.length);
      run.engine.defineProjection(g.projects.base, g.projects.keep, g.name, g.projects.all === true ? undefined : deltaHistory(run, g.projects.base));
    } else if (g.kind === 'call') run.engine.defineTable(g.name, g.args.length);
    else if (g.kind === 'once') calls.push(...g.goals);
    else if (g.kind === 'absent') calls.push(g.call);
  }
  const c = clauseTerms({ ...plan, name: variantName(id) });
  run.engine.addClause(c.head, c.body);
  return id;
}

/**
 * For the projection of a delta table, the facts its table held before this round: a tuple
 * they project to is not new, and each tuple then enters the projection once over the run.
 * Sound for semi-naive rounds: the dropped variables occur nowhere else in the rule, so a new
 * fact whose tuple an old fact had joins exactly where that old fact joined; with old facts
 * elsewhere in the body that derived its heads in an earlier round, and with a new fact
 * elsewhere the variant whose delta is that literal derives them (it reads this one's full
 * table). Undefined for any other table, and with `fresh-projection` off.
 */
function deltaHistory(run: Run, base: string): ProjectionHistory | undefined {
  if (!uses(run.switches, 'fresh-projection') || !uses(run.switches, 'semi-naive')) return undefined;
  const t = run.store.tables.get(base.slice(2));
  if (t === undefined || t.deltaName !== base) return undefined;
  return { table: t.fullName, count: run.engine.tableSize(t.fullName) - run.engine.tableSize(t.deltaName) };
}

/** A goal that reads a projection of a table (`projects`) as the call of the table itself. */
function unprojected(g: PlannedGoal): PlannedGoal {
  return g.kind === 'call' && g.projects !== undefined ? { kind: 'call', name: g.projects.base, args: g.projects.args } : g;
}

/**
 * The goals with every `once` opened and every `'$gdl_absent'` test dropped: each existence
 * test then enumerates all its bindings (the ablation of `existence`, src/reach/ablation.ts).
 */
function withoutExistence(goals: readonly PlannedGoal[]): PlannedGoal[] {
  return goals.flatMap((g) => (g.kind === 'once' ? withoutExistence(g.goals) : g.kind === 'absent' ? [] : [g]));
}

/**
 * Forgets the loaded clauses when a member relation has grown at least fourfold (to at least
 * {@link REPLAN_FROM} facts) since they were planned: the next use plans them again.
 */
export function replanIfGrown(run: Run, compiled: CompiledComponent): void {
  if (!uses(run.switches, 'replan')) return;
  for (const [key, was] of compiled.planned) {
    const now = run.store.relations.get(key)?.ids.size ?? 0;
    if (now >= 4 * Math.max(was, REPLAN_FROM / 4)) {
      compiled.planned = sizes(run, [...compiled.planned.keys()]);
      compiled.loaded = new Map();
      return;
    }
  }
}

/**
 * Tables smaller than this are planned for once: replanning them costs more than it saves.
 * A join over tables of a few dozen rows costs less than reloading the variant clauses a new
 * plan needs (the same order of magnitude as {@link CORE_FIRST_WORTH}; not a measured optimum).
 */
const REPLAN_FROM = 64;

function sizes(run: Run, keys: readonly string[]): Map<string, number> {
  return new Map(keys.map((k) => [k, run.store.relations.get(k)?.ids.size ?? 0]));
}
