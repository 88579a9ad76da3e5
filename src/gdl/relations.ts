/**
 * The relation dependency graph (an edge from each body relation to the head relation of a
 * rule, marked when the body literal is negative) and the classification of relations that
 * `check`, reach and instantiation share.
 */
import type { Atom, Formula, Rule, Term } from './ast.js';
import { KEYWORDS } from './ast.js';
import { stronglyConnectedComponents } from './scc.js';

/** One body occurrence: relation `from` feeds the head relation of the rule. */
interface DependencyEdge {
  readonly from: string;
  readonly to: string;
  readonly negative: boolean;
}

/** Relation dependency graph over relation keys (see {@link relationKeys}). */
export interface RelationGraph {
  /** Every relation key occurring in a head or body, sorted. */
  readonly relations: readonly string[];
  readonly edges: readonly DependencyEdge[];
  /** Relation key -> id of its strongly connected component (heads before bodies). */
  readonly component: ReadonlyMap<string, number>;
  /** The key of an atom's relation in this graph. */
  readonly key: (atom: Atom) => string;
}

/** A relation atom as far as its key goes: name and number of arguments. */
interface RelationUse {
  readonly rel: string;
  readonly args: readonly unknown[];
}

/**
 * The key of a relation in graphs and stores: its name, or `name/arity` when the game uses the
 * non-keyword name with several numbers of arguments, which are then distinct relations (read
 * as Prolog reasoners read them; the validator warns). Names used with one arity keep their
 * plain name, so keys, messages and outputs of ordinary games do not change. A key is an
 * opaque map key and text for output: it is never cut apart again (where name and arity are
 * needed, they are kept as parts, or as ids of a `RelationTable`, src/gdl/relation-table.ts).
 */
export function relationKey(atom: RelationUse, several: ReadonlySet<string>): string {
  return several.has(atom.rel) ? `${atom.rel}/${atom.args.length}` : atom.rel;
}

/** The non-keyword relation names that `rules` use with several numbers of arguments. */
export function severalArities(rules: readonly { readonly head: Atom; readonly body: readonly Formula[] }[]): Set<string> {
  const arity = new Map<string, number>();
  const out = new Set<string>();
  const note = (a: Atom): void => {
    const n = arity.get(a.rel);
    if (n === undefined) arity.set(a.rel, a.args.length);
    else if (n !== a.args.length && !KEYWORDS.has(a.rel)) out.add(a.rel);
  };
  for (const r of rules) {
    note(r.head);
    for (const b of r.body) forEachBodyAtom(b, false, note);
  }
  return out;
}

/** The key function of the relations of `rules` ({@link relationKey} over their several-arity names). */
export function relationKeys(rules: readonly Rule[]): (atom: RelationUse) => string {
  const several = severalArities(rules);
  return (atom) => relationKey(atom, several);
}

/** Calls `visit` for each atom of a formula, with whether it stands under an odd number of `not`s. */
export function forEachBodyAtom(f: Formula, negated: boolean, visit: (atom: Atom, negative: boolean) => void): void {
  const stack: [Formula, boolean][] = [[f, negated]];
  while (stack.length > 0) {
    const [g, neg] = stack.pop()!;
    if (g.kind === 'atom') visit(g, neg);
    else if (g.kind === 'not') stack.push([g.arg, !neg]);
    else if (g.kind === 'and' || g.kind === 'or') for (const a of g.args) stack.push([a, neg]);
  }
}

/** One strongly connected component of a relation graph. */
interface RelationComponent {
  /** Its relations, sorted. */
  readonly members: string[];
  /** True when some edge stays inside the component (a cycle, or a relation using itself). */
  readonly recursive: boolean;
}

/**
 * The strongly connected components of the graph over `nodes` with `edges` from a body
 * relation to a head relation, bodies first: every edge comes from the same or an earlier
 * component. The one component computation of relation graphs (reach, instantiation,
 * dependency-graph method); the order is deterministic (nodes and successors sorted).
 */
export function relationComponents(nodes: Iterable<string>, edges: readonly { readonly from: string; readonly to: string }[]): RelationComponent[] {
  const names = [...new Set(nodes)].sort();
  const id = new Map(names.map((n, i) => [n, i]));
  const preds: Set<number>[] = names.map(() => new Set());
  for (const e of edges) {
    const from = id.get(e.from);
    const to = id.get(e.to);
    if (from !== undefined && to !== undefined) preds[to]!.add(from);
  }
  const succ = preds.map((s) => [...s].sort((a, b) => a - b));
  // Successors are body relations, so Tarjan lists bodies first.
  return stronglyConnectedComponents(names.length, (v) => succ[v]!).map((comp) => {
    const sorted = comp.sort((a, b) => a - b);
    return { members: sorted.map((i) => names[i]!), recursive: sorted.length > 1 || preds[sorted[0]!]!.has(sorted[0]!) };
  });
}

