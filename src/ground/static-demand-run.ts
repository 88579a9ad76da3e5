/**
 * Runs the plan of src/ground/static-demand.ts. Before a component that reads a waiting static
 * relation runs, the tuples its rules ask are added to the relation's magic store, pulled down
 * to the waiting relations that relation's rules read (callers before callees, by component
 * index), and the waiting components asked anything new run their rules seeded by the magic
 * atom, callees first (src/ground/evaluate.ts, as any component; a second run only adds rows).
 *
 * The reader's decisions must not change (the output stays the same): a reader whose rewrite
 * depends on its estimate has the relation evaluated whole first. A rule of a dynamic component
 * is estimated against the thresholds of src/ground/split-run.ts and frame-run.ts; below the
 * split threshold nothing depends on its estimate when it has no frame rewrite, no projection
 * (splitRule's parts are not all single atoms) and no lazy atom check. Such a rule whose
 * estimate over the demanded rows passes the split threshold falls back to the whole relation.
 */
import type { Atom } from '../gdl/ast.js';
import { SEES, isOutputKeyword } from '../gdl/keywords.js';
import type { NormalRule } from '../normalize/types.js';
import { addToStore, storeSize } from '../datalog/block.js';
import { type JoinRule, compileRule } from './compile.js';
import { evaluateComponent, ruleEstimate } from './evaluate.js';
import { type Context, checkEstimate, storeOf } from './run-context.js';
import { checkComponentEstimate } from './component-estimate.js';
import { splitRule } from './split.js';
import { frameRule } from './frame.js';
import type { SplitEnv } from './split-env.js';
import { takeHanded } from './handed-statics.js';
import { type DemandComponent, type DemandPlan, askRule, seededRule } from './static-demand.js';

/**
 * Asking joins estimated above this many bindings are not run: the relation is evaluated whole
 * instead (chess_200: an asking rule over five of its reader's atoms, 2.6×10⁸, past the atom
 * budget, where the whole relation had grounded).
 */
const ASK_LIMIT = 1_000_000;

/** The state of the waiting components during one run. */
interface DemandRun {
  readonly plan: DemandPlan;
  readonly components: readonly DemandComponent[];
  /** Waiting components evaluated whole (their stores complete). */
  readonly whole: Set<number>;
  /** Waiting components whose facts are added (once). */
  readonly started: Set<number>;
  /** Waiting components asked new tuples since they last ran. */
  readonly dirty: Set<number>;
  /** Compiled rules by their source and purpose (asking rules, seeded rules). */
  readonly compiled: Map<NormalRule, Map<Atom | null, JoinRule>>;
}

/** A run of `plan` over `components`; its magic relations join the run's static relations. */
export function startDemand(ctx: Context, plan: DemandPlan, components: readonly DemandComponent[]): DemandRun {
  for (const m of plan.magic.values()) ctx.statics.add(m);
  return { plan, components, whole: new Set(), started: new Set(), dirty: new Set(), compiled: new Map() };
}

/** Whether component `i` waits (the main loop skips it). */
export function waits(run: DemandRun, i: number): boolean {
  return [...run.components[i]!.rels].some((rel) => run.plan.waiting.has(rel));
}

function compiledOnce(ctx: Context, run: DemandRun, source: NormalRule, atom: Atom | null, make: () => NormalRule): JoinRule {
  let byAtom = run.compiled.get(source);
  if (byAtom === undefined) run.compiled.set(source, (byAtom = new Map()));
  let rule = byAtom.get(atom);
  if (rule === undefined) byAtom.set(atom, (rule = compileRule(make(), ctx.file, ctx.table, run.plan.key)));
  return rule;
}

/** Positive atoms of `rule` over waiting relations of other components, as (atom, component). */
function callsOf(run: DemandRun, rule: JoinRule, own: ReadonlySet<string>): { atom: Atom; comp: number }[] {
  const out: { atom: Atom; comp: number }[] = [];
  for (const l of rule.source.body) {
    if (l.kind !== 'pos') continue;
    const rel = run.plan.key(l.atom);
    const comp = run.plan.waiting.get(rel);
    if (comp !== undefined && !own.has(rel)) out.push({ atom: l.atom, comp });
  }
  return out;
}

