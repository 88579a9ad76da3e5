/**
 * The argument dependency graph in Graphviz DOT, as in Figure 9.2: argument positions (boxes
 * for relations, ellipses for function symbols), object constants (plain text) and function
 * symbols (diamonds, with dashed edges to their own argument positions). Each position shows
 * the size of its resolved domain, so that the source of a large domain can be traced.
 */
import { compareCodePoints } from '../../gdl/terms.js';
import type { Domains } from './domains.js';
import { type ArgGraph, functionArguments } from './graph.js';

/** Options of the DOT output. */
interface DotOptions {
  /** Only what the positions of this relation (`name` or `name/arity`) depend on. */
  readonly relation?: string;
}

function escape(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

function quote(s: string): string {
  return `"${escape(s)}"`;
}

/**
 * Positions of `relation`, or undefined when the graph has none. `relation` is what the user
 * typed after `--relation` (`name`, or `name/arity` for one arity): it is matched against the
 * texts made from the graph's relations, not split.
 */
export function relationPositions(graph: ArgGraph, relation: string): number[] | undefined {
  const found = graph.positions.filter((p) => p.kind === 'rel' && (p.name === relation || graph.relations.key(p.symbol) === relation));
  return found.length === 0 ? undefined : found.map((p) => p.id);
}

/** Positions reachable from `roots` through edges and function symbols' argument positions. */
function reachable(graph: ArgGraph, roots: readonly number[]): Set<number> {
  const seen = new Set<number>(roots);
  const stack = [...roots];
  while (stack.length > 0) {
    const p = stack.pop()!;
    const next = [...(graph.edges.get(p) ?? []), ...[...(graph.functors.get(p) ?? [])].flatMap((f) => functionArguments(graph, f))];
    for (const q of next) {
      if (!seen.has(q)) {
        seen.add(q);
        stack.push(q);
      }
    }
  }
  return seen;
}

function countText(n: number): string {
  return n === Infinity ? 'infinite' : String(n);
}

/**
 * The graph (or, with `relation`, the part its domains come from) as a DOT digraph; nodes and
 * edges are sorted, so the text is the same on every run. Returns undefined when `relation`
 * names no relation of the graph.
 */
export function argGraphToDot(graph: ArgGraph, domains: Domains, options: DotOptions = {}): string | undefined {
  let keep: Set<number>;
  if (options.relation === undefined) keep = new Set(graph.positions.map((p) => p.id));
  else {
    const roots = relationPositions(graph, options.relation);
    if (roots === undefined) return undefined;
    keep = reachable(graph, roots);
  }
  const lines = ['digraph argument_dependencies {', '  rankdir=LR;', '  node [fontname="Helvetica"];'];
  const consts = new Set<string>();
  const fns = new Set<number>();
  const edges: string[] = [];
  const fnNode = (f: number): string => `f:${graph.functions.key(f)}`;
  for (const p of graph.positions) {
    if (!keep.has(p.id)) continue;
    // `\n` is DOT's line break inside a label; the rest of the label is escaped text.
    const label = `"${escape(`${p.name}/${p.arity}[${p.index}]`)}\\n|D|=${countText(domains.count(p.id))}"`;
    lines.push(`  ${quote(p.text)} [shape=${p.kind === 'rel' ? 'box' : 'ellipse'}, label=${label}];`);
    for (const q of graph.edges.get(p.id) ?? []) edges.push(`  ${quote(p.text)} -> ${quote(graph.byId[q]!.text)};`);
    for (const c of graph.constants.get(p.id) ?? []) {
      consts.add(c);
      edges.push(`  ${quote(p.text)} -> ${quote(`c:${c}`)};`);
    }
    for (const f of graph.functors.get(p.id) ?? []) {
      fns.add(f);
      edges.push(`  ${quote(p.text)} -> ${quote(fnNode(f))};`);
    }
  }
  for (const c of [...consts].sort(compareCodePoints)) lines.push(`  ${quote(`c:${c}`)} [shape=plaintext, label=${quote(c)}];`);
  const fnText = (f: number): string => graph.functions.key(f);
  for (const f of [...fns].sort((a, b) => compareCodePoints(fnText(a), fnText(b)))) {
    lines.push(`  ${quote(fnNode(f))} [shape=diamond, label=${quote(fnText(f))}];`);
    for (const q of functionArguments(graph, f)) if (keep.has(q)) edges.push(`  ${quote(fnNode(f))} -> ${quote(graph.byId[q]!.text)} [style=dashed];`);
  }
  lines.push(...[...new Set(edges)].sort(compareCodePoints), '}');
  return `${lines.join('\n')}\n`;
}

/** One line per position: id, domain size, constants and function symbols (for `--format text`). */
export function argGraphToText(graph: ArgGraph, domains: Domains, options: DotOptions = {}): string | undefined {
  let shown = graph.positions;
  if (options.relation !== undefined) {
    const roots = relationPositions(graph, options.relation);
    if (roots === undefined) return undefined;
    const keep = reachable(graph, roots);
    shown = shown.filter((p) => keep.has(p.id));
  }
  const lines = shown.map((p) => {
    const parts = [...domains.constants(p.id), ...domains.functors(p.id).map((f) => `(${graph.functions.key(f)})`)];
    return `${p.text}\t${countText(domains.count(p.id))}\t${parts.join(' ')}`;
  });
  return `${lines.join('\n')}\n`;
}
