/**
 * Exact evaluation of the relations that depend on neither `true` nor `does` (static
 * relations, `role`, `init` and other state-independent keywords) in the relaxed game, i.e.
 * the least model of their rules with negative literals dropped. The dependency-graph method
 * treats these like relations given by facts: they keep their exact instances, as the Prolog
 * method finds them, because instantiation evaluates them away.
 */
import { stronglyConnectedComponents } from '../../gdl/scc.js';
import type { NormalRule } from '../../normalize/types.js';
import { type TupleSet, type Views, addTuple, atomRel, bodyParts, emptySet, evalRule } from './eval.js';
import type { Guard } from './join.js';
import type { TermTable } from '../../datalog/terms.js';

/**
 * Components of the positive dependency relation among the heads of `rules`, bodies first.
 * Returns each component's relation keys and whether it is recursive.
 */
export function headComponents(rules: readonly NormalRule[]): { rels: string[]; recursive: boolean }[] {
  const rels = [...new Set(rules.map((r) => atomRel(r.head)))].sort();
  const id = new Map(rels.map((r, i) => [r, i]));
  const deps: Set<number>[] = rels.map(() => new Set());
  for (const r of rules) {
    const h = id.get(atomRel(r.head))!;
    for (const l of r.body) {
      if (l.kind !== 'pos') continue;
      const b = id.get(atomRel(l.atom));
      if (b !== undefined) deps[h]!.add(b);
    }
  }
  const succ = deps.map((s) => [...s].sort((a, b) => a - b));
  // Successors are body relations, so components come out with their bodies first.
  return stronglyConnectedComponents(rels.length, (v) => succ[v]!).map((comp) => {
    const sorted = comp.sort((a, b) => a - b);
    const recursive = sorted.length > 1 || deps[sorted[0]!]!.has(sorted[0]!);
    return { rels: sorted.map((i) => rels[i]!), recursive };
  });
}

/** Groups rules by the key of their head relation. */
export function rulesByHead(rules: readonly NormalRule[]): Map<string, NormalRule[]> {
  const out = new Map<string, NormalRule[]>();
  for (const r of rules) {
    const k = atomRel(r.head);
    const list = out.get(k);
    if (list === undefined) out.set(k, [r]);
    else list.push(r);
  }
  return out;
}

/** Fires the rules of a component once per delta choice; returns the tuples new per relation. */
function fire(
  table: TermTable,
  rels: readonly string[],
  byHead: ReadonlyMap<string, NormalRule[]>,
  sets: Map<string, TupleSet>,
  views: Views,
  guard: Guard,
  deltas: (rule: NormalRule) => ({ index: number; set: TupleSet } | undefined)[],
): Map<string, TupleSet> {
  const fresh = new Map<string, TupleSet>();
  for (const rel of rels) {
    const set = sets.get(rel)!;
    const out = emptySet();
    fresh.set(rel, out);
    for (const rule of byHead.get(rel)!) {
      guard.what = rel;
      guard.pos = rule.pos;
      for (const d of deltas(rule)) {
        // New tuples are collected first: the join reads `set` while it runs.
        const found: (readonly number[])[] = [];
        evalRule(table, rule, views, true, guard, (t) => found.push(t), d);
        for (const t of found) {
          if (addTuple(set, t)) {
            guard.addAtoms(1);
            addTuple(out, t);
          }
        }
      }
    }
  }
  return fresh;
}

/**
 * The least model of `rules` (negative literals ignored, distinct checked), relation by
 * relation in dependency order; a recursive component is iterated until nothing new appears.
 *   p(X) <= b1, ..., bn  adds every instance whose positive body atoms are all in the model.
 */
export function evaluateStatics(table: TermTable, rules: readonly NormalRule[], guard: Guard): Map<string, TupleSet> {
  const sets = new Map<string, TupleSet>();
  const byHead = rulesByHead(rules);
  const views: Views = (rel) => {
    const s = sets.get(rel);
    return s === undefined ? undefined : { kind: 'set', set: s };
  };
  for (const comp of headComponents(rules)) {
    for (const rel of comp.rels) sets.set(rel, emptySet());
    // First round: every rule over the full sets (those of the component are still empty).
    let delta = fire(table, comp.rels, byHead, sets, views, guard, () => [undefined]);
    const members = new Set(comp.rels);
    // Semi-naive rounds: a rule fires again only with one of its component atoms restricted
    // to the tuples that were new in the previous round.
    while (comp.recursive && [...delta.values()].some((d) => d.tuples.length > 0)) {
      const last = delta;
      delta = fire(table, comp.rels, byHead, sets, views, guard, (rule) =>
        bodyParts(rule).atoms.flatMap((a, index) => {
          const d = last.get(atomRel(a));
          return members.has(atomRel(a)) && d !== undefined && d.tuples.length > 0 ? [{ index, set: d }] : [];
        }),
      );
    }
  }
  return sets;
}
