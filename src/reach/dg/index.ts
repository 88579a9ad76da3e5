/**
 * The dependency-graph method of section 9.1.2 (Algorithms 9.3 and 9.4): supersets of the
 * reachable fluents, moves and axioms from the argument dependency graph, reduced to a
 * fixpoint. Relations independent of `true` and `does` are evaluated exactly first and then
 * count as given by facts, which keep their exact instances.
 */
import { refuseDeepTerms } from '../depth.js';
import { DEFAULT_MAX_TERM_DEPTH } from '../prolog.js';
import type { Atom } from '../../gdl/ast.js';
import { KEYWORDS, NO_POS, mkAtom } from '../../gdl/ast.js';
import { relationKeys, stateDependent } from '../../gdl/relations.js';
import { compareCodePoints, sortByCodePoints } from '../../gdl/terms.js';
import { type NormalGame, type NormalRule, asRule } from '../../normalize/types.js';
import { StageTimer } from '../../timer.js';
import { type ReachLimits, type ReachResult, type ReachStats, type Supersets } from '../types.js';
import { BRIDGE_RULES, neededRules } from '../relaxation.js';
import { resolveDomains, type Domains } from './domains.js';
import { type Store, storeIds, storeSize } from '../../datalog/block.js';
import { type EvalContext, atomRel, evalContext } from './eval.js';
import { type ArgGraph, buildArgGraph, relationArguments } from './graph.js';
import { createGuard } from './guard.js';
import { reduceSupersetsDG } from './reduce.js';
import { evaluateStatics } from './statics.js';
import { TermTable } from '../../datalog/terms.js';

/** Sizes of the three supersets (Infinity when a domain is infinite). */
export interface SupersetSizes {
  readonly fluents: number;
  readonly moves: number;
  readonly axioms: number;
}

/** Everything the dependency-graph method finds, for `compare`, `graph` and benchmarks. */
export interface DGAnalysis {
  readonly graph: ArgGraph;
  readonly domains: Domains;
  /** Sizes of the products of Algorithm 9.3, line 13 (static relations exact). */
  readonly productSizes: SupersetSizes;
  /** Product size per relation, named by its text `name/arity` (`cell/3`), sorted by that text. */
  readonly productByRelation: readonly { readonly rel: string; readonly size: number }[];
  /** The supersets after reduceSupersetsDG: what instantiation receives. */
  readonly supersets: Supersets;
  /** The exact instances of the static non-keyword relations (part of `supersets.axioms`). */
  readonly staticAxioms: readonly Atom[];
  /** Recursive components computed upward because their products exceeded the atom budget. */
  readonly upwardComponents: number;
  readonly stats: ReachStats;
}

/** The static relations' instances as facts, so that the graph sees their exact values. */
function staticFacts(ctx: EvalContext, statics: ReadonlyMap<number, Store>, tick: () => void): NormalRule[] {
  const { table, rels } = ctx;
  const out: NormalRule[] = [];
  for (const [rel, store] of [...statics].sort((a, b) => compareCodePoints(rels.key(a[0]), rels.key(b[0])))) {
    for (const id of storeIds(store)) {
      tick();
      out.push({ head: mkAtom(rels.name(rel), table.args(id).map((a) => table.toTerm(a))), body: [], pos: NO_POS });
    }
  }
  return out;
}

/** Reads the sorted supersets off the relation sets (terms are built only after sorting). */
export function collectSupersets(ctx: Pick<EvalContext, 'table' | 'rels'>, sets: ReadonlyMap<number, Store>): Supersets {
  const { table, rels } = ctx;
  const byText = <T>(items: number[], text: (id: number) => string, value: (id: number) => T): T[] =>
    sortByCodePoints(items, text).map(value);
  const atoms = (name: string, arity: number): number[] => {
    const rel = rels.find(name, arity);
    const s = rel === undefined ? undefined : sets.get(rel);
    return s === undefined ? [] : storeIds(s);
  };
  const fluents = byText(atoms('true', 1), (id) => table.text(table.arg(id, 0)), (id) => table.toTerm(table.arg(id, 0)));
  const moves = byText(
    atoms('does', 2),
    (id) => `${table.text(table.arg(id, 0))} ${table.text(table.arg(id, 1))}`,
    (id) => ({ role: table.toTerm(table.arg(id, 0)), action: table.toTerm(table.arg(id, 1)) }),
  );
  const axioms: number[] = [];
  for (const [rel, store] of sets) if (!KEYWORDS.has(rels.name(rel))) for (const id of storeIds(store)) axioms.push(id);
  // An atom's text is the relation's KIF text with its arguments: `(cell 1 2 b)`, or `p`.
  const axiomTerms = byText(axioms, (id) => table.text(id), (id) => mkAtom(table.name(id), table.args(id).map((a) => table.toTerm(a))));
  return { fluents, moves, axioms: axiomTerms };
}

