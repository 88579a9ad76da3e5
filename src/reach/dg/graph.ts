/**
 * The argument dependency graph of Definition 9.3 / Algorithm 9.3 (lines 1-10), extended to
 * nested terms as the domain graph of the GGP book (14.2): besides the argument positions of
 * relations it has the argument positions of function symbols, and a position's domain may
 * hold function symbols, each standing for all terms built from its own argument domains.
 *
 * Relations and function symbols are interned ids (`RelationTable`), positions are numbered
 * structured values (symbol id and argument index); the texts `cell/3[2]` and `fn:cell/3[2]`
 * are made from the parts for output and messages, never read back.
 */
import type { Term } from '../../gdl/ast.js';
import { RelationTable } from '../../gdl/relation-table.js';
import type { NormalRule } from '../../normalize/types.js';
import { compareCodePoints } from '../../gdl/terms.js';

/** An argument position described by its parts: the `index`-th (1-based) argument of a relation or function symbol. */
export interface ArgumentRef {
  readonly kind: 'rel' | 'fn';
  readonly name: string;
  readonly arity: number;
  readonly index: number;
}

/** A position of a graph: its parts, its number in the graph and its symbol's id. */
interface Position extends ArgumentRef {
  /** Number of the position in its graph (the key of every map of the graph). */
  readonly id: number;
  /** Id of the relation (`kind` 'rel', in `relations`) or function symbol (in `functions`). */
  readonly symbol: number;
  /** The text of the position, `cell/3[2]` or `fn:cell/3[2]` ({@link positionText}). */
  readonly text: string;
}

/** The merged argument dependency graph of a rule set. */
export interface ArgGraph {
  /** The relations of the graph (shared with the evaluation that built it). */
  readonly relations: RelationTable;
  /** The function symbols of the graph. */
  readonly functions: RelationTable;
  /** Every position, sorted by text. */
  readonly positions: readonly Position[];
  /** Position by number. */
  readonly byId: readonly Position[];
  /** Position number -> numbers of the positions it takes values from (h_i -> b_j of Definition 9.3). */
  readonly edges: ReadonlyMap<number, ReadonlySet<number>>;
  /** Position number -> object constants it may be (h_i -> c of Definition 9.3). */
  readonly constants: ReadonlyMap<number, ReadonlySet<string>>;
  /** Position number -> ids (in `functions`) of the function symbols it may be applied to. */
  readonly functors: ReadonlyMap<number, ReadonlySet<number>>;
  /** Position numbers by kind, symbol id and index - 1. */
  readonly bySymbol: { readonly rel: ReadonlyMap<number, readonly number[]>; readonly fn: ReadonlyMap<number, readonly number[]> };
}

/** The text of a position: `cell/3[2]` for a relation, `fn:cell/3[2]` for a function symbol (kept apart). */
export function positionText(p: ArgumentRef): string {
  return `${p.kind === 'fn' ? 'fn:' : ''}${p.name}/${p.arity}[${p.index}]`;
}

/** The number of the position `ref` in `graph`, or undefined when the graph has no such position. */
export function findPosition(graph: ArgGraph, ref: ArgumentRef): number | undefined {
  const symbols = ref.kind === 'rel' ? graph.relations : graph.functions;
  const symbol = symbols.find(ref.name, ref.arity);
  return symbol === undefined ? undefined : graph.bySymbol[ref.kind].get(symbol)?.[ref.index - 1];
}

/** The argument positions of relation `rel` (an id of `graph.relations`), undefined where the graph has none. */
export function relationArguments(graph: ArgGraph, rel: number): (number | undefined)[] {
  const found = graph.bySymbol.rel.get(rel) ?? [];
  return Array.from({ length: graph.relations.arity(rel) }, (_, i) => found[i]);
}

/** The argument positions of function symbol `fn` (an id of `graph.functions`). */
export function functionArguments(graph: ArgGraph, fn: number): number[] {
  // Every argument of a function symbol the graph records was visited, so it has a position.
  return [...(graph.bySymbol.fn.get(fn) ?? [])];
}

