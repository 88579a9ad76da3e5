/**
 * Exact evaluation of the relations that depend on neither `true` nor `does` (static
 * relations, `role`, `init` and other state-independent keywords) in the relaxed game, i.e.
 * the least model of their rules with negative literals dropped. The dependency-graph method
 * treats these like relations given by facts: they keep their exact instances, as the Prolog
 * method finds them, because instantiation evaluates them away.
 */
import { type Store, addToStore, advanceRound, createStore, inStore } from '../../datalog/block.js';
import { semiNaive } from '../../datalog/fixpoint.js';
import { relationComponents } from '../../gdl/relations.js';
import type { NormalRule } from '../../normalize/types.js';
import { type DGRule, type EvalContext, type Views, atomRel, compileDGRule, evalRule } from './eval.js';

/**
 * Components of the positive dependency relation among the heads of `rules`, bodies first,
 * with whether each is recursive.
 */
export function headComponents(rules: readonly NormalRule[]): { rels: string[]; recursive: boolean }[] {
  const heads = new Set(rules.map((r) => atomRel(r.head)));
  const edges = rules.flatMap((r) =>
    r.body.flatMap((l) => (l.kind === 'pos' && heads.has(atomRel(l.atom)) ? [{ from: atomRel(l.atom), to: atomRel(r.head) }] : [])),
  );
  return relationComponents([...heads], edges).map((c) => ({ rels: c.members, recursive: c.recursive }));
}

/** Groups rules by the key of their head relation. */
export function rulesByHead<R extends NormalRule | DGRule>(rules: readonly R[], head: (r: R) => string): Map<string, R[]> {
  const out = new Map<string, R[]>();
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
export function evaluateStatics(ctx: EvalContext, rules: readonly NormalRule[], onNew?: (id: number) => void): Map<string, Store> {
  const stores = new Map<string, Store>();
  const compiled = rules.map((r) => compileDGRule(ctx.table, r));
  const byHead = rulesByHead(compiled, (r) => atomRel(r.source.head));
  const views: Views = (rel) => {
    const s = stores.get(rel);
    return s === undefined ? undefined : { kind: 'set', store: s };
  };
  const { guard, table } = ctx;
  for (const comp of headComponents(rules)) {
    const members = new Set(comp.rels);
    for (const rel of comp.rels) stores.set(rel, createStore(rel));
    const compRules = comp.rels.flatMap((rel) => byHead.get(rel)!);
    // New atoms and, beside each, the store it goes to (no relation key text per atom).
    let pending: number[] = [];
    let pendingStores: Store[] = [];
    const seen = new Set<number>();
    semiNaive<DGRule>({
      rules: compRules,
      recursiveAtoms: (rule) => (comp.recursive ? rule.atoms.flatMap((a, i) => (members.has(a.rel) ? [i] : [])) : []),
      fire: (rule, delta) => {
        const rel = atomRel(rule.source.head);
        guard.what = rel;
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
