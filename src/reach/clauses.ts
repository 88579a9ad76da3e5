/**
 * Prolog text for the relaxed game. Every relation is a table of ground facts in two copies:
 * `F|rel/n` holds all facts found so far and `D|rel/n` those new in the last round (the
 * delta of semi-naive evaluation). `init`, `true` and `next` are split by the functor of the
 * fluent and `legal` and `does` by the functor of the move, so `(true (cell 1 ?y ?c))`
 * becomes `'F|true/1:cell/3'('1', Y, C)` and Tau-Prolog's first-argument index sees `'1'`.
 * Each rule becomes one clause per semi-naive variant, `'$vN'(HeadArgs) :- Body`.
 */
import { foldTerm } from '../gdl/fold.js';
import type { Term } from '../gdl/ast.js';
import { collectVars, isGround } from '../gdl/terms.js';
import { type TauTerm, makeTerm, makeVar } from '../engine/tau.js';
import { prologText, quoteAtom } from '../engine/prolog-text.js';
import type { PlannedClause, PlannedGoal } from './planned.js';
import { type RelaxedLiteral, type RelaxedPlan, type RelaxedRule, keyOf } from './relaxed.js';

/** Which copy of a table a literal reads: all facts, or only those new in the last round. */
type TableMode = 'F' | 'D';

/** The argument by whose functor a relation's facts are split, if any. */
export function splitPosition(rel: string, arity: number): number | undefined {
  if (arity === 1 && (rel === 'init' || rel === 'true' || rel === 'next')) return 0;
  if (arity === 2 && (rel === 'legal' || rel === 'does')) return 1;
  return undefined;
}

/**
 * The split part holding facts whose split argument is a constant (`noop`, `(true open)`):
 * one table for all constants, with the constant kept in its argument position. Compound
 * terms get a part per functor, with their arguments spread out so that they are indexed.
 */
export const CONST_PART = '#const';

/**
 * Prolog predicate name of a table: `F|cell/3`, or `F|true/1:cell/3` for the part of a split
 * relation whose split argument has functor `cell` with 3 arguments.
 */
export function tableName(mode: TableMode, relKey: string, sub?: string): string {
  return sub === undefined ? `${mode}|${relKey}` : `${mode}|${relKey}:${sub}`;
}

/** The engine's test that a ground table call has no fact (see `src/engine/own.ts`). */
const ABSENT = '$gdl_absent';

/** Predicate name of the clause of variant `id`. */
export function variantName(id: number): string {
  return `$v${id}`;
}

/**
 * Renders a term as Prolog text: constants quoted, GDL variables as the Prolog variables
 * `vars` assigns (new ones get `V0`, `V1`, ... and are added to `vars`).
 */
export function renderTerm(root: Term, vars: Map<string, string>): string {
  return prologText(root, vars, 'V');
}

/** Prefix of every GDL relation in the plain programs, so that none clashes with a builtin or a driver's predicate. */
export const PLAIN_PREFIX = 'r:';

/** A relation of the relaxed game as a Prolog name of the plain programs: `'r:NAME'`. */
export function plainRelation(name: string): string {
  return quoteAtom(`${PLAIN_PREFIX}${name}`);
}

/**
 * A relaxed rule as the text of a plain Prolog clause's head and body goals (the SWI-Prolog
 * baseline and the plain Algorithm 9.2 on Tau-Prolog): relations renamed by
 * {@link plainRelation}, `distinct` as `\==`, terms written by `render` with one variable map.
 */
export function plainClauseParts(r: RelaxedRule, render: (t: Term, vars: Map<string, string>) => string): { head: string; body: string[] } {
  const vars = new Map<string, string>();
  const call = (name: string, args: readonly Term[]): string =>
    args.length === 0 ? plainRelation(name) : `${plainRelation(name)}(${args.map((a) => render(a, vars)).join(',')})`;
  const head = call(r.head.rel, r.head.args);
  const body = r.body.map((l) => (l.kind === 'pos' ? call(l.atom.rel, l.atom.args) : `${render(l.left, vars)} \\== ${render(l.right, vars)}`));
  return { head, body };
}

/** `name(a,b)` or `name` for no arguments, with `name` quoted. */
function call(name: string, args: readonly string[]): string {
  return args.length === 0 ? quoteAtom(name) : `${quoteAtom(name)}(${args.join(',')})`;
}

/** The table (without copy prefix) a positive literal reads and its arguments there. */
export function tableArgs(lit: PosLiteral): { table: string | undefined; args: readonly Term[]; relKey: string } {
  const { atom } = lit;
  const relKey = keyOf(atom);
  const split = splitPosition(atom.rel, atom.args.length);
  const at = split === undefined ? undefined : atom.args[split]!;
  if (split === undefined) return { table: relKey, args: atom.args, relKey };
  // A variable in the split position: the relation's whole table serves it.
  if (at === undefined || at.kind === 'var') return { table: undefined, args: atom.args, relKey };
  // Constants share one part, keeping their position: the hash index sees them bound anyway.
  if (at.kind === 'const') return { table: `${relKey}:${CONST_PART}`, args: atom.args, relKey };
  return { table: `${relKey}:${at.name}/${at.args.length}`, args: [...atom.args.filter((_, i) => i !== split), ...at.args], relKey };
}

/** The tables some clause may read (without copy prefix: `does/2`, `does/2:play/6`). */
export interface TablesRead {
  /** Tables whose full copy (`F|`) is read. */
  readonly full: ReadonlySet<string>;
  /** Tables whose delta copy (`D|`) is read: by a rule of the relation's own component. */
  readonly delta: ReadonlySet<string>;
}

