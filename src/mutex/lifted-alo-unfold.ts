/**
 * Reading a derived atom of a tableau branch backwards (docs/mutex.md, section 2l), for the
 * exactly-one and implication tableaux of lifted-alo.ts. A `legal` rule added by a move split may
 * hold a derived atom (ticblock's `reset` is legal under `fintic`, `(<= fintic (finishedtic ?x
 * ?y))`) while the `next` rule that must fire reads what that atom's rules read (`(next
 * (ticscores ?x ?y)) <= (does ?p reset) (role ?p) (finishedtic ?x ?y)`). A true atom of a derived
 * relation is the head of an instance of one of its rules whose body is true (the perfect model is
 * supported), so replacing the branch by one case per rule whose head unifies with the atom, that
 * rule's body added, is a complete case distinction; no rule unifying: the branch cannot hold.
 */
import type { Literal, NormalRule } from '../normalize/types.js';
import { relOf } from './lifted-relax.js';
import { type Subst, renameRule, unify } from './lifted-terms.js';

/** The derived relations (keys of `derived`) that some of the `next` rules read positively: what a branch may have to show. */
export function wantedRelations(nexts: readonly NormalRule[], derived: ReadonlyMap<string, readonly NormalRule[]>): Set<string> {
  return new Set(nexts.flatMap((r) => r.body.flatMap((l) => (l.kind === 'pos' && derived.has(relOf(l.atom)) ? [relOf(l.atom)] : []))));
}

/**
 * The index of the first positive literal of the branch, not unfolded yet, of a derived relation
 * (non-recursive, `derived`) one of whose rules reads a `wanted` relation positively.
 */
export function unfoldTarget(
  lits: readonly Literal[], unfolded: ReadonlySet<number>, derived: ReadonlyMap<string, readonly NormalRule[]>, wanted: ReadonlySet<string>,
): number | undefined {
  const i = lits.findIndex((l, j) => l.kind === 'pos' && !unfolded.has(j)
    && (derived.get(relOf(l.atom)) ?? []).some((r) => r.body.some((m) => m.kind === 'pos' && wanted.has(relOf(m.atom)))));
  return i < 0 ? undefined : i;
}

/** One case of an unfolding: the rule's body, with its head unified with the atom. */
interface UnfoldCase {
  readonly body: readonly Literal[];
  readonly s: Subst;
}

/** The cases of the positive literal `l` (of a relation of `derived`): one per rule whose head unifies with it, renamed apart by `tag`. */
export function unfoldCases(l: Literal, s: Subst, derived: ReadonlyMap<string, readonly NormalRule[]>, tag: () => string): UnfoldCase[] {
  if (l.kind !== 'pos') return [];
  return (derived.get(relOf(l.atom)) ?? []).flatMap((rule) => {
    const r = renameRule(rule, tag());
    const t: Subst = new Map(s);
    return r.head.args.every((a, k) => unify(a, l.atom.args[k]!, t)) ? [{ body: r.body, s: t }] : [];
  });
}
