/**
 * What instantiation adds for lazy axioms (docs/lazy.md): which relations depend on the state
 * through a lazy one, and the lazy part of the ground game (static facts the non-ground
 * program reads, and the heads its keyword rules may make).
 */
import type { Atom, Term } from '../gdl/ast.js';
import { relationGraph, stateDependent } from '../gdl/relations.js';
import type { Rule } from '../gdl/ast.js';
import type { TermTable } from '../datalog/terms.js';
import type { Supersets } from '../reach/types.js';
import { type LazyPlan, LazyRefusal, matchesPattern } from './lazy.js';
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

function fn(name: string, args: readonly Term[]): Term {
  return { kind: 'fn', name, args, pos: { line: 0, col: 0 } };
}

/** Term ids of the atoms lazy keyword rule head `head` may make, over the supersets. */
function headsOf(head: Atom, supersets: Supersets, table: TermTable, roles: readonly number[], tick: () => void): number[] {
  const pattern = fn(head.rel, head.args);
  const out: number[] = [];
  if (head.rel === 'next') {
    for (const f of supersets.fluents) {
      tick();
      if (matchesPattern(pattern, fn('next', [f]))) out.push(table.compound('next', [table.fromTerm(f)]));
    }
  } else if (head.rel === 'legal') {
    for (const m of supersets.moves) {
      tick();
      if (matchesPattern(pattern, fn('legal', [m.role, m.action]))) out.push(table.compound('legal', [table.fromTerm(m.role), table.fromTerm(m.action)]));
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
  const heads = plan.lazyRules.flatMap((r) => headsOf(r.head, supersets, table, roles, tick));
  return {
    relations: plan.relations,
    rules: plan.rules,
    facts: byText(table, plan.statics.flatMap((rel) => factsOf(rel))),
    heads: byText(table, heads),
  };
}
