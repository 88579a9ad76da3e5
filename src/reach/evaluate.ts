/**
 * Semi-naive bottom-up evaluation of one component of the relaxed game on Tau-Prolog.
 *
 *   round 0:  Δ₀ = { h | h <= body over the full tables }           (facts, lower components)
 *   round i:  Δᵢ = { h | h <= body with one literal of the component read from Δᵢ₋₁ } \ known
 *   until Δᵢ = ∅.
 * For the component of `true` this is the loop of Algorithm 9.2, lines 9-20: new `legal`
 * answers become `does` facts (line 14), new `next` answers become `true` facts (line 19),
 * and the loop ends when a round finds nothing new (line 9).
 */
import type { Atom } from '../gdl/ast.js';
import { type GdlError, type LimitInfo, deadlineLimit, formatEstimate } from '../gdl/diagnostics.js';
import { EngineError, EngineLimitError, type TauTerm, tauName, toTau } from '../engine/tau.js';
import { splitPosition, variantName } from './clauses.js';
import { invalidError, largestRelation, limitError } from './failures.js';
import { type Component, type RelationKey, type RelaxedRule, keyOf } from './relaxed.js';
import { type RelationFacts, clearDelta, mirrorFacts, recordFact, recordSameFact } from './store.js';
import { type CompiledComponent, type CompiledRule, type DeltaVariant, type VariantRun, compileComponent, replanIfGrown, variantClause } from './compile.js';
import type { Run } from './run.js';
import { semiNaive } from '../datalog/fixpoint.js';
import { type GrowthEstimate, pastBudget } from './growth.js';
import { uses } from './ablation.js';

export type { ReachProgress, Run } from './run.js';



/** The `current` relation of a run before any rule ran: no name, so messages name none. */
export const NO_RELATION: RelationKey = { rel: '', arity: 0 };

/**
 * New facts of a round, by relation key: the row of the relation's first new fact (the rows
 * after it are the round's too: a relation's facts are rows in the order found).
 */
type Fresh = Map<string, number>;

/** The number of new facts of each relation in the last round (its delta), by relation key. */
type Delta = Map<string, number>;

/**
 * Where the answers for one relation go, resolved once per component: before, every answer
 * looked up its relation, and every new fact the round's list and its bridge, by key (three
 * string-keyed map reads per answer; amazons: 952,190 answers).
 */
interface Target {
  readonly key: string;
  readonly r: RelationFacts;
  /** The target of the relation's bridge (`true` of `next`, `does` of `legal`); undefined: none. */
  bridge: Target | undefined;
  /** The round's list that holds `key` already, once one does (each round's list is a new map, and keys are never deleted from one). */
  listedIn: Fresh | undefined;
}

/** The targets of a component's relations (and their bridges'), by relation key, made on first use. */
type Targets = Map<string, Target>;

/** Evaluates a component to its fixpoint; limits and Prolog failures become GdlErrors. */
export function evaluateComponent(run: Run, comp: Component): void {
  try {
    fixpoint(run, comp);
  } catch (err) {
    if (err instanceof EngineLimitError) {
      throw limitError(run.game.file, run.plan, largestOrCurrent(run), `${describe(run)}; ${run.limits.deadline.describe()}${running(run)}`, runningLimit(run));
    }
    throw err;
  }
}

/**
 * The component's rounds, on the Datalog core's semi-naive driver: round 0 runs every rule
 * (facts directly), each later round every delta variant whose delta table got new facts.
 * The joins are Tau-Prolog's; only the round structure is shared.
 */
