/**
 * The argument dependency graph of Definition 9.3 / Algorithm 9.3 (lines 1-10), extended to
 * nested terms as the domain graph of the GGP book (14.2): besides the argument positions of
 * relations it has the argument positions of function symbols, and a position's domain may
 * hold function symbols, each standing for all terms built from its own argument domains.
 */
import type { Term } from '../../gdl/ast.js';
import type { NormalRule } from '../../normalize/types.js';
import { compareCodePoints } from '../../gdl/terms.js';

/** An argument position: the `index`-th (1-based) argument of a relation or function symbol. */
export interface Position {
  readonly id: string;
  readonly kind: 'rel' | 'fn';
  readonly name: string;
  readonly arity: number;
  readonly index: number;
}

/** The merged argument dependency graph of a rule set. */
export interface ArgGraph {
  /** Every position, sorted by id. */
  readonly positions: readonly Position[];
  /** Position id -> ids of the positions it takes values from (h_i -> b_j of Definition 9.3). */
  readonly edges: ReadonlyMap<string, ReadonlySet<string>>;
  /** Position id -> object constants it may be (h_i -> c of Definition 9.3). */
  readonly constants: ReadonlyMap<string, ReadonlySet<string>>;
  /** Position id -> function symbols `name/arity` it may be applied to. */
  readonly functors: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Id of a relation argument position. */
export function relPositionId(name: string, arity: number, index: number): string {
  return `${name}/${arity}[${index}]`;
}

/** Id of a function argument position (marked with `fn:` to keep the namespaces apart). */
export function fnPositionId(name: string, arity: number, index: number): string {
  return `fn:${name}/${arity}[${index}]`;
}

/** A graph under construction. */
interface Builder {
  readonly positions: Map<string, Position>;
  readonly edges: Map<string, Set<string>>;
  readonly constants: Map<string, Set<string>>;
  readonly functors: Map<string, Set<string>>;
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const s = map.get(key);
  if (s === undefined) map.set(key, new Set([value]));
  else s.add(value);
}

function position(b: Builder, kind: 'rel' | 'fn', name: string, arity: number, index: number): string {
  const id = kind === 'rel' ? relPositionId(name, arity, index) : fnPositionId(name, arity, index);
  if (!b.positions.has(id)) b.positions.set(id, { id, kind, name, arity, index });
  return id;
}

/** Calls `visit(term, positionId)` for each argument term at every depth below a relation. */
function walkArgs(b: Builder, rel: string, args: readonly Term[], visit: (t: Term, pos: string) => void): void {
  const stack: [Term, string][] = args.map((t, i) => [t, position(b, 'rel', rel, args.length, i + 1)]);
  while (stack.length > 0) {
    const [t, pos] = stack.pop()!;
    visit(t, pos);
    if (t.kind === 'fn') t.args.forEach((a, i) => stack.push([a, position(b, 'fn', t.name, t.args.length, i + 1)]));
  }
}

/** Adds one rule: Algorithm 9.3, lines 3-10, for every position of the head at any depth. */
function addRule(b: Builder, rule: NormalRule): void {
  // Where each variable occurs in the positive body: the b_j^k of line 6.
  const occurs = new Map<string, Set<string>>();
  for (const l of rule.body) {
    if (l.kind !== 'pos') continue;
    walkArgs(b, l.atom.rel, l.atom.args, (t, pos) => {
      if (t.kind === 'var') addTo(occurs, t.name, pos);
    });
  }
  walkArgs(b, rule.head.rel, rule.head.args, (t, pos) => {
    // Line 7: E <- E u {(h_i, b_j^k)} for every body position holding the same variable.
    if (t.kind === 'var') for (const o of occurs.get(t.name) ?? []) addTo(b.edges, pos, o);
    // Line 10: E <- E u {(h_i, c)} for a constant argument.
    else if (t.kind === 'const') addTo(b.constants, pos, t.name);
    else addTo(b.functors, pos, `${t.name}/${t.args.length}`);
  });
}

/** Builds the merged argument dependency graph of `rules` (nodes with equal labels merged). */
export function buildArgGraph(rules: readonly NormalRule[], tick: () => void = () => undefined): ArgGraph {
  const b: Builder = { positions: new Map(), edges: new Map(), constants: new Map(), functors: new Map() };
  for (const r of rules) {
    tick();
    addRule(b, r);
  }
  const positions = [...b.positions.values()].sort((x, y) => compareCodePoints(x.id, y.id));
  return { positions, edges: b.edges, constants: b.constants, functors: b.functors };
}
