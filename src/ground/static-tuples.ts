/**
 * Static relations kept as tuples of argument ids (issue 27, docs/corpus.md "gt19"): a static
 * relation evaluated whole whose every body atom, in every rule, is its name over distinct
 * variables is never interned as atoms. Its rows go to a {@link Relation} of its arity, and a
 * block of any of its atoms is that relation (evaluate.ts, `blockFor`): the block of an atom of
 * distinct variables over the atoms' store has one row per atom, the same values in the same
 * columns (and the atom id, which no join of a static atom reads: static atoms leave the ground
 * rules). So a join reads the same rows, and an estimate the same rows, distinct values per
 * column and distinct keys per column set: every decision made from an estimate (split, frame,
 * projection, refusal) is the one made over the atoms, and the output is the same, byte for
 * byte. Only the atoms' terms, their store and their blocks are not made (gt_two_thirds_6p's
 * `sum`, 180,901 atoms read by the split of `total`).
 *
 * The evaluation is that of evaluate.ts's `evaluateComponent` on tuples: the same semi-naive
 * rounds, the same checks of estimates and limits at the same bindings, the atoms counted the
 * same (a tuple new to the relation and to the round is one atom derived).
 */
import { semiNaive } from '../datalog/fixpoint.js';
import { Relation } from '../datalog/relation.js';
import { estimateJoin, join, planJoin } from '../datalog/join.js';
import { type Pattern, plainAtom } from '../datalog/pattern.js';
import { deadlineLimit, formatEstimate } from '../gdl/diagnostics.js';
import type { JoinRule } from './compile.js';
import { type GroundFact, prepareRule } from './evaluate.js';
import { type Context, type Where, checkEstimate, checkLazyEstimate, limitError, makeTick } from './run-context.js';

/** Whether a head pattern's tuple is read off a binding: arguments, each a variable or ground. */
function flatHead(p: Pattern): boolean {
  return p.kind === 'fn' && p.args.length > 0 && p.args.every((a) => a.kind !== 'fn');
}

/**
 * The relations that cannot be kept as tuples: read by some body atom (positive or negated)
 * that is not {@link plainAtom}, or with a head that is not flat.
 */
export function notTuples(rules: readonly JoinRule[]): Set<string> {
  const out = new Set<string>();
  for (const r of rules) {
    if (!flatHead(r.head.pattern)) out.add(r.head.rel);
    for (const a of [...r.positives, ...r.negatives]) if (!plainAtom(a.pattern)) out.add(a.rel);
  }
  return out;
}

/** The tuples of one component while it is evaluated: the committed rows and those of this round. */
interface TupleRound {
  readonly main: Map<string, Relation>;
  pending: Map<string, Relation>;
}

function relationOf(map: Map<string, Relation>, rel: string, arity: number): Relation {
  let r = map.get(rel);
  if (r === undefined) map.set(rel, (r = new Relation(arity)));
  return r;
}

/** Adds a derived tuple; counts it as an atom when new, as evaluate.ts counts a new head. */
function addTuple(ctx: Context, round: TupleRound, rel: string, tuple: Int32Array, where: Where, size: string, estimate?: number): void {
  if (round.main.get(rel)!.has(tuple)) return;
  if (!relationOf(round.pending, rel, tuple.length).insert(tuple)) return;
  if (++ctx.counters.atoms > ctx.limits.maxAtoms) {
    throw limitError(ctx, where, `exceeded ${ctx.limits.maxAtoms} ground atoms${size}`, estimate === undefined ? { kind: 'ground-atoms' } : { kind: 'ground-atoms', estimate });
  }
}

/** One run of `rule` (body atom `delta` over the last round's rows, unless -1). */
function fire(ctx: Context, round: TupleRound, rule: JoinRule, delta: number): void {
  const { joins, checks, outputs } = prepareRule(ctx, rule, delta);
  const plan = joins.some((j) => j.hi <= j.lo) ? undefined : planJoin(joins, checks);
  const estimate = estimateJoin(joins, checks, outputs, plan);
  checkEstimate(ctx, rule, estimate, true);
  checkLazyEstimate(ctx, rule, estimate);
  const size = `; its join was estimated at about ${formatEstimate(estimate)} bindings`;
  const args = (rule.head.pattern as Extract<Pattern, { kind: 'fn' }>).args;
  const tuple = new Int32Array(args.length);
  join(rule.nVars, joins, checks, outputs, makeTick(ctx, rule, estimate), (b) => {
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      tuple[i] = a.kind === 'var' ? b[a.index]! : (a as { id: number }).id;
    }
    addTuple(ctx, round, rule.head.rel, tuple, rule, size, estimate);
  }, plan);
}

/** The round's tuples added to the relations; true when some were new (the next round's delta). */
function commit(round: TupleRound, rels: ReadonlySet<string>): boolean {
  let added = false;
  for (const [rel, rows] of round.pending) {
    const main = round.main.get(rel)!;
    const width = rows.arity;
    for (let row = 0; row < rows.size; row++) main.append(rows.rows.subarray(row * width, (row + 1) * width));
    added ||= rows.size > 0;
  }
  round.pending = new Map();
  for (const rel of rels) round.main.get(rel)!.markRound();
  return added;
}

/**
 * Evaluates a static component (relations `rels`, none in {@link notTuples}) whole, as tuples
 * in `ctx.tuples`: the facts, then the rules to their fixpoint.
 */
export function evaluateTuples(ctx: Context, rules: readonly JoinRule[], rels: ReadonlySet<string>, facts: readonly GroundFact[]): void {
  const tuples = ctx.tuples!;
  const arity = new Map<string, number>();
  for (const r of rules) arity.set(r.head.rel, (r.head.pattern as Extract<Pattern, { kind: 'fn' }>).args.length);
  for (const f of facts) arity.set(f.rel, ctx.table.args(f.head).length);
  for (const rel of rels) relationOf(tuples, rel, arity.get(rel) ?? 1);
  const round: TupleRound = { main: tuples, pending: new Map() };
  for (const f of facts) {
    const where: Where = { source: f.source, head: { rel: f.rel } };
    if (ctx.limits.deadline.tick()) throw limitError(ctx, where, `stopped: ${ctx.limits.deadline.describe()}`, deadlineLimit(ctx.limits.deadline, 1));
    addTuple(ctx, round, f.rel, Int32Array.from(ctx.table.args(f.head)), where, '');
  }
  const recursive = new Map(rules.map((r) => [r, r.positives.flatMap((p, i) => (rels.has(p.rel) ? [i] : []))]));
  semiNaive({
    rules,
    recursiveAtoms: (rule) => recursive.get(rule)!,
    fire: (rule, delta) => fire(ctx, round, rule, delta),
    commit: () => commit(round, rels),
  });
}