function fixpoint(run: Run, comp: Component): void {
  const members = new Set(comp.relations);
  const compiled = compileComponent(run, comp);
  let fresh: Fresh = new Map();
  let delta: Delta = new Map();
  const targets: Targets = new Map();
  const naive = !uses(run.switches, 'semi-naive');
  rounds<RelaxedRule>(naive, {
    rules: comp.rules,
    recursiveAtoms: (rule) => compiled.rules.get(rule)!.deltas.map((_, i) => i),
    fire: (rule, j) => {
      const c = compiled.rules.get(rule)!;
      if (j < 0) {
        if (c.fact) addFact(run, fresh, targets, rule, rule.head);
        else if (allMayMatch(run, c)) derive(run, fresh, targetOf(run, targets, keyOf(rule.head)), compiled, rule, null, 0);
        return;
      }
      const d = c.deltas[j]!;
      if (mayMatch(run, d, delta) && allMayMatch(run, c)) derive(run, fresh, targetOf(run, targets, keyOf(rule.head)), compiled, rule, d.deltaAt, delta.get(d.relKey)!);
    },
    commit: () => {
      if (fresh.size === 0) return false;
      if (!comp.recursive) {
        commit(run, members, fresh, false);
        return false;
      }
      const counts = commit(run, members, fresh, true);
      replanIfGrown(run, compiled);
      run.rounds++;
      if (comp.containsTrue) run.iterations++;
      checkDeadline(run);
      run.onProgress?.({ round: run.rounds, atoms: run.store.size, largest: largestRelation(run.store).key });
      delta = counts;
      fresh = new Map();
      return true;
    },
  });
}

/** The driver's interface (src/datalog/fixpoint.ts), which the naive rounds share. */
type Rounds<R> = Parameters<typeof semiNaive<R>>[0];

/**
 * The rounds: semi-naive (the Datalog core's driver), or, with `semi-naive` switched off
 * (src/reach/ablation.ts), naive: every round fires every rule over the full tables, until a
 * round finds nothing new. Both reach the same fixpoint; naive re-derives every known fact
 * in every round, which is what the semi-naive rounds save.
 */
function rounds<R>(naive: boolean, c: Rounds<R>): void {
  if (!naive) {
    semiNaive(c);
    return;
  }
  do for (const rule of c.rules) c.fire(rule, -1);
  while (c.commit());
}

/**
 * False when the variant's delta literal cannot match a new fact: its relation got none, or
 * its table has none agreeing with the literal's ground arguments (a hash probe). Skipping
 * such queries saves planning them and Tau-Prolog's per-query overhead, which dominate in
 * games with many rules over few facts.
 */
function mayMatch(run: Run, d: DeltaVariant, delta: Delta): boolean {
  if (!delta.has(d.relKey)) return false;
  return d.deltaTable === undefined || !uses(run.switches, 'probes') || run.engine.probe(d.deltaTable, d.pattern!);
}

/**
 * False when some positive literal of the rule has no fact agreeing with its ground arguments
 * in its full table, so that no variant of the rule can derive anything now:
 *   h <= ..., p(c, X), ...   with no p(c, _) known   derives nothing.
 * Without this test Tau-Prolog runs the join up to that literal first: a rule that binds many
 * variables by small static relations before reading an empty one (ruleDepthQuadratic's
 * `prereqN`, 2^N bindings of `bit` ahead of an empty `prereqN+1`) spent seconds per rule.
 */
function allMayMatch(run: Run, c: CompiledRule): boolean {
  if (!uses(run.switches, 'probes')) return true;
  for (const r of c.reads) if (!run.engine.probe(r.table, r.pattern)) return false;
  return true;
}

/** Runs one variant and records its answers (line 11 / 16 / 23 of Algorithm 9.2). */
function derive(run: Run, fresh: Fresh, target: Target, compiled: CompiledComponent, rule: RelaxedRule, deltaAt: number | null, deltaRows: number): void {
  run.current = { rel: rule.head.rel, arity: rule.head.args.length };
  const v = variantClause(run, compiled, rule, deltaAt, deltaRows);
  const onAnswer = (values: TauTerm[]): void => keep(run, fresh, target, values, rule);
  run.at = rule.pos;
  try {
    if (v.kind === 'clause') run.answers += run.engine.solveCall(variantName(v.id), rule.head.args.length, onAnswer);
    else deriveProjected(run, v, rule, onAnswer);
  } catch (err) {
    if (err instanceof EngineError) {
      throw invalidError(run.game.file, rule.pos, `rule for '${rule.head.rel}' derives an instance that is not ground (${err.message})`);
    }
    throw err;
  }
  // Cleared only when the query ends normally: a limit error is worded after the unwinding.
  run.at = undefined;
}