/**
 * Runs the asking rules of `calls` (made in `rule`, of a component with relations `own`): each
 * adds its tuples to the called relation's magic store. A ground tuple is added as it is.
 */
function ask(ctx: Context, run: DemandRun, rule: JoinRule, own: ReadonlySet<string>, calls: readonly { atom: Atom; comp: number }[]): void {
  const rules: JoinRule[] = [];
  for (const { atom, comp } of calls) {
    if (run.whole.has(comp)) continue;
    // An asking join too large to run (a product of its callers' atoms): the relation whole.
    const asking = compiledOnce(ctx, run, rule.source, atom, () => askRule(run.plan, rule.source, atom, own, ctx.lazy));
    if (ruleEstimate(ctx, asking) > ASK_LIMIT) makeWhole(ctx, run, comp);
  }
  const asked = calls.filter(({ comp }) => !run.whole.has(comp));
  const storeOfCall = (atom: Atom) => storeOf(ctx, run.plan.magic.get(run.plan.key(atom))!);
  const before = asked.map(({ atom }) => storeSize(storeOfCall(atom)));
  for (const { atom } of asked) {
    const asking = compiledOnce(ctx, run, rule.source, atom, () => askRule(run.plan, rule.source, atom, own, ctx.lazy));
    if (asking.positives.length > 0) {
      rules.push(asking);
      continue;
    }
    const args = asking.source.head.args.map((t) => ctx.table.fromTerm(t));
    const id = ctx.table.compound(asking.head.rel, args);
    addToStore(storeOf(ctx, asking.head.rel), id);
  }
  if (rules.length > 0) evaluateComponent(ctx, rules, new Set());
  // Only a component asked something new runs again.
  asked.forEach(({ atom, comp }, k) => {
    if (storeSize(storeOfCall(atom)) > before[k]!) run.dirty.add(comp);
  });
}

/** The waiting components that component `i`'s rules read, transitively, `i` included. */
function below(run: DemandRun, i: number): number[] {
  const seen = new Set([i]);
  const todo = [i];
  while (todo.length > 0) {
    const c = run.components[todo.pop()!]!;
    for (const r of c.rules) for (const { comp } of callsOf(run, r, c.rels)) if (!seen.has(comp)) (seen.add(comp), todo.push(comp));
  }
  return [...seen].sort((a, b) => a - b);
}

/** Evaluates waiting component `i` and every waiting one it reads whole (callees first). */
function makeWhole(ctx: Context, run: DemandRun, i: number): void {
  if (run.whole.has(i)) return;
  for (const j of below(run, i)) {
    if (run.whole.has(j)) continue;
    run.whole.add(j);
    run.dirty.delete(j);
    const c = run.components[j]!;
    if (!takeHanded(ctx, c.rels)) evaluateComponent(ctx, c.rules, c.rels, run.started.has(j) ? [] : c.facts);
    run.started.add(j);
  }
}

/**
 * Pulls the demand of the dirty waiting components down to the ones they read (highest index
 * first: a component reads only lower ones), then runs each dirty one seeded, lowest first.
 */
