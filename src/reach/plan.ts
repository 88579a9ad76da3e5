/**
 * Join planning for the variant clauses of the relaxed game: the order of a body's goals and
 * which runs of them only test existence (`once`). What planning needs of a rule (variables
 * of each literal and of each table argument, which table a literal reads) is computed once
 * per rule as its {@link RuleShape}; a component's rules are planned again whenever its
 * tables have grown, so this part is kept cheap.
 */
import type { Term } from '../gdl/ast.js';
import { collectVars } from '../gdl/terms.js';
import { atomCall, tableArgs, variantName } from './clauses.js';
import { greedyOrder } from '../datalog/plan.js';
import { type Domains, containment, noteDomains } from './domains.js';
import type { RelaxedRule } from './relaxed.js';
import type { Estimates, InnerBound, LiteralShape, PlannedClause, PlannedGoal, RowEstimate, RuleShape } from './planned.js';

export type { Estimates, LiteralShape, PlannedClause, RowEstimate, RuleShape } from './planned.js';

/**
 * Without statistics: every bound argument divides a nominal 1000 rows by 10. Only the order
 * of the estimates matters here (more bound arguments first); 1000 and 10 keep the same order
 * of magnitude as the growing floor of the statistics-based estimate (src/reach/compile.ts).
 */
const NOMINAL_ESTIMATE: RowEstimate = (_r, _t, boundArgs) => 1000 / 10 ** boundArgs.filter((b) => b).length;

/** Which variant of a rule to plan. */
interface VariantSpec {
  /** The positive literal that reads the delta table (null: every literal reads the full tables). */
  readonly deltaAt: number | null;
  /**
   * Core first: the delta literal goes after all other positive literals, where it only
   * tests existence (see {@link coreFirstApplies}). Otherwise it goes first.
   */
  readonly coreFirst?: boolean;
  /**
   * Head first: these parts of the body go last, each in turn, after the head is bound
   * (`deferredParts`, src/reach/head-first.ts).
   */
  readonly deferred?: readonly (readonly LiteralShape[])[];
}

const varsOf = (terms: readonly Term[]): string[] => {
  const out = new Set<string>();
  for (const t of terms) collectVars(t, out);
  return [...out];
};

/** The shape of a rule. */
export function ruleShape(rule: RelaxedRule): RuleShape {
  const literals = rule.body.map((lit): LiteralShape => {
    if (lit.kind === 'distinct') return { lit, vars: varsOf([lit.left, lit.right]) };
    const t = tableArgs(lit);
    const argVars = t.args.map((a) => varsOf([a]));
    const full: PlannedGoal = { kind: 'call', ...atomCall(lit, 'F') };
    const delta: PlannedGoal = { kind: 'call', ...atomCall(lit, 'D') };
    return { lit, vars: varsOf(lit.atom.args), read: { relKey: t.relKey, table: t.table, argVars, args: t.args, full, delta } };
  });
  const head = { kind: 'pos', atom: rule.head } as const;
  const headCall = tableArgs(head).table === undefined ? undefined : ({ kind: 'call', ...atomCall(head, 'F') } as const);
  return { rule, headVars: new Set(varsOf(rule.head.args)), ...(headCall === undefined ? {} : { headCall }), literals, positives: literals.filter((l) => l.read !== undefined) };
}

/**
 * The clause of one semi-naive variant of a rule: the `deltaAt`-th positive literal reads the
 * delta table, all others the full tables (null: every literal reads the full tables).
 * A run of literals whose new variables occur nowhere after it (nor in the head) only checks
 * that some binding exists, so it is wrapped in `once`: its other answers would only repeat
 * the same head instance. `(true (cell ?x ?y ?m)) (does ?p (mark ?i ?j)) (distinctCell ?x ?y ?i ?j)`
 * thus tries moves only until one differs from the cell, instead of deriving the cell once per move.
 */
export function planVariant(id: number, shape: RuleShape, spec: VariantSpec, estimates: Estimates = NOMINAL): PlannedClause {
  const delta = spec.deltaAt === null ? undefined : shape.positives[spec.deltaAt];
  const body = orderBody(shape, delta, spec.coreFirst === true, estimates.order, new Set(), spec.deferred);
  const { goals, steps } = planGoals(shape, body, delta, delta !== undefined, estimates, new Set(), []);
  return { name: variantName(id), head: shape.rule.head.args, goals, rule: shape.rule, cost: (d) => planCost(steps, d) };
}

