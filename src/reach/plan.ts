/**
 * Join planning for the variant clauses of the relaxed game: the order of a body's goals and
 * which runs of them only test existence (`once`). What planning needs of a rule (variables
 * of each literal and of each table argument, which table a literal reads) is computed once
 * per rule as its {@link RuleShape}; a component's rules are planned again whenever its
 * tables have grown, so this part is kept cheap.
 */
import type { Term } from '../gdl/ast.js';
import { collectVars } from '../gdl/terms.js';
import { atomCall, tableArgs, variantName } from './clauses.js';
import type { RelaxedLiteral, RelaxedRule } from './relaxed.js';

/**
 * Estimated number of answers of a literal reading `table` of relation `relKey` (undefined:
 * served by the dispatcher), given which table arguments are bound.
 */
export type RowEstimate = (relKey: string, table: string | undefined, boundArgs: readonly boolean[]) => number;

/** Without statistics: every bound argument divides a nominal 1000 rows by 10. */
export const NOMINAL_ESTIMATE: RowEstimate = (_r, _t, boundArgs) => 1000 / 10 ** boundArgs.filter((b) => b).length;

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

/** One body literal as planning sees it. */
interface LiteralShape {
  readonly lit: RelaxedLiteral;
  readonly vars: readonly string[];
  /** Positive literals: what they read, and the variables of each table argument. */
  readonly read?: { readonly relKey: string; readonly table: string | undefined; readonly argVars: readonly (readonly string[])[] };
}

/** What planning needs of a rule, computed once. */
export interface RuleShape {
  readonly rule: RelaxedRule;
  readonly headVars: ReadonlySet<string>;
  readonly literals: readonly LiteralShape[];
  /** The positive literals in body order (the `deltaAt` of a variant counts these). */
  readonly positives: readonly LiteralShape[];
}

const varsOf = (terms: readonly Term[]): string[] => {
  const out = new Set<string>();
  for (const t of terms) collectVars(t, out);
  return [...out];
};

/** The shape of a rule. */
export function ruleShape(rule: RelaxedRule): RuleShape {
  const literals = rule.body.map((lit): LiteralShape => {
    if (lit.kind === 'distinct') return { lit, vars: varsOf([lit.left, lit.right]) };
    const t = tableArgs(lit);
    return { lit, vars: varsOf(lit.atom.args), read: { relKey: t.relKey, table: t.table, argVars: t.args.map((a) => varsOf([a])) } };
  });
  return { rule, headVars: new Set(varsOf(rule.head.args)), literals, positives: literals.filter((l) => l.read !== undefined) };
}

/**
 * The clause of one semi-naive variant of a rule: the `deltaAt`-th positive literal reads the
 * delta table, all others the full tables (null: every literal reads the full tables).
 * A run of literals whose new variables occur nowhere after it (nor in the head) only checks
 * that some binding exists, so it is wrapped in `once`: its other answers would only repeat
 * the same head instance. `(true (cell ?x ?y ?m)) (does ?p (mark ?i ?j)) (distinctCell ?x ?y ?i ?j)`
 * thus tries moves only until one differs from the cell, instead of deriving the cell once per move.
 */
export function planVariant(id: number, shape: RuleShape, deltaAt: number | null, estimate: RowEstimate = NOMINAL_ESTIMATE): PlannedClause {
  const delta = deltaAt === null ? undefined : shape.positives[deltaAt];
  const body = orderBody(shape, delta, estimate);
  // later[i]: variables of the head and of body[i..].
  const later: Set<string>[] = [];
  let acc = new Set(shape.headVars);
  later[body.length] = acc;
  for (let i = body.length - 1; i >= 0; i--) later[i] = acc = new Set([...acc, ...body[i]!.vars]);
  const goal = (l: LiteralShape): PlannedGoal =>
    l.lit.kind === 'distinct' ? { kind: 'neq', left: l.lit.left, right: l.lit.right } : { kind: 'call', ...atomCall(l.lit, l === delta ? 'D' : 'F') };
  const bound = new Set<string>();
  const goals: PlannedGoal[] = [];
  for (let i = 0; i < body.length; ) {
    const end = existentialEnd(body, later, bound, i);
    for (let k = i; k < Math.max(end, i + 1); k++) for (const v of body[k]!.vars) bound.add(v);
    if (end < 0) goals.push(goal(body[i++]!));
    else {
      goals.push({ kind: 'once', goals: body.slice(i, end).map(goal) });
      i = end;
    }
  }
  return { name: variantName(id), head: shape.rule.head.args, goals, rule: shape.rule };
}