function propagate(ctx: Context, run: DemandRun): void {
  const done: number[] = [];
  while (run.dirty.size > 0) {
    const i = Math.max(...run.dirty);
    run.dirty.delete(i);
    done.push(i);
    const c = run.components[i]!;
    const magic = new Set([...c.rels].map((rel) => run.plan.magic.get(rel)!));
    // The component's own calls first: its magic relations to their fixpoint.
    const inner: JoinRule[] = [];
    for (const r of c.rules) {
      for (const l of r.source.body) {
        if (l.kind !== 'pos' || !c.rels.has(run.plan.key(l.atom))) continue;
        inner.push(compiledOnce(ctx, run, r.source, l.atom, () => askRule(run.plan, r.source, l.atom, c.rels, ctx.lazy)));
      }
    }
    if (inner.some((r) => ruleEstimate(ctx, r) > ASK_LIMIT)) {
      makeWhole(ctx, run, i);
      continue;
    }
    if (inner.length > 0) evaluateComponent(ctx, inner, magic);
    for (const r of c.rules) ask(ctx, run, r, c.rels, callsOf(run, r, c.rels));
  }
  for (const i of done.sort((a, b) => a - b)) {
    if (run.whole.has(i)) continue;
    const c = run.components[i]!;
    const seeded = c.rules.map((r) => compiledOnce(ctx, run, r.source, null, () => seededRule(run.plan, r.source)));
    evaluateComponent(ctx, seeded, c.rels, run.started.has(i) ? [] : c.facts);
    run.started.add(i);
  }
}

/**
 * Whether no decision on `rule` (of a dynamic component with relations `rels`) reads its
 * estimate below the split threshold: see the module comment.
 */
function sizeFree(ctx: Context, rule: JoinRule, rels: ReadonlySet<string>, env: SplitEnv): boolean {
  if (ctx.statics.has(rule.head.rel)) return true;
  if ([...rule.positives, ...rule.negatives].some((a) => rels.has(a.rel))) return true;
  const lazy = ctx.lazy;
  if (lazy !== undefined && isOutputKeyword(rule.head.rel) && rule.head.rel !== SEES && rule.negatives.some((n) => lazy.has(n.rel))) return false;
  const isStatic = (a: Atom): boolean => ctx.statics.has(env.key(a));
  const fresh = (): string => `${env.prefix}-0`;
  if (frameRule(rule.source, { isStatic, isLazy: (a) => lazy?.has(env.key(a)) === true, fresh }) !== null) return false;
  const parts = splitRule(rule.source, { isStatic, fresh });
  return parts === null || parts.slice(0, -1).some((aux) => aux.body.length !== 1);
}

/**
 * Before component `comp` runs: the waiting relations its rules read are evaluated for what it
 * asks, or whole when a reader's decisions could read their size (see the module comment).
 */
export function demandFor(ctx: Context, run: DemandRun, comp: DemandComponent, env: SplitEnv): void {
  const readers = comp.rules.map((rule) => ({ rule, calls: callsOf(run, rule, comp.rels) })).filter((r) => r.calls.length > 0);
  if (readers.length === 0) return;
  const free = readers.map((r) => sizeFree(ctx, r.rule, comp.rels, env));
  readers.forEach((r, k) => {
    if (!free[k]) for (const { comp: c } of r.calls) makeWhole(ctx, run, c);
  });
  for (const r of readers) ask(ctx, run, r.rule, comp.rels, r.calls);
  propagate(ctx, run);
  readers.forEach((r, k) => {
    if (ctx.statics.has(r.rule.head.rel) || !free[k] || r.calls.every(({ comp: c }) => run.whole.has(c))) return;
    if (ruleEstimate(ctx, r.rule) > env.above) for (const { comp: c } of r.calls) makeWhole(ctx, run, c);
  });
}

/**
 * At a waiting component's place in the order: the refusals its first round would meet there
 * (the component's summed estimate, each rule's own), so that a relation too large to ground
 * is still refused where it was, with the same message (games/explode.kif's `code`: 10⁹ atoms,
 * which demand would cut to 10, and lazy axioms then leave the goal rule lazy as before).
 * Checked only when the first round reads no waiting relation (its stores are complete).
 */
export function checkWaiting(ctx: Context, run: DemandRun, comp: DemandComponent): void {
  const first = comp.rules.filter((r) => !r.positives.some((p) => comp.rels.has(p.rel)));
  if (first.some((r) => r.positives.some((p) => run.plan.waiting.has(p.rel)))) return;
  checkComponentEstimate(ctx, comp.rules, comp.rels);
  for (const r of first) checkEstimate(ctx, r, ruleEstimate(ctx, r), true);
}