/**
 * The goals of an ordered body, with `once` around each run of literals whose new variables
 * occur nowhere after it (see {@link planVariant}), after `prefix` (goals that bind `bound0`).
 * `laterRound`: the head instances known from earlier rounds need not be derived again, so
 * once the head is bound, a `'$gdl_absent'` test skips the existence tests after that point.
 */
export function planGoals(
  shape: RuleShape, body: readonly LiteralShape[], delta: LiteralShape | undefined, laterRound: boolean,
  estimates: Estimates, bound0: ReadonlySet<string>, prefix: readonly PlannedGoal[],
): { goals: PlannedGoal[]; steps: CostStep[] } {
  // later[i]: variables of the head and of body[i..].
  const later: Set<string>[] = [];
  let acc = new Set(shape.headVars);
  later[body.length] = acc;
  for (let i = body.length - 1; i >= 0; i--) later[i] = acc = new Set([...acc, ...body[i]!.vars]);
  const goal = (l: LiteralShape): PlannedGoal => goalOf(l, delta);
  const singles = singleVars(body, new Set([...shape.headVars, ...bound0]));
  const bound = new Set(bound0);
  const domains: Domains = new Map();
  const goals: PlannedGoal[] = [...prefix];
  const steps: CostStep[] = [];
  const headBound = (): boolean => [...shape.headVars].every((v) => bound.has(v));
  let headBoundAt = headBound() ? goals.length : -1;
  for (let i = 0; i < body.length; ) {
    const end = existentialEnd(body, later, bound, i);
    const group = end < 0 ? undefined : body.slice(i, end);
    for (const l of group ?? [body[i]!]) {
      if (l.read !== undefined) steps.push({ rows: rowsOf(l, bound, l === delta, estimates.cost, domains), once: group !== undefined, first: l === group?.[0] });
      for (const v of l.vars) bound.add(v);
      noteDomains(domains, l);
    }
    goals.push(group === undefined ? projectDead(goal(body[i]!), body[i]!, singles, estimates) : { kind: 'once', goals: group.map(goal) });
    i = end < 0 ? i + 1 : end;
    if (headBoundAt < 0 && headBound()) headBoundAt = goals.length;
  }
  if (laterRound && shape.headCall !== undefined && headBoundAt >= 0 && goals.slice(headBoundAt).some((g) => g.kind === 'once')) {
    goals.splice(headBoundAt, 0, { kind: 'absent', call: shape.headCall });
  }
  return { goals, steps };
}

/**
 * The variables that occur once in `body` (in one literal, once in it) and not in `outside`
 * (the head's, and those bound before the body): each is bound by its literal alone and read
 * by nothing else.
 */
function singleVars(body: readonly LiteralShape[], outside: ReadonlySet<string>): Set<string> {
  const count = new Map<string, number>();
  for (const l of body) {
    const each = l.read === undefined ? l.vars : l.read.argVars.flat();
    for (const v of each) count.set(v, (count.get(v) ?? 0) + 1);
  }
  return new Set([...count].filter(([v, n]) => n === 1 && !outside.has(v)).map(([v]) => v));
}

/**
 * A call whose arguments include variables that occur nowhere else (`singles`: not in the
 * head, in no other literal, once in the call) reads instead the table's projection onto the
 * other arguments, which holds each of their tuples once:
 *
 *   h(X, Z) <= p(X, D), q(X, Z)   with D nowhere else   reads   p'(X) = { X | p(X, D) }
 *
 * The same heads, derived once per X instead of once per (X, D). racer4's `(next (posx ?player
 * ?nx)) <= (does ?player (speed ?dx ?dy)) (true (posx ?player ?x)) (add ?x ?dx ?nx)` ran once per
 * vertical speed ?dy: 1.54M answers for 282 new facts. Only where the table is estimated to hold
 * at least two facts per tuple of the others (a projection costs a set and a table of its own).
 */