/** Builds the relation dependency graph of a rule set and its strongly connected components. */
export function relationGraph(rules: readonly Rule[]): RelationGraph {
  const key = relationKeys(rules);
  const names = new Set<string>();
  const edges: DependencyEdge[] = [];
  for (const r of rules) {
    const head = key(r.head);
    names.add(head);
    for (const b of r.body) {
      forEachBodyAtom(b, false, (atom, negative) => {
        names.add(key(atom));
        edges.push({ from: key(atom), to: head, negative });
      });
    }
  }
  const relations = [...names].sort();
  const component = new Map<string, number>();
  // Numbered heads first (the reverse of the evaluation order), as readers of `component` expect.
  const comps = relationComponents(relations, edges);
  comps.forEach((comp, c) => {
    for (const rel of comp.members) component.set(rel, comps.length - 1 - c);
  });
  return { relations, edges, component, key };
}

/** The kinds of relation the summary of `check` reports. */
interface RelationClasses {
  /** Functors of fluents: names of the terms under init, true and next. */
  readonly fluents: readonly string[];
  /** Functors of moves: names of the action terms under legal and does. */
  readonly moves: readonly string[];
  /** Non-keyword relations that depend on neither `true` nor `does` (their value never changes). */
  readonly staticRelations: readonly string[];
  /** Non-keyword relations that depend on `true` or `does`. */
  readonly axioms: readonly string[];
}

function functor(t: Term | undefined): string | undefined {
  return t === undefined || t.kind === 'var' ? undefined : t.name;
}

/** The relations reachable from `starts` along body-to-head `edges` (the starts themselves only if reached again). */
export function dependents(edges: readonly { readonly from: string; readonly to: string }[], starts: readonly string[]): Set<string> {
  const feeds = new Map<string, string[]>();
  for (const e of edges) {
    const list = feeds.get(e.from);
    if (list === undefined) feeds.set(e.from, [e.to]);
    else list.push(e.to);
  }
  const out = new Set<string>();
  const todo = [...starts];
  while (todo.length > 0) {
    for (const n of feeds.get(todo.pop()!) ?? []) {
      if (!out.has(n)) (out.add(n), todo.push(n));
    }
  }
  return out;
}

/**
 * Relation keys ({@link relationKeys}: names, or `name/arity` for a name used with several
 * arities) that depend, directly or transitively, on `true` or `does`.
 */
export function stateDependent(rules: readonly Rule[]): Set<string> {
  return dependents(relationGraph(rules).edges, ['true', 'does']);
}

/** Classifies the relations and term functors of a game. */
export function classifyRelations(rules: readonly Rule[]): RelationClasses {
  const fluents = new Set<string>();
  const moves = new Set<string>();
  const all = new Set<string>();
  const key = relationKeys(rules);
  const noteAtom = (a: Atom): void => {
    all.add(key(a));
    if (a.rel === 'init' || a.rel === 'true' || a.rel === 'next') {
      const f = functor(a.args[0]);
      if (f !== undefined) fluents.add(f);
    } else if (a.rel === 'legal' || a.rel === 'does') {
      const m = functor(a.args[1]);
      if (m !== undefined) moves.add(m);
    }
  };
  for (const r of rules) {
    noteAtom(r.head);
    for (const b of r.body) forEachBodyAtom(b, false, (a) => noteAtom(a));
  }
  const dynamic = stateDependent(rules);
  const plain = [...all].filter((r) => !KEYWORDS.has(r)).sort();
  return {
    fluents: [...fluents].sort(),
    moves: [...moves].sort(),
    staticRelations: plain.filter((r) => !dynamic.has(r)),
    axioms: plain.filter((r) => dynamic.has(r)),
  };
}

/** `rules` by the relation key (`key`) of their head, in their order. */
export function rulesByHead<R extends { readonly head: Atom }>(rules: readonly R[], key: (a: Atom) => string): Map<string, R[]> {
  const byHead = new Map<string, R[]>();
  for (const r of rules) {
    const k = key(r.head);
    const list = byHead.get(k);
    if (list === undefined) byHead.set(k, [r]);
    else list.push(r);
  }
  return byHead;
}