/**
 * A projected variant (src/reach/project.ts) or a staged one (src/reach/staged.ts): the part's
 * distinct bindings not run before go into the table, the rest runs over them, and the table
 * is emptied again.
 */
function deriveProjected(run: Run, v: Extract<VariantRun, { kind: 'projected' }>, rule: RelaxedRule, onAnswer: (values: TauTerm[]) => void): void {
  const bindings: TauTerm[][] = [];
  const seen = v.seen ?? new Set<string>();
  run.answers += run.engine.solveCall(variantName(v.part), v.arity, (values) => {
    let text = '';
    for (const t of values) text += `${run.engine.kif(t).text} `;
    if (seen.has(text)) return;
    seen.add(text);
    bindings.push(values);
  });
  if (bindings.length === 0) return;
  for (const b of bindings) run.engine.addToTable(v.table, b);
  try {
    run.answers += run.engine.solveCall(variantName(v.rest), rule.head.args.length, onAnswer);
  } finally {
    run.engine.clearTable(v.table);
  }
}

/** Adds a ground fact of the game directly, without a query. */
function addFact(run: Run, fresh: Fresh, targets: Targets, rule: RelaxedRule, head: Atom): void {
  run.current = { rel: head.rel, arity: head.args.length };
  keep(run, fresh, targetOf(run, targets, keyOf(head)), head.args.map(toTau), rule);
}

/** The target of relation `key`, with its bridge's (made first, so that a cycle of bridges would end). */
function targetOf(run: Run, targets: Targets, key: string): Target {
  const known = targets.get(key);
  if (known !== undefined) return known;
  const t: Target = { key, r: run.store.relations.get(key)!, bridge: undefined, listedIn: undefined };
  targets.set(key, t);
  const to = run.bridges.get(key);
  if (to !== undefined) t.bridge = targetOf(run, targets, to);
  return t;
}

/** Keeps a fact unless known; enforces the atom and depth limits. */
function keep(run: Run, fresh: Fresh, target: Target, args: readonly unknown[], rule: RelaxedRule | undefined): void {
  const r = target.r;
  const result = recordFact(r, args as never, run.maxDepth, run.store);
  if (result !== 'new') {
    if (result.kind === 'too-deep') {
      const split = splitPosition(r.rel, r.arity);
      const what = split === undefined ? '' : ` (${r.rel === 'legal' || r.rel === 'does' ? 'move' : 'fluent'} '${tauName((args as TauTerm[])[split]!)}')`;
      const message = `has instances${what} with terms nested deeper than ${run.maxDepth} levels: the relaxed game is infinite`;
      throw limitError(run.game.file, run.plan, r, message, { kind: 'depth' }, rule?.pos);
    }
    return;
  }
  added(run, fresh, target);
}

/** What follows a new fact: the round's list, its bridge, the progress report and the limits. */
function added(run: Run, fresh: Fresh, target: Target): void {
  const r = target.r;
  // The fact is the relation's newest row; the answer's terms are not kept (see mirrorFacts).
  if (target.listedIn !== fresh) {
    if (!fresh.has(target.key)) fresh.set(target.key, r.ids.size - 1);
    target.listedIn = fresh;
  }
  // Answers can come faster than engine steps (one query, many answers): counted here too.
  if (run.limits.deadline.tick()) checkDeadline(run);
  // Bridges copy at once, in the same round: a new `next` fact is a `true` fact (line 19),
  // a new `legal` answer a `does` fact (line 14). Waiting a round would double the rounds.
  if (target.bridge !== undefined) keepBridged(run, fresh, target.bridge);
  // Long single queries report too, not only rounds (the reporter throttles by time).
  if ((run.store.size & 0x3fff) === 0) run.onProgress?.({ round: run.rounds, atoms: run.store.size, largest: largestRelation(run.store).key });
  if (run.store.size > run.limits.maxAtoms) {
    throw limitError(run.game.file, run.plan, largestOrCurrent(run), `${describe(run)}; more than ${run.limits.maxAtoms} ground atoms in all`, { kind: 'atoms' });
  }
  // The relations of eliminated parts are not the game's: neither estimated nor blamed.
  const past = r.auxiliary ? undefined : pastBudget(run, target.key, r.ids.size);
  if (past !== undefined) throw estimateError(run, r, past);
}