function projectDead(g: PlannedGoal, l: LiteralShape, singles: ReadonlySet<string>, estimates: Estimates): PlannedGoal {
  const read = l.read;
  if (g.kind !== 'call' || read === undefined || g.args.length < 2) return g;
  const dead = g.args.map((a) => a.kind === 'var' && singles.has(a.name));
  if (!dead.some((d) => d) || dead.every((d) => d)) return g;
  const perTuple = estimates.cost(read.relKey, read.table, dead.map((d) => !d));
  if (perTuple < 2) return g;
  const keep = dead.flatMap((d, i) => (d ? [] : [i]));
  return { kind: 'call', name: `Q|${g.name}|${keep.join('.')}`, args: keep.map((i) => g.args[i]!), projects: { base: g.name, args: g.args, keep } };
}

/** The goal of a body literal: a distinct, or a call of the delta table (for `delta`) or the full one. */
function goalOf(l: LiteralShape, delta: LiteralShape | undefined): PlannedGoal {
  if (l.lit.kind === 'distinct') return { kind: 'neq', left: l.lit.left, right: l.lit.right };
  return l === delta ? l.read!.delta : l.read!.full;
}

/** A positive goal of a plan, for costing: its rows (given the delta's size), and its once group. */
export interface CostStep {
  readonly rows: (deltaRows: number) => number;
  /** Inside a once group; `first` starts a group. */
  readonly once: boolean;
  readonly first: boolean;
}

/**
 * Rows of a literal given the variables bound before it (narrowed by their `domains`, when
 * given: domains.ts); a delta literal's scale with the delta.
 */
export function rowsOf(l: LiteralShape, bound: ReadonlySet<string>, isDelta: boolean, estimate: RowEstimate, domains?: Domains): (d: number) => number {
  const n = rows(l, bound, estimate, domains);
  if (!isDelta) return () => n;
  const all = Math.max(1, rows(l, new Set(), estimate));
  return (d) => (n * d) / all;
}

/**
 * Estimated states of a plan: each goal multiplies the states by its rows. A once group
 * stops at its first solution: per state it costs its own states divided by its solutions.
 */
export function planCost(steps: readonly CostStep[], deltaRows: number): number {
  let states = 1;
  let total = 0;
  for (let i = 0; i < steps.length; ) {
    if (!steps[i]!.once) {
      states *= steps[i++]!.rows(deltaRows);
      total += states;
      continue;
    }
    let inner = 1;
    let innerTotal = 0;
    do {
      inner *= steps[i++]!.rows(deltaRows);
      innerTotal += inner;
    } while (i < steps.length && steps[i]!.once && !steps[i]!.first);
    total += states * (1 + innerTotal / Math.max(1, inner));
  }
  return total;
}

/**
 * True when variant `deltaAt` can run core first: the positive literals linked to the delta
 * literal through variables outside the head form its existential part, and the others (the
 * core) bind every head variable. The existential part, delta literal first, then only tests
 * that some new fact fits. `(next (heap ?x ?n)) <= (true (heap ?x ?n)) (does ?p (reduce ?y ?m))
 * (distinct ?x ?y)` then derives each heap once per round, not once per heap and new move.
 */
export function coreFirstApplies(shape: RuleShape, deltaAt: number): boolean {
  const existential = existentialPart(shape, shape.positives[deltaAt]!);
  const core = new Set(shape.positives.filter((l) => !existential.has(l)).flatMap((l) => l.vars));
  return core.size > 0 && [...shape.headVars].every((v) => core.has(v));
}

/** The delta literal and the positive literals linked to it through variables outside the head. */
export function existentialPart(shape: RuleShape, delta: LiteralShape): Set<LiteralShape> {
  const part = new Set([delta]);
  const vars = new Set(delta.vars.filter((v) => !shape.headVars.has(v)));
  for (let grown = true; grown; ) {
    grown = false;
    for (const l of shape.positives) {
      if (part.has(l) || !l.vars.some((v) => vars.has(v))) continue;
      part.add(l);
      for (const v of l.vars) if (!shape.headVars.has(v)) vars.add(v);
      grown = true;
    }
  }
  return part;
}

/** A table projection a plan reads: table `table` (without copy prefix) onto positions `keep`. */
interface ProjectionUse {
  readonly table: string;
  readonly keep: readonly number[];
  /** Its predicate name, `P|table|keep`. */
  readonly name: string;
}

