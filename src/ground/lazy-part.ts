/**
 * What instantiation adds for lazy axioms (docs/lazy.md): which relations depend on the state
 * through a lazy one, and the lazy part of the ground game (static facts the non-ground
 * program reads, and the heads its keyword rules may make).
 */
import type { Atom } from '../gdl/ast.js';
import { relationGraph, stateDependent } from '../gdl/relations.js';
import type { Rule } from '../gdl/ast.js';
import type { TermTable } from '../datalog/terms.js';
import { UNBOUND, compileTerm, matchPattern } from '../datalog/pattern.js';
import type { Supersets } from '../reach/types.js';
import { type LazyPlan, LazyRefusal } from './lazy.js';
import { handedIds } from '../reach/handover.js';
import { sortTermsByText } from './text-order.js';
import type { LazyPart } from './types.js';

/**
 * The state-dependent relations of the ground part: the usual ones, the lazy relations, and
 * everything that reads one of them:
 *   dyn(R) <= R lazy        dyn(H) <= dyn(B), H <= ... B ...
 */
export function lazyDynamic(plain: readonly Rule[], plan: LazyPlan): Set<string> {
  const out = stateDependent(plain);
  const edges = relationGraph(plain).edges;
  const todo = [...plan.relations];
  for (const r of todo) out.add(r);
  while (todo.length > 0) {
    const rel = todo.pop()!;
    for (const e of edges) if (e.from === rel && !out.has(e.to)) (out.add(e.to), todo.push(e.to));
  }
  return out;
}

/** The arguments of the `next` and `legal` atoms of the supersets, as term ids: `[f]` per fluent, `[role, action]` per move. */
interface KeywordArgs {
  readonly fluents: Int32Array;
  readonly moves: Int32Array;
}

/**
 * The fluents and moves of `supersets` as term ids of the run's `table`: as handed over (the
 * run's table is a copy of theirs), or interned here, once for all the lazy rules (each rule
 * interned every move again: ~0.1 s of chess's final instantiation).
 */
function keywordArgs(supersets: Supersets, table: TermTable): KeywordArgs {
  const ids = handedIds(supersets);
  if (ids !== undefined) return { fluents: ids.fluents, moves: ids.moves };
  const fluents = Int32Array.from(supersets.fluents, (f) => table.fromTerm(f));
  const moves = new Int32Array(2 * supersets.moves.length);
  for (let i = 0; i < supersets.moves.length; i++) {
    const m = supersets.moves[i]!;
    moves[2 * i] = table.fromTerm(m.role);
    moves[2 * i + 1] = table.fromTerm(m.action);
  }
  return { fluents, moves };
}

/** Term ids of the atoms lazy keyword rule head `head` may make, over the fluents and moves `kw`. */
function headsOf(head: Atom, kw: () => KeywordArgs, table: TermTable, roles: readonly number[], tick: () => void): number[] {
  const out: number[] = [];
  if (head.rel === 'next' || head.rel === 'legal') {
    const width = head.rel === 'next' ? 1 : 2;
    const rows = head.rel === 'next' ? kw().fluents : kw().moves;
    // A head of another arity matches none (as the syntax-tree match found).
    if (head.args.length !== width) return out;
    const sym = table.symbol(head.rel);
    // The head's arguments matched over term ids (hash-consed: equal terms, equal ids), variables bound consistently.
    const vars = new Map<string, number>();
    const patterns = head.args.map((a) => compileTerm(a, vars, table));
    const vals = new Int32Array(vars.size);
    for (let at = 0; at < rows.length; at += width) {
      tick();
      vals.fill(UNBOUND);
      if (patterns.every((p, i) => matchPattern(p, rows[at + i]!, table, vals))) out.push(table.make(sym, rows.subarray(at, at + width)));
    }
  } else if (head.args.every((a) => a.kind === 'const')) {
    out.push(table.compound(head.rel, head.args.map((a) => table.fromTerm(a))));
  } else if (head.rel === 'goal' && head.args[0]!.kind === 'var' && head.args[1]!.kind === 'const') {
    // (goal ?r V): one atom per role.
    for (const role of roles) out.push(table.compound('goal', [role, table.fromTerm(head.args[1]!)]));
  } else {
    throw new LazyRefusal(`the rule for '${head.rel}' at line ${head.pos.line} would stay non-ground with a variable in its head`);
  }
  return out;
}

/**
 * Sorted by text, without duplicates: by text-order.ts's radix sort over argument ranks, the
 * code point order of the texts without making them (chess: 69,890 static facts, ~100 ms of
 * its final instantiation as texts compared).
 */
function byText(table: TermTable, ids: Iterable<number>): number[] {
  return sortTermsByText(table, [...new Set(ids)]);
}

/**
 * The lazy part of the ground game: the plan's non-ground rules, the facts of the static
 * relations they read (`factsOf` gives a static relation's exact instances as term ids), and
 * the heads their keyword rules may make. `tick` looks at the run's deadline: each lazy keyword
 * rule is matched against every fluent or move (amazons has 173,962 moves).
 */
export function lazyPart(plan: LazyPlan, supersets: Supersets, table: TermTable, factsOf: (rel: string) => readonly number[], tick: () => void): LazyPart {
  const roles = factsOf('role').map((r) => table.args(r)[0]!);
  let kw: KeywordArgs | undefined;
  const keyword = (): KeywordArgs => (kw ??= keywordArgs(supersets, table));
  const heads = plan.lazyRules.flatMap((r) => headsOf(r.head, keyword, table, roles, tick));
  return {
    relations: plan.relations,
    rules: plan.rules,
    facts: byText(table, plan.statics.flatMap((rel) => factsOf(rel))),
    heads: byText(table, heads),
  };
}
