/**
 * Instantiation (section 9.1.3): every normalized rule is grounded by joining the ground
 * instances of its positive body atoms (the matrix method), component by component of the
 * relation graph in topological order. `true` and `does` range over the supersets of fluents
 * and moves; static relations are evaluated exactly here (negation included) and vanish from
 * the bodies; every other relation ranges over the heads already derived for it, filtered by
 * its superset (next by fluents, legal by moves, axioms by their instances). Ground rules
 * therefore only ever have heads that are reachable in the relaxed game.
 */
import { AuxDemandConflict } from './aux-demand.js';
import { GdlError, deadlineLimit, deadlineTicker, diag, relationLimitError } from '../gdl/diagnostics.js';
import { OUTPUT_KEYWORDS } from '../gdl/keywords.js';
import { compareCodePoints, isGround, termToString } from '../gdl/terms.js';
import { relationComponents, relationGraph, relationKey, severalArities, stateDependent } from '../gdl/relations.js';
import { type Atom, NO_POS, type Rule } from '../gdl/ast.js';
import type { Deadline } from '../deadline.js';
import type { NormalGame } from '../normalize/types.js';
import { asRule } from '../normalize/types.js';
import type { Supersets } from '../reach/types.js';
import { assembleGame } from './assemble.js';
import { type Store, inStore, storeIds } from '../datalog/block.js';
import { loadSupersets, supersetTable } from './load-supersets.js';
import { type JoinRule, compileRule } from './compile.js';
import { type GroundFact, evaluateComponent } from './evaluate.js';
import { type Context, type InstantiateLimits, storeOf } from './run-context.js';
import type { TermTable } from '../datalog/terms.js';
import { IdSet } from '../datalog/id-bits.js';
import type { GroundGame } from './types.js';
import { AUX_ROOT, auxPrefix, gameSymbols } from './split.js';
import { DEFAULT_SPLIT_ABOVE, splitEnv, splitLargeRules } from './split-run.js';
import type { LazyPlan } from './lazy.js';
import { lazyDynamic, lazyPart } from './lazy-part.js';
import { withLaterLazyRules } from './lazy-scan.js';
import { appendRule, createRuleBuffer } from './rule-buffer.js';
import { atomTerms, compactRules, gameFields, gameWithRules } from './compact.js';
import { checkComponentEstimate } from './component-estimate.js';
import { lastReaders, releaseBlocks } from './release.js';
import { demandPrefix, planDemand } from './static-demand.js';
import { checkWaiting, demandFor, startDemand, waits } from './static-demand-run.js';
import { handedStatics, takeHanded } from './handed-statics.js';

export { DEFAULT_INSTANTIATE_LIMITS, type InstantiateLimits } from './run-context.js';

const NONE: readonly number[] = Object.freeze([]);

/** Relations that only the game description may define, never a state. */
const MUST_BE_STATIC = ['role', 'init', 'base', 'input'];

function invalid(game: NormalGame, pos: { line: number; col: number }, message: string): GdlError {
  return new GdlError([diag('error', game.file, pos, message)]);
}

/** Rejects heads that no rule may have, and static keywords that depend on the state. */
function checkHeads(game: NormalGame, dynamic: ReadonlySet<string>): void {
  for (const r of game.rules) {
    const rel = r.head.rel;
    if (rel === 'true' || rel === 'does' || rel === 'distinct') throw invalid(game, r.pos, `'${rel}' cannot be the head of a rule`);
    if (MUST_BE_STATIC.includes(rel) && dynamic.has(rel)) throw invalid(game, r.pos, `'${rel}' must not depend on 'true' or 'does'`);
  }
}

/**
 * A deadline tick for the work before the joins (supersets interned, rules compiled), given the
 * relation at hand: a stop names the first rule of that relation, as a stop in its join would.
 */