/**
 * A plan that derives each head instance once (for the variant reading full tables): the
 * projection of one literal onto the head's variables enumerates candidate head instances,
 * each distinct once, and the whole body then has to hold once for each.
 * `(hasLine ?p) <= (true (cell ?x1 ?y ?p)) (succ ?x1 ?x2) (true (cell ?x2 ?y ?p)) ...` then
 * looks for one line per player instead of deriving the player once per line. Undefined when
 * no literal binds every head variable by itself, or the body binds nothing else.
 */
export function planDistinctHeads(id: number, shape: RuleShape, estimates: Estimates = NOMINAL): { plan: PlannedClause; projection: ProjectionUse } | undefined {
  const head = [...shape.headVars];
  if (head.length === 0 || shape.literals.every((l) => l.vars.every((v) => shape.headVars.has(v)))) return undefined;
  let best: { l: LiteralShape; keep: number[]; rows: number } | undefined;
  for (const l of shape.positives) {
    const r = l.read!;
    if (r.table === undefined) continue;
    const keep = head.map((v) => r.args.findIndex((a) => a.kind === 'var' && a.name === v));
    if (keep.some((k) => k < 0)) continue;
    // Distinct head tuples: all rows over the rows per tuple.
    const all = estimates.cost(r.relKey, r.table, r.args.map(() => false));
    const per = estimates.cost(r.relKey, r.table, r.args.map((_, i) => keep.includes(i)));
    const n = per > 0 ? all / per : all;
    if (best === undefined || n < best.rows) best = { l, keep, rows: n };
  }
  if (best === undefined) return undefined;
  const read = best.l.read!;
  const projection = { table: read.table!, keep: best.keep, name: `P|${read.table}|${best.keep.join('.')}` };
  const ordered = orderBody(shape, undefined, false, estimates.order, shape.headVars);
  const body = ordered.map((l) => goalOf(l, undefined));
  const goals: PlannedGoal[] = [{ kind: 'call', name: projection.name, args: best.keep.map((i) => read.args[i]!) }, { kind: 'once', goals: body }];
  const bound = new Set(shape.headVars);
  const steps: CostStep[] = [{ rows: () => best!.rows, once: false, first: false }];
  for (const l of ordered) {
    if (l.read !== undefined) steps.push({ rows: rowsOf(l, bound, false, estimates.cost), once: true, first: steps.length === 1 });
    for (const v of l.vars) bound.add(v);
  }
  return { plan: { name: variantName(id), head: shape.rule.head.args, goals, rule: shape.rule, cost: (d) => planCost(steps, d) }, projection };
}

/**
 * A literal's estimated rows given the bound variables. A variable that is a whole argument at
 * several positions selects once: its repeats hold the same value, not independent filters
 * (amazons' `(magic horizontalmoveignoring bbbbbb ?xig ?yig ?x1 ?y ?x3 ?y)` was estimated ten
 * times more selective than it is for the row `?y` at two positions, and put before `(++ ?x1
 * ?x2)`, which binds its one `?x1`). With `domains`, narrowed by containment (domains.ts).
 */
function rows(l: LiteralShape, bound: ReadonlySet<string>, estimate: RowEstimate, domains?: Domains): number {
  const seen = new Set<string>();
  const boundArgs = l.read!.args.map((a, i) => {
    if (!l.read!.argVars[i]!.every((v) => bound.has(v))) return false;
    if (a.kind !== 'var') return true;
    if (seen.has(a.name)) return false;
    seen.add(a.name);
    return true;
  });
  return estimate(l.read!.relKey, l.read!.table, boundArgs, innerBound(l, bound, boundArgs)) * containment(l, boundArgs, domains, estimate);
}

/**
 * The first argument of `l`'s table call that is a compound term not bound as a whole but with
 * some of its own arguments bound (ground, or all their variables in `bound`), as the engine
 * looks such a call up (src/engine/own.ts `innerKey`); undefined when there is none.
 */
function innerBound(l: LiteralShape, bound: ReadonlySet<string>, boundArgs: readonly boolean[]): InnerBound | undefined {
  const args = l.read!.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (boundArgs[i] === true || a.kind !== 'fn') continue;
    const inner = a.args.map((t) => [...collectVars(t, new Set())].every((v) => bound.has(v)));
    if (inner.some((b) => b)) return { at: i, bound: inner };
  }
  return undefined;
}

