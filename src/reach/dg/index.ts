/**
 * The dependency-graph method of section 9.1.2 (Algorithms 9.3 and 9.4): supersets of the
 * reachable fluents, moves and axioms from the argument dependency graph, reduced to a
 * fixpoint. Relations independent of `true` and `does` are evaluated exactly first and then
 * count as given by facts, which keep their exact instances.
 */
import type { Atom, Term } from '../../gdl/ast.js';
import { KEYWORDS, NO_POS, mkAtom } from '../../gdl/ast.js';
import { stateDependent } from '../../gdl/relations.js';
import { compareCodePoints } from '../../gdl/terms.js';
import { type NormalGame, type NormalRule, asRule } from '../../normalize/types.js';
import { StageTimer } from '../../timer.js';
import { type ReachLimits, type ReachResult, type ReachStats, type Supersets, DEFAULT_REACH_LIMITS } from '../types.js';
import { resolveDomains, type Domains } from './domains.js';
import { type TupleSet, relKey } from './eval.js';
import { type ArgGraph, buildArgGraph, relPositionId } from './graph.js';
import { type Guard, createGuard } from './join.js';
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
  /** Product size per relation key (`cell/3`), sorted by key. */
  readonly productByRelation: readonly { readonly rel: string; readonly size: number }[];
  /** The supersets after reduceSupersetsDG: what instantiation receives. */
  readonly supersets: Supersets;
  /** The exact instances of the static non-keyword relations (part of `supersets.axioms`). */
  readonly staticAxioms: readonly Atom[];
  /** Recursive components computed upward because their products exceeded the atom budget. */
  readonly upwardComponents: number;
  readonly stats: ReachStats;
}

const v = (name: string): Term => ({ kind: 'var', name, pos: NO_POS });

/** `true(F) <= init(F)`, `true(F) <= next(F)` and `does(R, M) <= legal(R, M)` of the relaxed game. */
export const BRIDGE_RULES: readonly NormalRule[] = [
  { head: mkAtom('true', [v('?f')]), body: [{ kind: 'pos', atom: mkAtom('init', [v('?f')]) }], pos: NO_POS },
  { head: mkAtom('true', [v('?f')]), body: [{ kind: 'pos', atom: mkAtom('next', [v('?f')]) }], pos: NO_POS },
  { head: mkAtom('does', [v('?r'), v('?m')]), body: [{ kind: 'pos', atom: mkAtom('legal', [v('?r'), v('?m')]) }], pos: NO_POS },
];

/** Relations the supersets do not need (Algorithm 9.2 leaves their rules out as well). */
const NOT_NEEDED: ReadonlySet<string> = new Set(['goal', 'terminal', 'base', 'input']);

/**
 * The rules the supersets depend on: all but goal, terminal, base and input rules, unless
 * another kept rule uses one of these positively (leaving it out would then lose instances).
 */
function neededRules(rules: readonly NormalRule[]): NormalRule[] {
  const used = new Set<string>();
  for (const r of rules) {
    if (NOT_NEEDED.has(r.head.rel)) continue;
    for (const l of r.body) if (l.kind === 'pos' && NOT_NEEDED.has(l.atom.rel)) used.add(l.atom.rel);
  }
  // Their own bodies may use each other: close the set.
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of rules) {
      if (!used.has(r.head.rel)) continue;
      for (const l of r.body) {
        if (l.kind === 'pos' && NOT_NEEDED.has(l.atom.rel) && !used.has(l.atom.rel)) {
          used.add(l.atom.rel);
          changed = true;
        }
      }
    }
  }
  return rules.filter((r) => !NOT_NEEDED.has(r.head.rel) || used.has(r.head.rel));
}

function nameOf(rel: string): string {
  return rel.slice(0, rel.lastIndexOf('/'));
}

/** The static relations' instances as facts, so that the graph sees their exact values. */
function staticFacts(table: TermTable, statics: ReadonlyMap<string, TupleSet>): NormalRule[] {
  const out: NormalRule[] = [];
  for (const [rel, set] of [...statics].sort((a, b) => compareCodePoints(a[0], b[0]))) {
    for (const t of set.tuples) out.push({ head: mkAtom(nameOf(rel), t.map((id) => table.toTerm(id))), body: [], pos: NO_POS });
  }
  return out;
}

function atomText(rel: string, args: readonly string[]): string {
  return args.length === 0 ? rel : `(${rel} ${args.join(' ')})`;
}