/** Product sizes of Algorithm 9.3 for every needed relation. */
function productSizes(
  graph: ArgGraph,
  domains: Domains,
  needed: readonly number[],
  statics: ReadonlyMap<number, Store>,
): { sizes: SupersetSizes; byRelation: { rel: string; size: number }[] } {
  const rels = graph.relations;
  const sized = [...needed].sort((a, b) => compareCodePoints(rels.key(a), rels.key(b))).map((rel) => {
    const s = statics.get(rel);
    if (s !== undefined) return { rel, size: storeSize(s) };
    let size = 1;
    for (const pos of relationArguments(graph, rel)) {
      const c = pos === undefined ? 0 : domains.count(pos);
      size = c === 0 ? 0 : size * c;
      if (size === 0) break;
    }
    return { rel, size };
  });
  const get = (name: string, arity: number): number => sized.find((r) => r.rel === rels.find(name, arity))?.size ?? 0;
  const axioms = sized.filter((r) => !KEYWORDS.has(rels.name(r.rel))).reduce((s, r) => s + r.size, 0);
  const byRelation = sized.map((r) => ({ rel: rels.key(r.rel), size: r.size }));
  return { sizes: { fluents: get('true', 1), moves: get('does', 2), axioms }, byRelation };
}

type Timed = <T>(step: string, fn: () => T) => T;

/** Static relations evaluated exactly, then the graph (Algorithm 9.3, lines 1-10) and its domains (line 11). */
function graphStage(
  game: NormalGame,
  ctx: EvalContext,
  timed: Timed,
  complete = false,
): { statics: Map<number, Store>; dynamicRules: NormalRule[]; graph: ArgGraph; domains: Domains } {
  const plain = game.rules.map(asRule);
  const dependent = stateDependent(plain);
  const key = relationKeys(plain);
  dependent.add('true');
  dependent.add('does');
  const kept = neededRules(game.rules);
  const staticRules = kept.filter((r) => !dependent.has(key(r.head)));
  const dynamicRules = kept.filter((r) => dependent.has(key(r.head)));
  const statics = timed('statics', () => evaluateStatics(ctx, staticRules));
  // `complete`: goal and terminal rules too, for display, though the supersets do not need them.
  const shown = complete ? game.rules.filter((r) => dependent.has(key(r.head))) : dynamicRules;
  const tick = (): void => ctx.guard.tick();
  const graph = timed('graph', () => buildArgGraph([...shown, ...BRIDGE_RULES, ...staticFacts(ctx, statics, tick)], ctx.rels, tick));
  const domains = timed('domains', () => resolveDomains(graph));
  return { statics, dynamicRules, graph, domains };
}

/**
 * The argument dependency graph of a game and its resolved domains, without the reduction
 * (for `gdl-ground graph`). Static relations are evaluated first and enter as facts.
 */
export function dependencyGraph(game: NormalGame, limits: ReachLimits): { graph: ArgGraph; domains: Domains } {
  refuseDeepTerms(game, limits.maxTermDepth ?? DEFAULT_MAX_TERM_DEPTH);
  const ctx = evalContext(new TermTable(), createGuard(game.file, limits));
  const { graph, domains } = graphStage(game, ctx, (_s, fn) => fn(), true);
  return { graph, domains };
}

/**
 * Runs Algorithms 9.3 and 9.4 and keeps every intermediate result. Throws GdlError with code
 * 'limit' naming the relation when `limits` are exceeded or a domain it needs is infinite.
 */
export function analyzeDG(game: NormalGame, limits: ReachLimits): DGAnalysis {
  // Terms as deep as the Prolog method refuses would fill the heap with positions.
  refuseDeepTerms(game, limits.maxTermDepth ?? DEFAULT_MAX_TERM_DEPTH);
  const timer = new StageTimer();
  const timed = <T>(step: string, fn: () => T): T => timer.run(step, fn);
  const table = new TermTable();
  const ctx = evalContext(table, createGuard(game.file, limits));
  const { statics, dynamicRules, graph, domains } = graphStage(game, ctx, timed);
  const reduceRules = [...dynamicRules, ...BRIDGE_RULES];
  const neededRels = [...new Set([...reduceRules.map((r) => atomRel(ctx.rels, r.head)), ...statics.keys()])];
  const products = productSizes(graph, domains, neededRels, statics);
  const reduced = timed('reduce', () => reduceSupersetsDG(ctx, reduceRules, statics, graph, domains, limits.maxAtoms));
  const all = new Map<number, Store>([...statics, ...reduced.sets]);
  const supersets = timed('collect', () => collectSupersets(ctx, all));
  const staticAxioms = collectSupersets(ctx, statics).axioms;
  const kept = supersets.fluents.length + supersets.moves.length + supersets.axioms.length;
  return {
    graph,
    domains,
    productSizes: products.sizes,
    productByRelation: products.byRelation,
    supersets,
    staticAxioms,
    upwardComponents: reduced.stats.upward,
    stats: { method: 'dg', iterations: reduced.stats.rounds, answers: reduced.stats.answers, kept, times: timer.list().map((r) => ({ step: r.stage, ms: r.ms })) },
  };
}

/** Algorithms 9.3 and 9.4: supersets from the argument dependency graph, reduced to a fixpoint. */
export function computeSupersetsDG(game: NormalGame, limits: ReachLimits): ReachResult {
  const a = analyzeDG(game, limits);
  return { supersets: a.supersets, stats: a.stats };
}