const NOMINAL: Estimates = { order: NOMINAL_ESTIMATE, cost: NOMINAL_ESTIMATE };

/**
 * Where a run of goals starting at the positive literal `body[start]` ends if its new
 * variables occur nowhere after it (the run takes in the distincts that follow each literal):
 * the smallest such end, or -1 when there is none or the literal binds nothing new.
 */
function existentialEnd(body: readonly LiteralShape[], later: readonly Set<string>[], bound: ReadonlySet<string>, start: number): number {
  if (body[start]!.read === undefined) return -1;
  const fresh = new Set<string>();
  for (let i = start; i < body.length; ) {
    for (const v of body[i]!.vars) if (!bound.has(v)) fresh.add(v);
    if (fresh.size === 0) return -1;
    let end = i + 1;
    while (end < body.length && body[end]!.read === undefined) end++;
    if ([...fresh].every((v) => !later[end]!.has(v))) return end;
    i = end;
  }
  return -1;
}

/**
 * Orders a body for evaluation: the delta literal first (it is small), then greedily the
 * positive literal that is cheapest given the variables bound so far — fully bound checks
 * first, then the fewest estimated answers, then source order — and each `distinct` as soon
 * as both its sides are bound. The `deferred` parts go after all other literals, one by one.
 */
export function orderBody(
  shape: RuleShape, delta: LiteralShape | undefined, coreFirst: boolean, estimate: RowEstimate,
  bound0: ReadonlySet<string> = new Set(), deferred: readonly (readonly LiteralShape[])[] = [],
): LiteralShape[] {
  const later = new Set(deferred.flat());
  const remaining = shape.positives.filter((l) => l !== delta && !later.has(l));
  const pending = shape.literals.filter((l) => l.read === undefined);
  const bound = new Set(bound0);
  const domains: Domains = new Map();
  const out: LiteralShape[] = [];
  const take = (l: LiteralShape): void => {
    out.push(l);
    for (const v of l.vars) bound.add(v);
    noteDomains(domains, l);
    for (let i = 0; i < pending.length; ) {
      if (pending[i]!.vars.every((v) => bound.has(v))) out.push(pending.splice(i, 1)[0]!);
      else i++;
    }
  };
  // Distincts over constants (and variables bound before the body) come first.
  for (let i = 0; i < pending.length; ) {
    if (pending[i]!.vars.every((v) => bound.has(v))) out.push(pending.splice(i, 1)[0]!);
    else i++;
  }
  let last: LiteralShape | undefined;
  if (delta !== undefined && later.has(delta)) {
    // Deferred with its part (src/reach/head-first.ts, `deltaDeferred`): taken there.
  } else if (delta !== undefined && coreFirst) {
    // Core first, then the existential part. The delta literal is not put first within the
    // part: with the core's variables bound, a literal joining on them is usually more
    // selective than a scan of the delta.
    const existential = existentialPart(shape, delta);
    takeGreedily(remaining.filter((l) => !existential.has(l)), bound, domains, estimate, take);
    takeGreedily([...existential], bound, domains, estimate, take);
    remaining.length = 0;
  } else if (delta !== undefined) {
    // A delta literal sharing no variable with the head or another positive literal only
    // tests that something new exists: evaluated last, under once, it costs one check per
    // answer instead of multiplying every answer by the size of the delta.
    const elsewhere = new Set([...shape.headVars, ...remaining.flatMap((l) => l.vars)]);
    if (delta.vars.every((v) => !elsewhere.has(v))) last = delta;
    else take(delta);
  }
  takeGreedily(remaining, bound, domains, estimate, take);
  for (const part of deferred) takeGreedily(part, bound, domains, estimate, take);
  if (last !== undefined) take(last);
  out.push(...pending);
  return out;
}

/** Takes `literals` in the core's greedy order (src/datalog/plan.ts) given the bound variables and their domains. */
function takeGreedily(literals: readonly LiteralShape[], bound: ReadonlySet<string>, domains: Domains, estimate: RowEstimate, take: (l: LiteralShape) => void): void {
  greedyOrder(literals, bound, (l) => rows(l, bound, estimate, domains), take);
}