function ruleTicker(deadline: Deadline, game: NormalGame, what: string): (rel: string) => void {
  return (rel) => {
    if (!deadline.tick()) return;
    const pos = game.rules.find((r) => r.head.rel === rel)?.pos ?? NO_POS;
    throw relationLimitError(game.file, pos, rel, `instantiating this rule for '${rel}' stopped: ${deadline.describe()} (${what})`, deadlineLimit(deadline));
  };
}

/** Rules grouped by component of the relation graph, in evaluation order (bodies before heads). */
function componentsInOrder(plain: readonly Rule[], compiled: readonly JoinRule[], facts: readonly GroundFact[]): { rels: Set<string>; rules: JoinRule[]; facts: GroundFact[] }[] {
  const graph = relationGraph(plain);
  const byHead = groupBy(compiled, (r) => r.head.rel);
  const factsOf = groupBy(facts, (f) => f.rel);
  return relationComponents(graph.relations, graph.edges)
    .map((c) => ({ rels: new Set(c.members), rules: c.members.flatMap((rel) => byHead.get(rel) ?? []), facts: c.members.flatMap((rel) => factsOf.get(rel) ?? []) }))
    .filter((v) => v.rules.length > 0 || v.facts.length > 0);
}

/** `items` grouped by `key`, each group in the order of `items`. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of items) {
    // Appended in place: copying the list per item was quadratic in the rules of one head.
    const list = out.get(key(x));
    if (list === undefined) out.set(key(x), [x]);
    else list.push(x);
  }
  return out;
}

/**
 * The game's facts (ground heads without a body), interned, and its other rules compiled for
 * the join: a fact needs no compiling (games with hundreds of thousands of static facts spent
 * most of instantiation there). Rules are compiled in source order, so their errors come first
 * as before; facts are never unsafe.
 */
function compileGame(game: NormalGame, table: TermTable, key: (atom: Atom) => string, tick: (rel: string) => void): { compiled: JoinRule[]; facts: GroundFact[] } {
  const compiled: JoinRule[] = [];
  const facts: GroundFact[] = [];
  for (const r of game.rules) {
    tick(r.head.rel);
    if (r.body.length === 0 && r.head.args.every(isGround)) facts.push({ rel: key(r.head), head: internAtom(table, r.head), source: r });
    else compiled.push(compileRule(r, game.file, table, key));
  }
  return { compiled, facts };
}

/** The term id of a ground atom, interned as compileAtom interns a ground head. */
function internAtom(table: TermTable, atom: Atom): number {
  const args = new Array<number>(atom.args.length);
  for (let i = 0; i < args.length; i++) args[i] = table.fromTerm(atom.args[i]!);
  return table.compound(atom.rel, args);
}

/**
 * The relations evaluated exactly and removed from bodies: those depending on neither `true`
 * nor `does`, except any static component that negates its own relations (stratified only atom
 * by atom, which exact evaluation here does not do) and everything that uses it: those stay in
 * the ground game as rules, with their negations resolved as in state-dependent components.
 */
function staticRelations(game: NormalGame, plain: readonly Rule[], dynamic: ReadonlySet<string>): Set<string> {
  const graph = relationGraph(plain);
  const statics = new Set(graph.relations.filter((r) => !dynamic.has(r) && r !== 'true' && r !== 'does'));
  const demoted = graph.edges
    .filter((e) => e.negative && statics.has(e.to) && graph.component.get(e.from) === graph.component.get(e.to))
    .map((e) => e.to);
  // Everything that depends on a demoted relation is demoted too (iteratively, over the edges).
  const todo = [...demoted];
  const seen = new Set(todo);
  while (todo.length > 0) {
    const rel = todo.pop()!;
    statics.delete(rel);
    for (const e of graph.edges) if (e.from === rel && !seen.has(e.to)) (seen.add(e.to), todo.push(e.to));
  }
  for (const rel of MUST_BE_STATIC) {
    const r = game.rules.find((x) => x.head.rel === rel && seen.has(rel));
    if (r !== undefined) throw invalid(game, r.pos, `'${rel}' depends on a relation that negates itself`);
  }
  return statics;
}

