/**
 * The GDL recursion restriction, on the relation dependency graph of src/gdl/relations.ts (a
 * body relation q and the head relation p of a rule are "in a cycle" when they lie in the same
 * strongly connected component). It is judged per disjunct of a rule's normal form, which is
 * why it lives here and not with the checks on rules as written in src/gdl/.
 */
import type { Atom, Rule, Term } from '../gdl/ast.js';
import { type Diagnostic, diag } from '../gdl/diagnostics.js';
import { relationGraph } from '../gdl/relations.js';
import { atomToString, isGround, termEquals, termToString } from '../gdl/terms.js';
import type { NormalRule } from './types.js';

/**
 * The recursion restriction (GDL specification 2008, definition 15): for a rule
 *   p(t1..tn) <= b1 & ... & q(v1..vk) & ... & bm   with q in a cycle with p,
 * every vj is ground, or equals some ti, or is an argument of a positive literal r(...) of
 * the body with r not in a cycle with p. Judged per disjunct, after equalities are solved.
 */
function restrictionViolation(rule: NormalRule, component: ReadonlyMap<string, number>, key: (atom: Atom) => string): string | null {
  const own = component.get(key(rule.head));
  const outside: Term[] = [];
  for (const l of rule.body) if (l.kind === 'pos' && component.get(key(l.atom)) !== own) outside.push(...l.atom.args);
  for (const l of rule.body) {
    if (l.kind === 'distinct' || component.get(key(l.atom)) !== own) continue;
    for (const v of l.atom.args) {
      const ok = isGround(v) || rule.head.args.some((t) => termEquals(t, v)) || outside.some((t) => termEquals(t, v));
      if (!ok) {
        return `recursion restriction violated in a rule for '${rule.head.rel}': argument ${termToString(v)} of the recursive literal ${atomToString(l.atom)} is not ground, not an argument of the head, and not an argument of a non-recursive positive literal`;
      }
    }
  }
  return null;
}

/**
 * Checks the recursion restriction on every rule's normal form (`split` gives it, or null for a
 * rule whose DNF the normalizer refuses: that rule is reported by the normalizer instead).
 */
export function checkRestriction(rules: readonly Rule[], file: string, split: (rule: Rule) => readonly NormalRule[] | null): Diagnostic[] {
  const { component, key } = relationGraph(rules);
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    // A fact has no recursive literal to restrict.
    if (rule.body.length === 0) continue;
    const parts = split(rule);
    if (parts === null) continue;
    const messages = new Set<string>();
    for (const part of parts) {
      const m = restrictionViolation(part, component, key);
      if (m !== null) messages.add(m);
    }
    for (const m of messages) out.push(diag('error', file, rule.pos, m));
  }
  return out;
}
