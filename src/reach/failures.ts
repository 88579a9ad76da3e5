/**
 * The messages of a superset computation that stops: a resource limit (exit 3) names the
 * relation that grew and points at its first rule; an unsafe rule (exit 1) points at itself.
 */
import type { Pos } from '../gdl/ast.js';
import { GdlError, type LimitInfo, diag, relationLimitError } from '../gdl/diagnostics.js';
import { type RelationKey, type RelaxedPlan, relationKeyText } from './relaxed.js';
import type { FactStore } from './store.js';

/** The relation with the most facts: its key text `rel/arity` (for display), the relation, and its count. */
export function largestRelation(store: FactStore): { readonly key: string; readonly relation: RelationKey | undefined; readonly count: number } {
  let key = '';
  let relation: RelationKey | undefined;
  let count = -1;
  for (const [k, r] of store.relations) {
    if (r.auxiliary) continue;
    if (r.ids.size > count || (r.ids.size === count && k < key)) {
      key = k;
      relation = r;
      count = r.ids.size;
    }
  }
  return { key, relation, count: Math.max(count, 0) };
}

/** Position to blame for relation `key`: its first rule, or the rule that feeds it. */
function positionOf(plan: RelaxedPlan, key: string): Pos {
  const feeder = key === 'true/1' ? 'next/1' : key === 'does/2' ? 'legal/2' : key;
  return plan.firstRule.get(key) ?? plan.firstRule.get(feeder) ?? plan.firstRule.get('init/1') ?? { line: 1, col: 1 };
}

/** A limit error (exit 3) about `relation` (named by its name; its first rule is blamed unless `pos`). */
export function limitError(file: string, plan: RelaxedPlan, relation: RelationKey, message: string, limit: LimitInfo, pos?: Pos): GdlError {
  const name = relation.rel;
  return relationLimitError(file, pos ?? positionOf(plan, relationKeyText(relation)), name, `relation '${name}' ${message}`, limit);
}

/** An invalid-game error (exit 1) at a rule. */
export function invalidError(file: string, pos: Pos, message: string): GdlError {
  return new GdlError([diag('error', file, pos, message)], 'invalid');
}