/** Reads the sorted supersets off the relation sets. */
function collect(table: TermTable, sets: ReadonlyMap<string, TupleSet>): Supersets {
  const byText = <T>(items: { text: string; value: T }[]): T[] =>
    items.sort((a, b) => compareCodePoints(a.text, b.text)).map((i) => i.value);
  const tuples = (rel: string): readonly (readonly number[])[] => sets.get(rel)?.tuples ?? [];
  const fluents = byText(tuples('true/1').map((t) => ({ text: table.text(t[0]!), value: table.toTerm(t[0]!) })));
  const moves = byText(
    tuples('does/2').map((t) => ({ text: `${table.text(t[0]!)} ${table.text(t[1]!)}`, value: { role: table.toTerm(t[0]!), action: table.toTerm(t[1]!) } })),
  );
  const axioms: { text: string; value: Atom }[] = [];
  for (const [rel, set] of sets) {
    const name = nameOf(rel);
    if (KEYWORDS.has(name)) continue;
    for (const t of set.tuples) {
      axioms.push({ text: atomText(name, t.map((id) => table.text(id))), value: mkAtom(name, t.map((id) => table.toTerm(id))) });
    }
  }
  return { fluents, moves, axioms: byText(axioms) };
}

/** Product sizes of Algorithm 9.3 for every needed relation. */
function productSizes(
  domains: Domains,
  rels: readonly string[],
  statics: ReadonlyMap<string, TupleSet>,
): { sizes: SupersetSizes; byRelation: { rel: string; size: number }[] } {
  const byRelation = [...rels].sort(compareCodePoints).map((rel) => {
    const s = statics.get(rel);
    if (s !== undefined) return { rel, size: s.tuples.length };
    const n = Number(rel.slice(rel.lastIndexOf('/') + 1));
    let size = 1;
    for (let i = 1; i <= n; i++) {
      const c = domains.count(relPositionId(nameOf(rel), n, i));
      size = c === 0 ? 0 : size * c;
      if (size === 0) break;
    }
    return { rel, size };
  });
  const get = (rel: string): number => byRelation.find((r) => r.rel === rel)?.size ?? 0;
  const axioms = byRelation.filter((r) => !KEYWORDS.has(nameOf(r.rel))).reduce((s, r) => s + r.size, 0);
  return { sizes: { fluents: get('true/1'), moves: get('does/2'), axioms }, byRelation };
}

type Timed = <T>(step: string, fn: () => T) => T;

/** Static relations evaluated exactly, then the graph (Algorithm 9.3, lines 1-10) and its domains (line 11). */
function graphStage(
  game: NormalGame,
  table: TermTable,
  guard: Guard,
  timed: Timed,
  complete = false,
): { statics: Map<string, TupleSet>; dynamicRules: NormalRule[]; graph: ArgGraph; domains: Domains } {
  const dependent = stateDependent(game.rules.map(asRule));
  dependent.add('true');
  dependent.add('does');
  const kept = neededRules(game.rules);
  const staticRules = kept.filter((r) => !dependent.has(r.head.rel));
  const dynamicRules = kept.filter((r) => dependent.has(r.head.rel));
  const statics = timed('statics', () => evaluateStatics(table, staticRules, guard));
  // `complete`: goal and terminal rules too, for display, though the supersets do not need them.
  const shown = complete ? game.rules.filter((r) => dependent.has(r.head.rel)) : dynamicRules;
  const graph = timed('graph', () => buildArgGraph([...shown, ...BRIDGE_RULES, ...staticFacts(table, statics)]));
  const domains = timed('domains', () => resolveDomains(graph));
  return { statics, dynamicRules, graph, domains };
}

/**
 * The argument dependency graph of a game and its resolved domains, without the reduction
 * (for `gdl-ground graph`). Static relations are evaluated first and enter as facts.
 */
export function dependencyGraph(game: NormalGame, limits: ReachLimits = DEFAULT_REACH_LIMITS): { graph: ArgGraph; domains: Domains } {
  const { graph, domains } = graphStage(game, new TermTable(), createGuard(game.file, limits), (_s, fn) => fn(), true);
  return { graph, domains };
}

/**
 * Runs Algorithms 9.3 and 9.4 and keeps every intermediate result. Throws GdlError with code
 * 'limit' naming the relation when `limits` are exceeded or a domain it needs is infinite.
 */
export function analyzeDG(game: NormalGame, limits: ReachLimits = DEFAULT_REACH_LIMITS): DGAnalysis {
  const timer = new StageTimer();
  const timed = <T>(step: string, fn: () => T): T => timer.run(step, fn);
  const table = new TermTable();
  const guard = createGuard(game.file, limits);
  const { statics, dynamicRules, graph, domains } = graphStage(game, table, guard, timed);
  const reduceRules = [...dynamicRules, ...BRIDGE_RULES];
  const neededRels = [...new Set([...reduceRules.map((r) => relKey(r.head.rel, r.head.args.length)), ...statics.keys()])];
  const products = productSizes(domains, neededRels, statics);
  const reduced = timed('reduce', () => reduceSupersetsDG(table, reduceRules, statics, domains, limits.maxAtoms, guard));
  const all = new Map<string, TupleSet>([...statics, ...reduced.sets]);
  const supersets = timed('collect', () => collect(table, all));
  const staticAxioms = collect(table, statics).axioms;
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
export function computeSupersetsDG(game: NormalGame, limits: ReachLimits = DEFAULT_REACH_LIMITS): ReachResult {
  const a = analyzeDG(game, limits);
  return { supersets: a.supersets, stats: a.stats };
}