/**
 * {@link keep} for a bridge's copy of the fact just kept (`true` of a new `next` fact, `does`
 * of a new `legal` answer): the same arguments, whose ids are still in the store's buffer, so
 * they are neither interned nor checked for depth again.
 */
function keepBridged(run: Run, fresh: Fresh, target: Target): void {
  if (!recordSameFact(target.r, run.store)) return;
  added(run, fresh, target);
}

/**
 * The atom budget's error, early: relation `r` is estimated past it (src/reach/growth.ts). It
 * names the relation and the estimate, and says that it is one.
 */
function estimateError(run: Run, r: RelationKey, past: GrowthEstimate): GdlError {
  // Foresight (src/reach/foresight.ts) blames a relation not derived yet, in words of its own.
  if (past.foreseen !== undefined) return limitError(run.game.file, run.plan, past.foreseen.relation, past.foreseen.message, { kind: 'atoms', estimate: past.estimate });
  const message =
    `would grow to about ${formatEstimate(past.estimate)} instances (an estimate from its ${past.count} instances after ${run.rounds} rounds: ` +
    `${past.how}), more than the budget of ${run.limits.maxAtoms} ground atoms in all (while evaluating '${run.current.rel}')`;
  return limitError(run.game.file, run.plan, r, message, { kind: 'atoms', estimate: past.estimate });
}

/**
 * Puts the round's new facts into the engine's tables; `D` replaces the previous delta.
 * Returns how many each relation got.
 */
function commit(run: Run, members: ReadonlySet<string>, fresh: Fresh, delta: boolean): Delta {
  if (delta) for (const key of members) clearDelta(run.engine, run.store, run.store.relations.get(key)!);
  // Mirroring a large round into the engine's tables takes long (amazonsTorus: 3 s of one
  // round at a load of 15 went by unchecked when the clock was read per relation only).
  const tick = (): void => {
    if (run.limits.deadline.tick()) checkDeadline(run);
  };
  const counts: Delta = new Map();
  for (const [key, from] of fresh) {
    checkDeadline(run);
    const r = run.store.relations.get(key)!;
    counts.set(key, r.ids.size - from);
    mirrorFacts(run.engine, run.store, key, r, from, r.ids.size, delta, tick);
  }
  return counts;
}

/** Throws the limit error once a limit of the run's deadline is reached (reads the clock). */
function checkDeadline(run: Run): void {
  if (run.limits.deadline.passed()) {
    throw limitError(run.game.file, run.plan, largestOrCurrent(run), `${describe(run)}; ${run.limits.deadline.describe()}${running(run)}`, runningLimit(run));
  }
}

/** The limit data of a stop on the clock or the heap: with the estimate {@link running} names, when it names one. */
function runningLimit(run: Run): LimitInfo {
  return deadlineLimit(run.limits.deadline, run.at === undefined ? undefined : run.estimate);
}

/** The relation to blame: the largest one, which is what grew. */
function largestOrCurrent(run: Run): RelationKey {
  const largest = largestRelation(run.store);
  return largest.count > 0 && largest.relation !== undefined ? largest.relation : run.current;
}

/**
 * For a stop on the clock or the heap during a query: the rule it ran and its plan's estimate
 * (the largest relation, which the message blames, need not be what was slow: racer4 stops in
 * one query for 'legal_speed' estimated at about 1.3×10⁸ join states).
 */
function running(run: Run): string {
  if (run.at === undefined) return '';
  return `, in the query for '${run.current.rel}' (rule at line ${run.at.line}), estimated at about ${formatEstimate(run.estimate)} join states`;
}

function describe(run: Run): string {
  const largest = largestRelation(run.store);
  const count = largest.count > 0 ? largest.count : 0;
  return `grew to ${count} instances after ${run.rounds} rounds (${run.store.size} ground atoms in all, while evaluating '${run.current.rel}')`;
}
