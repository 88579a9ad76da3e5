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
import { type DGRule, type EvalContext, type RelationView, type Views, atomRel, compileDGRule, evalRule } from './eval.js';
import { relPositionId } from './graph.js';
import { headComponents, rulesByHead } from './statics.js';

/** Counters of a reduction. */
export interface ReduceStats {
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

/**
 * When each relation's set last changed and each member was last computed, on one clock: a
 * member is stale, and computed again, only when a body relation of its rules changed since.
 */
class Versions {
  private clock = 0;
  private readonly changedAt = new Map<string, number>();
  private readonly computedAt = new Map<string, number>();

  /** True when `rel` was never computed or a body relation of `rules` changed since. */
  stale(rel: string, rules: readonly DGRule[]): boolean {
    const at = this.computedAt.get(rel);
    if (at === undefined) return true;
    return rules.some((r) => r.atoms.some((a) => (this.changedAt.get(a.rel) ?? 0) > at));
  }

  /** `rel` is being computed from the sets as they are now. */
  computed(rel: string): void {
    this.computedAt.set(rel, this.clock);
  }

  /** The set of `rel` changed (its first computation replacing its product included). */
  changed(rel: string): void {
    this.changedAt.set(rel, ++this.clock);
  }
}

/** The heads supported by the rules of `rel` over `views`:
 *    h^I stays  iff  some rule h <= b1..bn with h^I = h.sigma has, for every positive b_i,
 *                    an instance compatible with b_i.sigma  (and its ground distincts hold). */
function supported(ctx: EvalContext, rel: string, rules: readonly DGRule[], views: Views, counter: { answers: number }): Store {
  const out = createStore(rel);
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
  fixed: ReadonlyMap<string, Store>,
  domains: Domains,
  maxTerms: number,
): { sets: Map<string, Store>; stats: ReduceStats } {
  const { table, guard } = ctx;
  const sets = new Map<string, Store>();
  const products = new Map<string, RelationView>();
  const views: Views = (rel) => {
    const s = sets.get(rel) ?? fixed.get(rel);
    if (s !== undefined) return { kind: 'set', store: s };
    return products.get(rel);
  };
  const byHead = rulesByHead(rules.map((r) => compileDGRule(table, r)), (r) => atomRel(r.source.head));
  const counter = { answers: 0 };
  const versions = new Versions();
  let rounds = 0;
  let upward = 0;
  for (const comp of headComponents(rules)) {
    if (comp.recursive && productsFit(comp.rels, domains, maxTerms)) {
      // Algorithm 9.3, line 13, seen lazily: each member starts as the product of its domains.
      for (const rel of comp.rels) {
        guard.what = rel;
        const n = arityOf(rel);
        const doms = Array.from({ length: n }, (_, i) => {
          const pos = relPositionId(nameOf(rel), n, i + 1);
          const store = createStore(pos);
          for (const id of domains.terms(pos, table, guard, maxTerms)) addToStore(store, id);
          return store;
        });
        products.set(rel, { kind: 'product', domains: doms });
      }
    } else if (comp.recursive) {
      // Products beyond the budget (or infinite): the same support test, iterated upward from
      // nothing (the least instead of the greatest fixpoint: smaller, still a superset of the
      // exact model).
      upward++;
      for (const rel of comp.rels) sets.set(rel, createStore(rel));
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
        guard.what = rel;
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
