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
import { type TauTerm, makeTerm, makeVar, quoteAtom } from '../engine/tau.js';
import { collectVars } from '../gdl/terms.js';
import { type RelaxedLiteral, type RelaxedRule, keyOf } from './relaxed.js';

/** Which copy of a table a literal reads: all facts, or only those new in the last round. */
export type TableMode = 'F' | 'D';

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

/** Predicate name of the clause of variant `id`. */
export function variantName(id: number): string {
  return `$v${id}`;
}

/**
 * Renders a term as Prolog text: constants quoted, GDL variables as the Prolog variables
 * `vars` assigns (new ones get `V0`, `V1`, ... and are added to `vars`).
 */
export function renderTerm(root: Term, vars: Map<string, string>): string {
  const out: string[] = [];
  const stack: (Term | string)[] = [root];
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (typeof t === 'string') out.push(t);
    else if (t.kind === 'var') {
      if (!vars.has(t.name)) vars.set(t.name, `V${vars.size}`);
      out.push(vars.get(t.name)!);
    } else if (t.kind === 'const') out.push(quoteAtom(t.name));
    else {
      out.push(quoteAtom(t.name), '(');
      stack.push(')');
      for (let i = t.args.length - 1; i >= 0; i--) stack.push(t.args[i]!, i > 0 ? ',' : '');
    }
  }
  return out.join('');
}

/** `name(a,b)` or `name` for no arguments, with `name` quoted. */
function call(name: string, args: readonly string[]): string {
  return args.length === 0 ? quoteAtom(name) : `${quoteAtom(name)}(${args.join(',')})`;
}

/** The table (without copy prefix) a positive literal reads and its arguments there. */
function tableArgs(lit: PosLiteral): { table: string | undefined; args: readonly Term[]; relKey: string } {
  const { atom } = lit;
  const relKey = keyOf(atom);
  const split = splitPosition(atom.rel, atom.args.length);
  const at = split === undefined ? undefined : atom.args[split]!;
  if (split === undefined) return { table: relKey, args: atom.args, relKey };
  // A variable in the split position: the dispatcher serves it (no table of its own).
  if (at === undefined || at.kind === 'var') return { table: undefined, args: atom.args, relKey };
  // Constants share one part, keeping their position: the hash index sees them bound anyway.
  if (at.kind === 'const') return { table: `${relKey}:${CONST_PART}`, args: atom.args, relKey };
  return { table: `${relKey}:${at.name}/${at.args.length}`, args: [...atom.args.filter((_, i) => i !== split), ...at.args], relKey };
}

type PosLiteral = Extract<RelaxedLiteral, { kind: 'pos' }>;

/** True when the term is ground or a variable already bound. */
function isBoundArg(t: Term | undefined, bound: ReadonlySet<string>): boolean {
  if (t === undefined) return false;
  if (t.kind === 'var') return bound.has(t.name);
  return [...collectVars(t, new Set())].every((v) => bound.has(v));
}

/** A positive literal as a call to the table (or split part, or dispatcher) of `mode`. */
function atomCall(lit: PosLiteral, mode: TableMode): { name: string; args: Term[] } {
  const t = tableArgs(lit);
  if (t.table === undefined) return { name: tableName(mode, t.relKey), args: [...t.args] };
  return { name: `${mode}|${t.table}`, args: [...t.args] };
}

/**
 * What a positive literal reads, for skipping queries that cannot succeed: the table (without
 * copy prefix, e.g. `true/1:cell/3`; undefined when a dispatcher serves it) and the index key
 * of its first table argument when that argument is not a variable (`'1'/0` as `1/0`).
 */
export function literalTarget(lit: PosLiteral): { readonly table?: string; readonly firstKey?: string } {
  const { table, args } = tableArgs(lit);
  if (table === undefined) return {};
  const first = args[0];
  if (first === undefined || first.kind === 'var') return { table };
  return { table, firstKey: `${first.name}/${first.kind === 'fn' ? first.args.length : 0}` };
}

