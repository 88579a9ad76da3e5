/**
 * reduceSupersetsDG (Algorithm 9.4): a head instance stays only while some rule for it has a
 * body every positive atom of which still has a compatible instance; removals repeat until
 * nothing changes (a greatest fixpoint below the products of Algorithm 9.3, line 13).
 *
 * The products are never enumerated. Relations are handled in dependency order: a relation
 * outside recursion is the set of heads its rules support over the already reduced body
 * relations. Inside a recursive component the members start as their products, seen
 * argument by argument, and the heads supported by them are then reduced round by round.
 * When the members' products together exceed the atom budget (or are infinite), the
 * component is instead computed upward from empty sets with the same support test.
 */
import type { NormalRule } from '../../normalize/types.js';
import type { Domains } from './domains.js';
import { type RelationView, type TupleSet, type Views, addTuple, emptySet, evalRule } from './eval.js';
import { relPositionId } from './graph.js';
import type { Guard } from './join.js';
import { headComponents, rulesByHead } from './statics.js';
import type { TermTable } from '../../datalog/terms.js';

/** Counters of a reduction. */
export interface ReduceStats {
  /** Rounds over recursive components, all components together. */
  readonly rounds: number;
  /** Join solutions found (supported head instances, duplicates included). */
  readonly answers: number;
  /** Recursive components computed upward because their products exceeded the budget. */
  readonly upward: number;
}

/**
 * True when the products of `rels` together hold at most `max` instances: only then can the
 * greatest fixpoint, which may keep most of a product, stay within the atom budget.
 */
function productsFit(rels: readonly string[], domains: Domains, max: number): boolean {
  let total = 0;
  for (const rel of rels) {
    const n = arityOf(rel);
    let size = 1;
    for (let i = 1; i <= n && size > 0; i++) size *= domains.count(relPositionId(nameOf(rel), n, i));
    total += size;
  }
  return total <= max;
}

/** Arity of a relation key `name/arity`. */
function arityOf(rel: string): number {
  return Number(rel.slice(rel.lastIndexOf('/') + 1));
}

function nameOf(rel: string): string {
  return rel.slice(0, rel.lastIndexOf('/'));
}

/** The heads supported by the rules of `rel` over `views`:
 *    h^I stays  iff  some rule h <= b1..bn with h^I = h.sigma has, for every positive b_i,
 *                    an instance compatible with b_i.sigma  (and its ground distincts hold). */
function supported(table: TermTable, rules: readonly NormalRule[], views: Views, guard: Guard, counter: { answers: number }): TupleSet {
  const out = emptySet();
  for (const rule of rules) {
    guard.pos = rule.pos;
    counter.answers += evalRule(table, rule, views, false, guard, (t) => {
      addTuple(out, t);
    });
  }
  return out;
}

/**
 * Reduces the supersets of the relations headed by `rules` (dynamic rules, with the rules
 * `true <= init`, `true <= next` and `does <= legal` included). `fixed` holds the exact sets
 * of the static relations; the result maps every head relation to its reduced set.
 */
export function reduceSupersetsDG(
  table: TermTable,
  rules: readonly NormalRule[],
  fixed: ReadonlyMap<string, TupleSet>,
  domains: Domains,
  maxTerms: number,
  guard: Guard,
): { sets: Map<string, TupleSet>; stats: ReduceStats } {
  const sets = new Map<string, TupleSet>();
  const products = new Map<string, RelationView>();
  const views: Views = (rel) => {
    const s = sets.get(rel) ?? fixed.get(rel);
    if (s !== undefined) return { kind: 'set', set: s };
    return products.get(rel);
  };
  const byHead = rulesByHead(rules);
  const counter = { answers: 0 };
  let rounds = 0;
  let upward = 0;
  for (const comp of headComponents(rules)) {
    if (comp.recursive && productsFit(comp.rels, domains, maxTerms)) {
      // Algorithm 9.3, line 13, seen lazily: each member starts as the product of its domains.
      for (const rel of comp.rels) {
        guard.what = rel;
        const n = arityOf(rel);
        const doms = Array.from({ length: n }, (_, i) => domains.terms(relPositionId(nameOf(rel), n, i + 1), table, guard, maxTerms));
        products.set(rel, { kind: 'product', domains: doms });
      }
    } else if (comp.recursive) {
      // Products beyond the budget (or infinite): the same support test, iterated upward from
      // nothing (the least instead of the greatest fixpoint: smaller, still a superset of the
      // exact model).
      upward++;
      for (const rel of comp.rels) sets.set(rel, emptySet());
    }
    // Algorithm 9.4, lines 2-11: recompute every member from the current sets until a whole
    // round leaves all sizes unchanged (each round only removes instances, or only adds them
    // when going upward).
    for (let changed = true; changed; ) {
      changed = false;
      rounds++;
      for (const rel of comp.rels) {
        guard.what = rel;
        const before = sets.get(rel);
        const next = supported(table, byHead.get(rel)!, views, guard, counter);
        if (before !== undefined) guard.addAtoms(-before.tuples.length);
        guard.addAtoms(next.tuples.length);
        sets.set(rel, next);
        products.delete(rel);
        if (comp.recursive && (before === undefined || before.tuples.length !== next.tuples.length)) changed = true;
      }
    }
  }
  return { sets, stats: { rounds, answers: counter.answers, upward } };
}