/**
 * The tables that some clause of `plan` may read: the table each positive body literal reads (a
 * split part, or the whole relation's when a variable is at the split position), and the head's
 * of every rule with a body variable its head lacks (its variants may test first that the head
 * is new, `'$gdl_absent'` of src/reach/plan.ts, which needs such a variable); their delta copies
 * only where the literal's relation is in the rule's component (semi-naive variants read no
 * other delta). No other table needs the facts: amazons' 173,962 `legal` facts, bridged to
 * `does` and read by no rule, went into four tables each (full and delta, whole and part), and
 * its `does` facts into the whole `does/2` too, which no literal reads.
 */
export function tablesRead(plan: RelaxedPlan): TablesRead {
  const full = new Set<string>();
  const delta = new Set<string>();
  for (const c of plan.components) {
    const members = new Set(c.relations);
    for (const r of c.rules) {
      const vars = new Set<string>();
      for (const l of r.body) {
        if (l.kind === 'distinct') (collectVars(l.left, vars), collectVars(l.right, vars));
        else {
          const table = tableArgs(l).table ?? keyOf(l.atom);
          full.add(table);
          if (members.has(keyOf(l.atom))) delta.add(table);
          l.atom.args.forEach((a) => collectVars(a, vars));
        }
      }
      const head = new Set<string>();
      r.head.args.forEach((a) => collectVars(a, head));
      const table = tableArgs({ kind: 'pos', atom: r.head }).table;
      if (table !== undefined && [...vars].some((v) => !head.has(v))) full.add(table);
    }
  }
  return { full, delta };
}

/** A positive literal of the relaxed game. */
type PosLiteral = Extract<RelaxedLiteral, { kind: 'pos' }>;

/** A positive literal as a call to the table (a split part, or a split relation's whole table) of `mode`. */
export function atomCall(lit: PosLiteral, mode: TableMode): { name: string; args: Term[] } {
  const t = tableArgs(lit);
  if (t.table === undefined) return { name: tableName(mode, t.relKey), args: [...t.args] };
  return { name: `${mode}|${t.table}`, args: [...t.args] };
}

/**
 * What a positive literal reads, for skipping queries that cannot succeed: the table (without
 * copy prefix, e.g. `true/1:cell/3`; undefined when a split relation's whole table serves it) and, per table
 * argument, the argument if it is ground (null otherwise).
 */
export function literalTarget(lit: PosLiteral): { readonly table?: string; readonly pattern?: readonly (Term | null)[] } {
  const { table, args } = tableArgs(lit);
  if (table === undefined) return {};
  return { table, pattern: args.map((a) => (isGround(a) ? a : null)) };
}

/** Maps every variable that occurs only once in the rule to `_`. */
function singletons(rule: RelaxedRule): Map<string, string> {
  const count = new Map<string, number>();
  const stack: Term[] = [...rule.head.args];
  for (const l of rule.body) {
    if (l.kind === 'pos') stack.push(...l.atom.args);
    else stack.push(l.left, l.right);
  }
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (t.kind === 'var') count.set(t.name, (count.get(t.name) ?? 0) + 1);
    else if (t.kind === 'fn') stack.push(...t.args);
  }
  const out = new Map<string, string>();
  for (const [name, n] of count) if (n === 1) out.set(name, '_');
  return out;
}

/** A planned clause as Prolog text (what is loaded, readable; used by tests and debugging). */
export function clauseText(c: PlannedClause): string {
  const vars = singletons(c.rule);
  const head = call(c.name, c.head.map((a) => renderTerm(a, vars)));
  const text = (g: PlannedGoal): string => {
    if (g.kind === 'neq') return `\\==(${renderTerm(g.left, vars)},${renderTerm(g.right, vars)})`;
    if (g.kind === 'call') return call(g.name, g.args.map((a) => renderTerm(a, vars)));
    if (g.kind === 'absent') return `'$gdl_absent'(${text(g.call)})`;
    return `once((${g.goals.map(text).join(', ')}))`;
  };
  return c.goals.length === 0 ? `${head}.` : `${head} :- ${c.goals.map(text).join(', ')}.`;
}

/**
 * A planned clause as Tau terms, ready for {@link PrologEngine.addClause}: building terms
 * directly skips Tau-Prolog's parser, which costs more than evaluating most games.
 */
export function clauseTerms(c: PlannedClause): { head: TauTerm; body: TauTerm } {
  const vars = new Map<string, TauTerm>();
  const conv = (t: Term): TauTerm => tauOf(t, vars);
  const term = (g: PlannedGoal): TauTerm => {
    if (g.kind === 'neq') return makeTerm('\\==', [conv(g.left), conv(g.right)]);
    if (g.kind === 'call') return makeTerm(g.name, g.args.map(conv));
    if (g.kind === 'absent') return makeTerm(ABSENT, [term(g.call)]);
    return makeTerm('once', [conjunction(g.goals.map(term))]);
  };
  const goals = c.goals.map(term);
  return { head: makeTerm(c.name, c.head.map(conv)), body: conjunction(goals) };
}

/** Right-nested conjunction `(G1, (G2, G3))`; `true` for none. */
function conjunction(goals: readonly TauTerm[]): TauTerm {
  let body = goals.length === 0 ? makeTerm('true', []) : goals[goals.length - 1]!;
  for (let i = goals.length - 2; i >= 0; i--) body = makeTerm(',', [goals[i]!, body]);
  return body;
}

/** A GDL term as a Tau term; variables become Tau variables shared through `vars`. */
function tauOf(root: Term, vars: Map<string, TauTerm>): TauTerm {
  return foldTerm<TauTerm>(root, (t, args) => {
    if (t.kind !== 'var') return makeTerm(t.name, args);
    if (!vars.has(t.name)) vars.set(t.name, makeVar(`V${vars.size}`));
    return vars.get(t.name)!;
  });
}
