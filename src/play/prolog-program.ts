/**
 * Compiles a normalized game into the Prolog program the reasoner consults. Every GDL symbol
 * is quoted (`'1'`, `'01'` and `'+'` stay distinct constants); every relation `r` becomes the
 * predicate `'gdl_r'`, so no game can clash with a Prolog built-in.
 *
 * Plain SLD resolution loops on left-recursive rules, so relations on a cycle of positive
 * edges of the relation graph (a recursive component K) are not run top-down. Their predicates are dynamic tables,
 * filled bottom-up by semi-naive iteration before anything reads them (src/play/reasoner.ts):
 * `'$gdl_base'(K, H) :- Body` for rules whose body has no relation of K (the first round), and
 * `'$gdl_step'(K, H) :- '$gdl_delta'(K, L), Rest` for each body literal L of K (later rounds,
 * L read from the facts the previous round added). All other relations run top-down, which
 * terminates because they form an acyclic graph. Negation only reaches lower components (GDL
 * is stratified), which are complete when it is evaluated.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { type RelationGraph, dependents, relationGraph } from '../gdl/relations.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import { prologText, quoteAtom } from '../engine/prolog-text.js';
import { asRule, type Literal, type NormalGame, type NormalRule } from '../normalize/types.js';

/** When a recursive component must be saturated: once, in every state, or after every joint move. */
export type Phase = 'static' | 'state' | 'move';

/** A recursive component: its id in the program and the tables to clear before saturating. */
export interface Component {
  readonly id: number;
  readonly phase: Phase;
  /** The component's tables: predicate names (unquoted, `gdl_r`) and arities. */
  readonly tables: readonly Table[];
}

/** A dynamic predicate held as a table of ground facts. */
export interface Table {
  readonly name: string;
  readonly arity: number;
}

/** The compiled program and the order in which its recursive components are saturated. */
interface ReasonerProgram {
  readonly text: string;
  /** Recursive components in dependency order (a component's bodies only read earlier ones). */
  readonly components: readonly Component[];
}

/** The Prolog predicate name of GDL relation `rel`, quoted. */
export function predicate(rel: string): string {
  // Keep in step with the table names of compileReasonerProgram (`gdl_${rel}`, unquoted).
  return quoteAtom(`gdl_${rel}`);
}

/** The component id as the Prolog atom the clauses carry (an atom, so that facts built by makeTerm match). */
export function componentKey(id: number): string {
  return quoteAtom(String(id));
}

/** Prolog text of a term; variables are named through `vars` as `_V0`, `_V1`, ... (the underscore keeps Tau-Prolog from warning about singletons). */
export function termText(root: Term, vars: Map<string, string>): string {
  return prologText(root, vars, '_V');
}

/** The relation key of an atom (relationKeys: its name, or name/arity for a name with several arities). */
type KeyOf = (atom: Atom) => string;

/**
 * Prolog text of an atom as a goal of predicate {@link predicate} of its relation key `key`
 * (the plain name by default): a name used with several arities names one predicate per arity,
 * `'gdl_p/2'`, because the engine's tables are keyed by functor name alone.
 */
function prologAtomText(atom: Atom, vars: Map<string, string>, key: KeyOf = (a) => a.rel): string {
  if (atom.args.length === 0) return predicate(key(atom));
  return `${predicate(key(atom))}(${atom.args.map((a) => termText(a, vars)).join(',')})`;
}

function literalText(l: Literal, vars: Map<string, string>, key: KeyOf): string {
  if (l.kind === 'pos') return prologAtomText(l.atom, vars, key);
  if (l.kind === 'neg') return `\\+ ${prologAtomText(l.atom, vars, key)}`;
  // Both sides are ground here: the normalizer puts `distinct` after the literals binding it.
  return `${termText(l.left, vars)} \\== ${termText(l.right, vars)}`;
}

function bodyText(body: readonly Literal[], vars: Map<string, string>, key: KeyOf): string {
  return body.map((l) => literalText(l, vars, key)).join(', ');
}

/** The clauses of one rule: a plain clause, or the saturation clauses of a recursive component. */
function clauseTexts(rule: NormalRule, component: number | undefined, inComponent: (atom: Atom) => boolean, key: KeyOf): string[] {
  const vars = new Map<string, string>();
  const head = prologAtomText(rule.head, vars, key);
  if (component === undefined) return [rule.body.length === 0 ? `${head}.` : `${head} :- ${bodyText(rule.body, vars, key)}.`];
  const own = rule.body.flatMap((l, i) => (l.kind === 'pos' && inComponent(l.atom) ? [i] : []));
  const ck = componentKey(component);
  if (own.length === 0) {
    const lead = `'$gdl_base'(${ck},${head})`;
    return [rule.body.length === 0 ? `${lead}.` : `${lead} :- ${bodyText(rule.body, vars, key)}.`];
  }
  // The delta literal goes first: it is the smallest relation, and moving a positive literal
  // earlier only binds variables sooner, so negation and distinct still see them bound.
  return own.map((i) => {
    const rest = rule.body.filter((_, j) => j !== i);
    const delta = `'$gdl_delta'(${ck},${literalText(rule.body[i]!, vars, key)})`;
    return `'$gdl_step'(${ck},${head}) :- ${[delta, ...(rest.length > 0 ? [bodyText(rest, vars, key)] : [])].join(', ')}.`;
  });
}