/** The roles in the order of the description, then any derived by rules, by text. */
function orderedRoles(game: NormalGame, ctx: Context): number[] {
  const t = ctx.table;
  const store = storeOf(ctx, 'role');
  const out: number[] = [];
  for (const r of game.rules) {
    if (r.head.rel !== 'role' || r.body.length > 0 || r.head.args.length !== 1) continue;
    const id = t.lookup('role', [t.fromTerm(r.head.args[0]!)]);
    if (inStore(store, id) && !out.includes(id)) out.push(id);
  }
  // `arity` and `arg`, not `args`: its memo is filled up to the id asked, and a role atom made
  // late in the run has an id near the table's end (amazons: a million entries pushed, 30-85 ms).
  const rest = storeIds(store).filter((id) => !out.includes(id) && t.arity(id) === 1);
  rest.sort((a, b) => compareCodePoints(termToString(t.toTerm(a)), termToString(t.toTerm(b))));
  return [...out, ...rest].map((id) => t.arg(id, 0));
}

/** The `(true F)` atoms of the `(init F)` atoms derived (read by `arity` and `arg`, as the roles are). */
function initAtoms(table: TermTable, ctx: Context): number[] {
  return storeIds(storeOf(ctx, 'init')).filter((id) => table.arity(id) === 1).map((id) => table.compound('true', [table.arg(id, 0)]));
}

/**
 * Instantiates every rule of a normalized game over the supersets; the result keeps only
 * rules for next, legal, goal, terminal and non-static axioms (static ones are evaluated and
 * gone). Throws {@link GdlError}: 'invalid' for an unsafe rule, a rule for `true` or `does`,
 * or `role`/`init` depending on the state; 'limit' when a limit of `limits` is exceeded.
 */
export function instantiateGame(whole: NormalGame, supersets: Supersets, limits: InstantiateLimits, lazy?: LazyPlan): GroundGame {
  // An auxiliary relation reused with a demand it was not made for (aux-demand.ts): again without demands.
  return (limits.auxDemand === true ? withDemands(whole, supersets, limits, lazy) : undefined) ?? instantiateOnce(whole, supersets, limits, lazy, false);
}

/**
 * {@link instantiateOnce} with demands on auxiliary relations, or undefined when a demand
 * conflicts. The conflict is dropped with this frame: a caught error keeps its stack's frames,
 * whose closures hold the stopped run's stores, alive (docs/corpus.md, cinst24).
 */
function withDemands(whole: NormalGame, supersets: Supersets, limits: InstantiateLimits, lazy: LazyPlan | undefined): GroundGame | undefined {
  try {
    return instantiateOnce(whole, supersets, limits, lazy, true);
  } catch (err) {
    if (err instanceof AuxDemandConflict) return undefined;
    throw err;
  }
}