function literalVars(l: RelaxedLiteral): Set<string> {
  const out = new Set<string>();
  if (l.kind === 'pos') for (const a of l.atom.args) collectVars(a, out);
  else collectVars(l.right, collectVars(l.left, out));
  return out;
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

/**
 * Estimated number of answers of a literal reading `table` of relation `relKey` (undefined:
 * served by the dispatcher), given which table arguments are bound.
 */
export type RowEstimate = (relKey: string, table: string | undefined, boundArgs: readonly boolean[]) => number;

/** Without statistics: every bound argument divides a nominal 1000 rows by 10. */
export const NOMINAL_ESTIMATE: RowEstimate = (_r, _t, boundArgs) => 1000 / 10 ** boundArgs.filter((b) => b).length;

/**
 * Orders a body for evaluation: the delta literal first (it is small), then greedily the
 * positive literal that is cheapest given the variables bound so far — fully bound checks
 * first, then the fewest estimated answers, then source order — and each `distinct` as soon
 * as both its sides are bound.
 */
function orderBody(body: readonly RelaxedLiteral[], deltaAt: number | null, estimate: RowEstimate, head: readonly Term[]): RelaxedLiteral[] {
  const remaining = body.filter((l): l is PosLiteral => l.kind === 'pos');
  const pending = body.filter((l) => l.kind === 'distinct').map((l) => ({ l, vars: literalVars(l) }));
  const bound = new Set<string>();
  const out: RelaxedLiteral[] = [];
  const flush = (): void => {
    for (let i = 0; i < pending.length; ) {
      if ([...pending[i]!.vars].every((v) => bound.has(v))) out.push(pending.splice(i, 1)[0]!.l);
      else i++;
    }
  };
  const take = (p: PosLiteral): void => {
    out.push(p);
    for (const v of literalVars(p)) bound.add(v);
    flush();
  };
  flush();
  let last: PosLiteral | undefined;
  if (deltaAt !== null) {
    const delta = remaining.splice(deltaAt, 1)[0]!;
    // A delta literal sharing no variable with the head or another positive literal only
    // tests that something new exists: evaluated last, under once, it costs one check per
    // answer instead of multiplying every answer by the size of the delta.
    if (sharesNoVariable(delta, remaining, head)) last = delta;
    else take(delta);
  }
  while (remaining.length > 0) {
    let best = 0;
    let bestScore: number[] = [];
    remaining.forEach((l, i) => {
      const score = literalScore(l, bound, estimate);
      if (i === 0 || compareScores(score, bestScore) > 0) [best, bestScore] = [i, score];
    });
    take(remaining.splice(best, 1)[0]!);
  }
  if (last !== undefined) take(last);
  for (const p of pending) out.push(p.l);
  return out;
}

/** True when no variable of `lit` occurs in the head or in the other positive literals. */
function sharesNoVariable(lit: PosLiteral, others: readonly PosLiteral[], head: readonly Term[]): boolean {
  const elsewhere = new Set<string>();
  for (const t of head) collectVars(t, elsewhere);
  for (const o of others) for (const v of literalVars(o)) elsewhere.add(v);
  return [...literalVars(lit)].every((v) => !elsewhere.has(v));
}

/** Lexicographic preference of a literal as the next goal; higher is better. */
function literalScore(l: PosLiteral, bound: ReadonlySet<string>, estimate: RowEstimate): number[] {
  const vars = literalVars(l);
  const free = [...vars].filter((v) => !bound.has(v)).length;
  const t = tableArgs(l);
  const rows = estimate(t.relKey, t.table, t.args.map((a) => isBoundArg(a, bound)));
  return [free === 0 ? 1 : 0, -rows];
}

function compareScores(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** A goal of a variant clause, before it is rendered as text or built as Tau terms. */
export type PlannedGoal =
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Term[] }
  | { readonly kind: 'neq'; readonly left: Term; readonly right: Term }
  /** Goals that only decide whether some binding exists: `once((G1, ..., Gn))`. */
  | { readonly kind: 'once'; readonly goals: readonly PlannedGoal[] };

/** A variant clause `name(head...) :- goals`, over GDL terms. */
export interface PlannedClause {
  readonly name: string;
  readonly head: readonly Term[];
  readonly goals: readonly PlannedGoal[];
  readonly rule: RelaxedRule;
}

/**
 * The clause of one semi-naive variant of `rule`: the `deltaAt`-th positive literal reads the
 * delta table, all others the full tables (null: every literal reads the full tables).
 * A run of literals whose new variables occur nowhere after it (nor in the head) only checks
 * that some binding exists, so it is wrapped in `once`: its other answers would only repeat
 * the same head instance. `(true (cell ?x ?y ?m)) (does ?p (mark ?i ?j)) (distinctCell ?x ?y ?i ?j)`
 * thus tries moves only until one differs from the cell, instead of deriving the cell once per move.
 */
export function planVariant(id: number, rule: RelaxedRule, deltaAt: number | null, estimate: RowEstimate = NOMINAL_ESTIMATE): PlannedClause {
  const body = orderBody(rule.body, deltaAt, estimate, rule.head.args);
  const deltaLit = deltaAt === null ? undefined : rule.body.filter((l) => l.kind === 'pos')[deltaAt];
  const vars = body.map(literalVars);
  // later[i]: variables of the head and of body[i..].
  const later: Set<string>[] = [];
  let acc = new Set<string>();
  for (const a of rule.head.args) collectVars(a, acc);
  later[body.length] = acc;
  for (let i = body.length - 1; i >= 0; i--) later[i] = acc = new Set([...acc, ...vars[i]!]);
  const goal = (l: RelaxedLiteral): PlannedGoal =>
    l.kind === 'distinct' ? { kind: 'neq', left: l.left, right: l.right } : { kind: 'call', ...atomCall(l, l === deltaLit ? 'D' : 'F') };
  const bound = new Set<string>();
  const goals: PlannedGoal[] = [];
  for (let i = 0; i < body.length; ) {
    const end = existentialEnd(body, vars, later, bound, i);
    for (let k = i; k < Math.max(end, i + 1); k++) for (const v of vars[k]!) bound.add(v);
    if (end < 0) goals.push(goal(body[i++]!));
    else {
      goals.push({ kind: 'once', goals: body.slice(i, end).map(goal) });
      i = end;
    }
  }
  return { name: variantName(id), head: rule.head.args, goals, rule };
}

/**
 * Where a run of goals starting at the positive literal `body[start]` ends if its new
 * variables occur nowhere after it (the run takes in the distincts that follow each literal):
 * the smallest such end, or -1 when there is none or the literal binds nothing new.
 */
function existentialEnd(body: readonly RelaxedLiteral[], vars: readonly Set<string>[], later: readonly Set<string>[], bound: ReadonlySet<string>, start: number): number {
  if (body[start]!.kind !== 'pos') return -1;
  const fresh = new Set<string>();
  for (let i = start; i < body.length; ) {
    for (const v of vars[i]!) if (!bound.has(v)) fresh.add(v);
    if (fresh.size === 0) return -1;
    let end = i + 1;
    while (end < body.length && body[end]!.kind === 'distinct') end++;
    if ([...fresh].every((v) => !later[end]!.has(v))) return end;
    i = end;
  }
  return -1;
}

/** A planned clause as Prolog text (what is loaded, readable; used by tests and debugging). */
export function clauseText(c: PlannedClause): string {
  const vars = singletons(c.rule);
  const head = call(c.name, c.head.map((a) => renderTerm(a, vars)));
  const text = (g: PlannedGoal): string => {
    if (g.kind === 'neq') return `\\==(${renderTerm(g.left, vars)},${renderTerm(g.right, vars)})`;
    if (g.kind === 'call') return call(g.name, g.args.map((a) => renderTerm(a, vars)));
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

/**
 * The dispatcher clauses that let a literal with a variable in the split position read the
 * split part `sub` (`f/k`) of relation `relKey`, in both table copies:
 *   'F|does/2'(A0, mark(B0,B1)) :- 'F|does/2:mark/2'(A0, B0, B1).
 */
export function dispatcherClauses(relKey: string, arity: number, split: number, sub: string): { head: TauTerm; body: TauTerm }[] {
  const outer = Array.from({ length: arity }, (_, i) => makeVar(`A${i}`));
  let headArgs = outer;
  let bodyArgs = outer;
  if (sub !== CONST_PART) {
    const slash = sub.lastIndexOf('/');
    const inner = Array.from({ length: Number(sub.slice(slash + 1)) }, (_, i) => makeVar(`B${i}`));
    headArgs = outer.map((a, i) => (i === split ? makeTerm(sub.slice(0, slash), inner) : a));
    bodyArgs = [...outer.filter((_, i) => i !== split), ...inner];
  }
  return (['F', 'D'] as const).map((m) => ({
    head: makeTerm(tableName(m, relKey), headArgs),
    body: makeTerm(tableName(m, relKey, sub), bodyArgs),
  }));
}