/**
 * Where a run of goals starting at the positive literal `body[start]` ends if its new
 * variables occur nowhere after it (the run takes in the distincts that follow each literal):
 * the smallest such end, or -1 when there is none or the literal binds nothing new.
 */
function existentialEnd(body: readonly LiteralShape[], later: readonly Set<string>[], bound: ReadonlySet<string>, start: number): number {
  if (body[start]!.read === undefined) return -1;
  const fresh = new Set<string>();
  for (let i = start; i < body.length; ) {
    for (const v of body[i]!.vars) if (!bound.has(v)) fresh.add(v);
    if (fresh.size === 0) return -1;
    let end = i + 1;
    while (end < body.length && body[end]!.read === undefined) end++;
    if ([...fresh].every((v) => !later[end]!.has(v))) return end;
    i = end;
  }
  return -1;
}

/**
 * Orders a body for evaluation: the delta literal first (it is small), then greedily the
 * positive literal that is cheapest given the variables bound so far — fully bound checks
 * first, then the fewest estimated answers, then source order — and each `distinct` as soon
 * as both its sides are bound.
 */
function orderBody(shape: RuleShape, delta: LiteralShape | undefined, estimate: RowEstimate): LiteralShape[] {
  const remaining = shape.positives.filter((l) => l !== delta);
  const pending = shape.literals.filter((l) => l.read === undefined);
  const bound = new Set<string>();
  const out: LiteralShape[] = [];
  const take = (l: LiteralShape): void => {
    out.push(l);
    for (const v of l.vars) bound.add(v);
    for (let i = 0; i < pending.length; ) {
      if (pending[i]!.vars.every((v) => bound.has(v))) out.push(pending.splice(i, 1)[0]!);
      else i++;
    }
  };
  // Distincts over constants only come first.
  for (let i = 0; i < pending.length; ) {
    if (pending[i]!.vars.length === 0) out.push(pending.splice(i, 1)[0]!);
    else i++;
  }
  let last: LiteralShape | undefined;
  if (delta !== undefined) {
    // A delta literal sharing no variable with the head or another positive literal only
    // tests that something new exists: evaluated last, under once, it costs one check per
    // answer instead of multiplying every answer by the size of the delta.
    const elsewhere = new Set([...shape.headVars, ...remaining.flatMap((l) => l.vars)]);
    if (delta.vars.every((v) => !elsewhere.has(v))) last = delta;
    else take(delta);
  }
  while (remaining.length > 0) {
    let best = 0;
    let bestFree = true;
    let bestRows = Infinity;
    for (let i = 0; i < remaining.length; i++) {
      const l = remaining[i]!;
      const free = l.vars.some((v) => !bound.has(v));
      const rows = estimate(l.read!.relKey, l.read!.table, l.read!.argVars.map((vs) => vs.every((v) => bound.has(v))));
      // Fully bound checks first, then the fewest rows; ties keep source order.
      if (i === 0 || (bestFree && !free) || (free === bestFree && rows < bestRows)) [best, bestFree, bestRows] = [i, free, rows];
    }
    take(remaining.splice(best, 1)[0]!);
  }
  if (last !== undefined) take(last);
  out.push(...pending);
  return out;
}