/** A graph under construction. */
interface Builder {
  readonly relations: RelationTable;
  readonly functions: RelationTable;
  readonly byId: Position[];
  readonly bySymbol: { readonly rel: Map<number, number[]>; readonly fn: Map<number, number[]> };
  readonly edges: Map<number, Set<number>>;
  readonly constants: Map<number, Set<string>>;
  readonly functors: Map<number, Set<number>>;
}

function addTo<T>(map: Map<number, Set<T>>, key: number, value: T): void {
  const s = map.get(key);
  if (s === undefined) map.set(key, new Set([value]));
  else s.add(value);
}

function position(b: Builder, kind: 'rel' | 'fn', name: string, arity: number, index: number): number {
  const symbol = (kind === 'rel' ? b.relations : b.functions).intern(name, arity);
  let list = b.bySymbol[kind].get(symbol);
  if (list === undefined) b.bySymbol[kind].set(symbol, (list = []));
  const known = list[index - 1];
  if (known !== undefined) return known;
  const ref = { kind, name, arity, index };
  const p: Position = { ...ref, id: b.byId.length, symbol, text: positionText(ref) };
  b.byId.push(p);
  list[index - 1] = p.id;
  return p.id;
}

/** Calls `visit(term, position)` for each argument term at every depth below a relation. */
function walkArgs(b: Builder, rel: string, args: readonly Term[], visit: (t: Term, pos: number) => void): void {
  const stack: [Term, number][] = args.map((t, i) => [t, position(b, 'rel', rel, args.length, i + 1)]);
  while (stack.length > 0) {
    const [t, pos] = stack.pop()!;
    visit(t, pos);
    if (t.kind === 'fn') t.args.forEach((a, i) => stack.push([a, position(b, 'fn', t.name, t.args.length, i + 1)]));
  }
}

/** Adds one rule: Algorithm 9.3, lines 3-10, for every position of the head at any depth. */
function addRule(b: Builder, rule: NormalRule): void {
  // Where each variable occurs in the positive body: the b_j^k of line 6.
  const occurs = new Map<string, Set<number>>();
  for (const l of rule.body) {
    if (l.kind !== 'pos') continue;
    walkArgs(b, l.atom.rel, l.atom.args, (t, pos) => {
      if (t.kind !== 'var') return;
      const s = occurs.get(t.name);
      if (s === undefined) occurs.set(t.name, new Set([pos]));
      else s.add(pos);
    });
  }
  walkArgs(b, rule.head.rel, rule.head.args, (t, pos) => {
    // Line 7: E <- E u {(h_i, b_j^k)} for every body position holding the same variable.
    if (t.kind === 'var') for (const o of occurs.get(t.name) ?? []) addTo(b.edges, pos, o);
    // Line 10: E <- E u {(h_i, c)} for a constant argument.
    else if (t.kind === 'const') addTo(b.constants, pos, t.name);
    else addTo(b.functors, pos, b.functions.intern(t.name, t.args.length));
  });
}

/**
 * Builds the merged argument dependency graph of `rules` (nodes with equal labels merged);
 * relations are interned in `relations`, the table of the evaluation the graph serves.
 */
export function buildArgGraph(rules: readonly NormalRule[], relations: RelationTable, tick: () => void): ArgGraph {
  const b: Builder = {
    relations,
    functions: new RelationTable(),
    byId: [],
    bySymbol: { rel: new Map(), fn: new Map() },
    edges: new Map(),
    constants: new Map(),
    functors: new Map(),
  };
  for (const r of rules) {
    tick();
    addRule(b, r);
  }
  const positions = [...b.byId].sort((x, y) => compareCodePoints(x.text, y.text));
  return { relations, functions: b.functions, positions, byId: b.byId, bySymbol: b.bySymbol, edges: b.edges, constants: b.constants, functors: b.functors };
}