/** {@link instantiateGame}, with or without demands on auxiliary relations (aux-demand.ts). */
function instantiateOnce(whole: NormalGame, supersets: Supersets, limits: InstantiateLimits, lazy: LazyPlan | undefined, demands: boolean): GroundGame {
  // With lazy axioms (docs/lazy.md) only the ground part is instantiated; what uses a lazy
  // relation depends on the state through it.
  const game = lazy?.ground ?? whole;
  const plain = game.rules.map(asRule);
  const dynamic = lazy === undefined ? stateDependent(plain) : lazyDynamic(plain, lazy);
  checkHeads(game, dynamic);
  const statics = staticRelations(game, plain, dynamic);
  const table = supersetTable(supersets);
  const headFilter = new Map<string, IdSet>();
  const headSeeds = new Map<string, Store>();
  const several = severalArities(plain);
  // With a lazy part, its static facts come from the stores: demanded ones would be incomplete.
  const demanded = lazy === undefined ? supersets.demandedStatics ?? [] : [];
  // Static relations derived exactly by the superset stage, taken instead of evaluated (not
  // under a lazy plan, whose superset game is another, nor when the run demanded statics).
  const handed = lazy === undefined && demanded.length === 0 ? handedStatics(supersets, { statics, several }) : undefined;
  const run: Context = {
    file: game.file, table, limits, stores: new Map(), blocks: new Map(), statics, headFilter, headSeeds,
    rules: createRuleBuffer(), scratch: { pos: new Int32Array(16), neg: new Int32Array(16), npos: 0, nneg: 0 }, counters: { atoms: 0, literals: 0, dropped: 0 }, several, ruleHeads: new Set(),
    ...(demands ? { auxDemand: new Map() } : {}),
    ...(lazy === undefined ? {} : { lazy: new Set(lazy.relations) }),
    ...(handed === undefined ? {} : { handed }),
  };
  const key = (atom: Atom): string => relationKey(atom, run.several);
  // A million axioms take seconds to intern (amazonsTorus: 1.15×10⁶, 5 s of processor time at a load of 20).
  const tick = ruleTicker(limits.deadline, game, 'loading its superset');
  loadSupersets(run, supersets, { statics, demanded, key, tick }, headFilter, headSeeds);
  const { compiled, facts } = compileGame(game, table, key, ruleTicker(limits.deadline, game, 'compiling it'));
  // Rule splitting (docs/ground.md): only rules estimated above the threshold are touched.
  const split = splitEnv(limits.splitAbove ?? DEFAULT_SPLIT_ABOVE, auxPrefix(gameSymbols(game, AUX_ROOT)), key, limits.frameAbove, limits.frameShared === true, limits.frameNext === true);
  const components = componentsInOrder(plain, compiled, facts);
  const last = lastReaders(components);
  // Static components read only through bound columns run later, for what their readers ask.
  const keep = new Set([...(lazy?.statics ?? []), ...headSeeds.keys()]);
  const plan = planDemand(components, { statics, keep, ...(run.lazy === undefined ? {} : { lazy: run.lazy }) }, key, demandPrefix(game));
  const demand = startDemand(run, plan, components);
  for (let i = 0; i < components.length; i++) {
    const comp = components[i]!;
    if (waits(demand, i)) {
      checkWaiting(run, demand, comp);
      releaseBlocks(run, last, i);
      continue;
    }
    demandFor(run, demand, comp, split);
    const rules = splitLargeRules(run, comp.rules, comp.rels, split);
    checkComponentEstimate(run, rules, comp.rels);
    if (takeHanded(run, comp.rels)) {
      releaseBlocks(run, last, i);
      continue;
    }
    try {
      evaluateComponent(run, rules, comp.rels, comp.facts);
    } catch (err) {
      // The lazy rounds take the component's later rules refused alike at once (lazy-scan.ts).
      throw withLaterLazyRules(run, comp.rules, rules, comp.rels, err);
    }
    releaseBlocks(run, last, i);
  }
  // What follows reads stores only: the blocks left (splitting's) go before the game is assembled.
  run.blocks.clear();
  // Static keyword relations (a `goal` fact, `legal` from `role`) stay in the game as facts.
  for (const rel of OUTPUT_KEYWORDS) {
    if (!statics.has(rel)) continue;
    for (const id of storeIds(storeOf(run, rel))) appendRule(run.rules, id, NONE, NONE);
  }
  const lazyTick = deadlineTicker(limits.deadline, game.file, 'making the lazy part');
  const part = lazy === undefined ? undefined : lazyPart(lazy, supersets, table, (rel) => storeIds(storeOf(run, rel)), lazyTick);
  const ground = assembleGame(game.file, table, orderedRoles(game, run), initAtoms(table, run), run.rules, limits.deadline, part);
  if (split.frame.rules === 0 && split.frame.candidates === 0) return ground;
  // Not spread: that would make the rule objects the later stages do without (compact.ts).
  return gameWithRules({ ...gameFields(ground), frame: { ...split.frame } }, atomTerms(ground), compactRules(ground));
}
