/**
 * Compiles the rules of one component into Tau-Prolog clauses, planned with statistics of the
 * facts known so far: relations of lower components are complete when their dependents are
 * compiled, so their sizes and per-argument distinct counts give real join orders (a static
 * order cannot tell a 4,000-fact table from a 40-fact one). Members of a recursive component
 * grow while it runs, so the component is compiled again when one of them has grown fourfold.
 */
import { tauKif } from '../engine/tau.js';
import { isGround } from '../gdl/terms.js';
import { type RowEstimate, clauseTerms, literalTarget, planVariant } from './clauses.js';
import type { CompiledRule, DeltaVariant, Run } from './evaluate.js';
import { type Component, type RelaxedRule, keyOf } from './relaxed.js';

/** Size and number of distinct values per argument of a table, when last measured. */
export interface TableStats {
  readonly size: number;
  readonly distinct: readonly number[];
}

/** A component's clauses and the member sizes they were planned with. */
export interface CompiledComponent {
  readonly rules: ReadonlyMap<RelaxedRule, CompiledRule>;
  readonly planned: ReadonlyMap<string, number>;
}

/** Variant clauses for every rule of `comp`: a full one and one per literal of the component. */
export function compileComponent(run: Run, comp: Component): CompiledComponent {
  const members = new Set(comp.relations);
  const estimate = estimator(run, members);
  const rules = new Map<RelaxedRule, CompiledRule>();
  const add = (rule: RelaxedRule, deltaAt: number | null): number => {
    const id = run.nextId++;
    const c = clauseTerms(planVariant(id, rule, deltaAt, estimate));
    run.engine.addClause(c.head, c.body);
    return id;
  };
  for (const rule of comp.rules) {
    if (rule.body.length === 0 && rule.head.args.every(isGround)) {
      rules.set(rule, { rule, fact: true, full: -1, deltas: [] });
      continue;
    }
    const full = add(rule, null);
    const deltas: DeltaVariant[] = [];
    // One variant per positive literal of the component: `i` counts positive literals only.
    rule.body.filter((l) => l.kind === 'pos').forEach((l, i) => {
      const relKey = keyOf(l.atom);
      if (members.has(relKey)) deltas.push({ relKey, id: add(rule, i), ...literalTarget(l) });
    });
    rules.set(rule, { rule, fact: false, full, deltas });
  }
  const planned = new Map(comp.relations.map((k) => [k, run.store.relations.get(k)?.facts.length ?? 0]));
  return { rules, planned };
}

/** True when a member relation has grown at least fourfold (and past 16 facts) since planning. */
export function needsReplan(run: Run, compiled: CompiledComponent): boolean {
  for (const [key, was] of compiled.planned) {
    const now = run.store.relations.get(key)?.facts.length ?? 0;
    if (now >= 4 * Math.max(was, 4)) return true;
  }
  return false;
}

/**
 * Rows a literal yields: the table's size divided by the distinct values of each bound
 * argument (independence assumption). A dispatcher call counts every table of the relation.
 * Relations of the component itself are still growing, so their size counts as at least
 * {@link GROWING_FLOOR}: planning on a nearly empty table would put it first and multiply out
 * once it has filled up.
 */
function estimator(run: Run, members: ReadonlySet<string>): RowEstimate {
  return (relKey, table, boundArgs) => {
    const floor = members.has(relKey) ? GROWING_FLOOR : 0;
    if (table === undefined) {
      const r = run.store.relations.get(relKey);
      return Math.max(floor, r === undefined ? 0 : r.facts.length);
    }
    const stats = tableStats(run, table);
    let rows = Math.max(floor, stats.size);
    boundArgs.forEach((b, i) => {
      if (b) rows /= Math.max(1, stats.distinct[i] ?? 1);
    });
    return rows;
  };
}

/** Size assumed at least for a relation of the component being evaluated. */
const GROWING_FLOOR = 1000;

/** Statistics of a table, measured again only when it has grown since. */
function tableStats(run: Run, name: string): TableStats {
  const t = run.store.tables.get(name);
  if (t === undefined) return { size: 0, distinct: [] };
  const cached = run.stats.get(name);
  if (cached !== undefined && cached.size === t.all.length) return cached;
  const sets = Array.from({ length: t.arity }, () => new Set<string>());
  for (const args of t.all) args.forEach((a, i) => sets[i]!.add(tauKif(a).text));
  const stats = { size: t.all.length, distinct: sets.map((s) => s.size) };
  run.stats.set(name, stats);
  return stats;
}
