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
import { type Store, addToStore, createStore, storeSize } from '../../datalog/block.js';
import type { NormalRule } from '../../normalize/types.js';
import type { Domains } from './domains.js';
import { type DGRule, type EvalContext, type RelationView, type Views, compileDGRule, evalRule } from './eval.js';
import { type ArgGraph, relationArguments } from './graph.js';
import { headComponents, rulesByHead } from './statics.js';

/** Counters of a reduction. */
interface ReduceStats {
  /** Rounds over recursive components, all components together. */
  readonly rounds: number;
  /** Join solutions found (supported head instances, duplicates included). */
  readonly answers: number;
  /** Recursive components computed upward because their products exceeded the atom budget. */
  readonly upward: number;
}

/**
 * True when the products of `rels` together hold at most `max` instances: only then can the
 * greatest fixpoint, which may keep most of a product, stay within the atom budget.
 */
function productsFit(rels: readonly number[], graph: ArgGraph, domains: Domains, max: number): boolean {
  let total = 0;
  for (const rel of rels) {
    let size = 1;
    for (const pos of relationArguments(graph, rel)) {
      if (size === 0) break;
      size *= pos === undefined ? 0 : domains.count(pos);
    }
    total += size;
  }
  return total <= max;
}

/**
 * When each relation's set last changed and each member was last computed, on one clock: a
 * member is stale, and computed again, only when a body relation of its rules changed since.
 */
class Versions {
  private clock = 0;
  private readonly changedAt = new Map<number, number>();
  private readonly computedAt = new Map<number, number>();

  /** True when `rel` was never computed or a body relation of `rules` changed since. */
  stale(rel: number, rules: readonly DGRule[]): boolean {
    const at = this.computedAt.get(rel);
    if (at === undefined) return true;
    return rules.some((r) => r.atoms.some((a) => (this.changedAt.get(a.rel) ?? 0) > at));
  }

  /** `rel` is being computed from the sets as they are now. */
  computed(rel: number): void {
    this.computedAt.set(rel, this.clock);
  }

  /** The set of `rel` changed (its first computation replacing its product included). */
  changed(rel: number): void {
    this.changedAt.set(rel, ++this.clock);
  }
}

/** The heads supported by the rules of `rel` over `views`:
 *    h^I stays  iff  some rule h <= b1..bn with h^I = h.sigma has, for every positive b_i,
 *                    an instance compatible with b_i.sigma  (and its ground distincts hold). */
function supported(ctx: EvalContext, rel: number, rules: readonly DGRule[], views: Views, counter: { answers: number }): Store {
  const out = createStore(ctx.rels.key(rel));
  for (const rule of rules) {
    ctx.guard.pos = rule.source.pos;
    counter.answers += evalRule(ctx, rule, views, false, (id) => {
      addToStore(out, id);
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
  ctx: EvalContext,
  rules: readonly NormalRule[],
  fixed: ReadonlyMap<number, Store>,
  graph: ArgGraph,
  domains: Domains,
  maxTerms: number,
): { sets: Map<number, Store>; stats: ReduceStats } {
  const { table, guard, rels } = ctx;
  const sets = new Map<number, Store>();
  const products = new Map<number, RelationView>();
  const views: Views = (rel) => {
    const s = sets.get(rel) ?? fixed.get(rel);
    if (s !== undefined) return { kind: 'set', store: s };
    return products.get(rel);
  };
  const byHead = rulesByHead(rules.map((r) => compileDGRule(ctx, r)), (r) => r.headRel);
  const counter = { answers: 0 };
  const versions = new Versions();
  let rounds = 0;
  let upward = 0;
  for (const comp of headComponents(rels, rules)) {
    if (comp.recursive && productsFit(comp.rels, graph, domains, maxTerms)) {
      // Algorithm 9.3, line 13, seen lazily: each member starts as the product of its domains.
      for (const rel of comp.rels) {
        guard.what = rels.key(rel);
        const doms = relationArguments(graph, rel).map((pos, i) => {
          const store = createStore(pos === undefined ? `${rels.key(rel)}[${i + 1}]` : graph.byId[pos]!.text);
          if (pos !== undefined) for (const id of domains.terms(pos, table, guard, maxTerms)) addToStore(store, id);
          return store;
        });
        products.set(rel, { kind: 'product', domains: doms });
      }
    } else if (comp.recursive) {
      // Products beyond the budget (or infinite): the same support test, iterated upward from
      // nothing (the least instead of the greatest fixpoint: smaller, still a superset of the
      // exact model).
      upward++;
      for (const rel of comp.rels) sets.set(rel, createStore(rels.key(rel)));
    }
    // Algorithm 9.4, lines 2-11: recompute every member from the current sets until a whole
    // round leaves all sizes unchanged (each round only removes instances, or only adds them
    // when going upward). Not the semi-naive driver: a round may remove instances.
    for (let changed = true; changed; ) {
      changed = false;
      rounds++;
      for (const rel of comp.rels) {
        // The support test reads only the body relations: none changed, the same set again.
        const rules = byHead.get(rel)!;
        if (!versions.stale(rel, rules)) continue;
        guard.what = rels.key(rel);
        const before = sets.get(rel);
        versions.computed(rel);
        const next = supported(ctx, rel, rules, views, counter);
        // Each round only removes (or, upward, only adds): the same size is the same set, and
        // keeping the old store keeps the blocks already built over it.
        if (before !== undefined && storeSize(before) === storeSize(next)) continue;
        if (before !== undefined) guard.addAtoms(-storeSize(before));
        guard.addAtoms(storeSize(next));
        sets.set(rel, next);
        products.delete(rel);
        versions.changed(rel);
        if (comp.recursive) changed = true;
      }
    }
  }
  return { sets, stats: { rounds, answers: counter.answers, upward } };
}
