/**
 * Exact evaluation of the relations that depend on neither `true` nor `does` (static
 * relations, `role`, `init` and other state-independent keywords) in the relaxed game, i.e.
 * the least model of their rules with negative literals dropped. The dependency-graph method
 * treats these like relations given by facts: they keep their exact instances, as the Prolog
 * method finds them, because instantiation evaluates them away.
 */
import { type Store, addToStore, advanceRound, createStore, inStore } from '../../datalog/block.js';
import { semiNaive } from '../../datalog/fixpoint.js';
import type { RelationTable } from '../../gdl/relation-table.js';
import { relationComponents } from '../../gdl/relations.js';
import type { NormalRule } from '../../normalize/types.js';
import { type DGRule, type EvalContext, type Views, atomRel, compileDGRule, evalRule } from './eval.js';

/**
 * Components of the positive dependency relation among the heads of `rules`, bodies first,
 * with whether each is recursive.
 */
export function headComponents(rels: RelationTable, rules: readonly NormalRule[]): { rels: number[]; recursive: boolean }[] {
  const heads = new Set(rules.map((r) => atomRel(rels, r.head)));
  // The components are found over the texts `name/arity`, so that their order stays the order
  // of the texts; each text is mapped back to its id by lookup, never split.
  const byKey = new Map([...heads].map((id) => [rels.key(id), id]));
  const edges = rules.flatMap((r) =>
    r.body.flatMap((l) => (l.kind === 'pos' && heads.has(atomRel(rels, l.atom)) ? [{ from: rels.key(atomRel(rels, l.atom)), to: rels.key(atomRel(rels, r.head)) }] : [])),
  );
  return relationComponents(byKey.keys(), edges).map((c) => ({ rels: c.members.map((k) => byKey.get(k)!), recursive: c.recursive }));
}

/** Groups rules by the key of their head relation. */
export function rulesByHead<R extends NormalRule | DGRule>(rules: readonly R[], head: (r: R) => number): Map<number, R[]> {
  const out = new Map<number, R[]>();
  for (const r of rules) {
    const k = head(r);
    const list = out.get(k);
    if (list === undefined) out.set(k, [r]);
    else list.push(r);
  }
  return out;
}

/**
 * The least model of `rules` (negative literals ignored, distinct checked), component by
 * component in dependency order, each with the core's semi-naive fixpoint:
 *   p(X) <= b1, ..., bn  adds every instance whose positive body atoms are all in the model.
 */
export function evaluateStatics(ctx: EvalContext, rules: readonly NormalRule[], onNew?: (id: number) => void): Map<number, Store> {
  const stores = new Map<number, Store>();
  const compiled = rules.map((r) => compileDGRule(ctx, r));
  const byHead = rulesByHead(compiled, (r) => r.headRel);
  const views: Views = (rel) => {
    const s = stores.get(rel);
    return s === undefined ? undefined : { kind: 'set', store: s };
  };
  const { guard, table, rels } = ctx;
  for (const comp of headComponents(rels, rules)) {
    const members = new Set(comp.rels);
    for (const rel of comp.rels) stores.set(rel, createStore(rels.key(rel)));
    const compRules = comp.rels.flatMap((rel) => byHead.get(rel)!);
    // New atoms and, beside each, the store it goes to (no relation key text per atom).
    let pending: number[] = [];
    let pendingStores: Store[] = [];
    const seen = new Set<number>();
    semiNaive<DGRule>({
      rules: compRules,
      recursiveAtoms: (rule) => (comp.recursive ? rule.atoms.flatMap((a, i) => (members.has(a.rel) ? [i] : [])) : []),
      fire: (rule, delta) => {
        const rel = rule.headRel;
        guard.what = rels.key(rel);
        guard.pos = rule.source.pos;
        const store = stores.get(rel)!;
        evalRule(ctx, rule, views, true, (id) => {
          if (inStore(store, id) || seen.has(id)) return;
          seen.add(id);
          onNew?.(id);
          pending.push(id);
          pendingStores.push(store);
          guard.addAtoms(1);
        }, delta);
      },
      commit: () => {
        if (pending.length === 0) return false;
        for (let i = 0; i < pending.length; i++) addToStore(pendingStores[i]!, pending[i]!);
        pending = [];
        pendingStores = [];
        seen.clear();
        // The rows new in every block over the component's stores are the next delta.
        advanceRound(comp.rels.flatMap((rel) => [...(ctx.blocks.get(stores.get(rel)!)?.values() ?? [])]), table);
        return true;
      },
    });
  }
  return stores;
}