/**
 * Components of the graph of positive edges, and which of them lie on a positive cycle. Only
 * those need bottom-up saturation: a cycle through negation, as in `(goal p 100) <= (not (goal
 * p 0))`, is no loop for top-down resolution in a (locally) stratified game, while saturating
 * it would read the negated relation before it is complete.
 */
function positiveComponents(graph: RelationGraph): {
  component: Map<string, number>;
  members: Map<number, string[]>;
  recursive: Set<number>;
} {
  const index = new Map(graph.relations.map((r, i) => [r, i]));
  const succ: number[][] = graph.relations.map(() => []);
  for (const e of graph.edges) if (!e.negative) succ[index.get(e.from)!]!.push(index.get(e.to)!);
  const component = new Map<string, number>();
  const members = new Map<number, string[]>();
  stronglyConnectedComponents(graph.relations.length, (v) => succ[v]!).forEach((comp, c) => {
    members.set(c, comp.map((v) => graph.relations[v]!));
    for (const v of comp) component.set(graph.relations[v]!, c);
  });
  const recursive = new Set<number>();
  for (const e of graph.edges) {
    if (!e.negative && component.get(e.from) === component.get(e.to)) recursive.add(component.get(e.to)!);
  }
  return { component, members, recursive };
}

/** Compiles `game` (normalized and validated) into the reasoner's program. */
export function compileReasonerProgram(game: NormalGame): ReasonerProgram {
  const graph = relationGraph(game.rules.map(asRule));
  const { component, members, recursive } = positiveComponents(graph);
  const onDoes = dependents(graph.edges, ['does']);
  const onTrue = dependents(graph.edges, ['true']);

  // Every relation and arity is declared dynamic, so that one used but never defined fails
  // instead of raising an existence error; so are the keyword relations the reasoner queries,
  // which a game may lack (no init, no terminal rule).
  const queried: [string, number][] = [['true', 1], ['does', 2], ['role', 1], ['init', 1], ['legal', 2], ['next', 1], ['goal', 2], ['terminal', 0], ['sees', 2]];
  const arities = new Map<string, Set<number>>(queried.map(([rel, n]) => [rel, new Set([n])]));
  // Per relation key (name, or name/arity for a name with several arities): its Prolog tables.
  const tables = new Map<string, Table[]>();
  const note = (a: Atom): void => {
    const key = graph.key(a);
    arities.set(key, (arities.get(key) ?? new Set()).add(a.args.length));
    const list = tables.get(key) ?? [];
    if (!list.some((t) => t.arity === a.args.length)) list.push({ name: `gdl_${key}`, arity: a.args.length });
    tables.set(key, list);
  };
  for (const r of game.rules) {
    note(r.head);
    for (const l of r.body) if (l.kind !== 'distinct') note(l.atom);
  }
  const lines: string[] = [":- dynamic('$gdl_base'/2).", ":- dynamic('$gdl_step'/2).", ":- dynamic('$gdl_delta'/2)."];
  for (const rel of [...arities.keys()].sort()) {
    for (const n of [...arities.get(rel)!].sort((a, b) => a - b)) lines.push(`:- dynamic(${predicate(rel)}/${n}).`);
  }
  for (const r of game.rules) {
    const c = component.get(graph.key(r.head))!;
    lines.push(...clauseTexts(r, recursive.has(c) ? c : undefined, (atom) => component.get(graph.key(atom)) === c, graph.key));
  }

  const components = [...recursive].map((id): Component => {
    const rels = members.get(id)!;
    const phase: Phase = rels.some((r) => onDoes.has(r)) ? 'move' : rels.some((r) => onTrue.has(r)) ? 'state' : 'static';
    return { id, phase, tables: rels.sort().flatMap((rel) => tables.get(rel) ?? []) };
  });
  // Saturation needs bodies first: by the component of the whole graph (negative edges
  // included), then by the positive component; Tarjan lists both heads first.
  const rank = (c: Component): [number, number] => [graph.component.get(members.get(c.id)![0]!)!, c.id];
  components.sort((a, b) => rank(b)[0] - rank(a)[0] || rank(b)[1] - rank(a)[1]);
  return { text: `${lines.join('\n')}\n`, components };
}
