/**
 * Necessary literals of a formula: atoms that are true (or false) in every assignment that
 * satisfies it. Two legal conditions with contradicting necessary literals, or with two
 * different members of one proven mutex group necessarily true, cannot hold together, so the
 * multi-actions combining those moves are never applicable (slide 47).
 */
import { type Formula, postOrder } from '../../axioms/formula.js';

/** A literal: `atom + 1` when the atom must be true, `-(atom + 1)` when it must be false. */
export type Literal = number;

/** The literal of `atom` with `positive` polarity. */
export const literal = (atom: number, positive: boolean): Literal => (positive ? atom + 1 : -(atom + 1));

/** The atom of a literal. */
export const literalAtom = (l: Literal): number => Math.abs(l) - 1;

/** Unsatisfiable: every literal is necessary. */
const BOTTOM = null;
type Lits = readonly Literal[] | typeof BOTTOM;

function union(sets: readonly Lits[]): Lits {
  const out = new Set<Literal>();
  for (const s of sets) {
    if (s === BOTTOM) return BOTTOM;
    for (const l of s) out.add(l);
  }
  return [...out].sort((a, b) => a - b);
}

function intersection(sets: readonly Lits[]): Lits {
  let out: Set<Literal> | undefined;
  for (const s of sets) {
    if (s === BOTTOM) continue;
    out = out === undefined ? new Set(s) : new Set(s.filter((l) => out!.has(l)));
  }
  return out === undefined ? BOTTOM : [...out].sort((a, b) => a - b);
}

/**
 * Per root, its necessary literals (sorted), or null when the root is unsatisfiable as far as
 * this analysis sees. Rules (nec when f holds, neg when f fails):
 *   nec(a) = {a}, neg(a) = {not a};  nec(not g) = neg(g), neg(not g) = nec(g)
 *   nec(and gs) = union nec(g),      neg(and gs) = intersection neg(g)
 *   nec(or gs)  = intersection nec(g), neg(or gs) = union neg(g)
 * Shared subformulas are computed once; the walk is iterative.
 */
export function necessaryLiterals(roots: readonly Formula[]): (readonly Literal[] | null)[] {
  const nec = new Map<number, Lits>();
  const neg = new Map<number, Lits>();
  postOrder(roots, (f) => {
    if (f.kind === 'true') {
      nec.set(f.id, []);
      neg.set(f.id, BOTTOM);
    } else if (f.kind === 'false') {
      nec.set(f.id, BOTTOM);
      neg.set(f.id, []);
    } else if (f.kind === 'atom') {
      nec.set(f.id, [literal(f.atom, true)]);
      neg.set(f.id, [literal(f.atom, false)]);
    } else if (f.kind === 'not') {
      nec.set(f.id, neg.get(f.arg.id)!);
      neg.set(f.id, nec.get(f.arg.id)!);
    } else {
      const n = f.args.map((g) => nec.get(g.id)!);
      const m = f.args.map((g) => neg.get(g.id)!);
      nec.set(f.id, f.kind === 'and' ? union(n) : intersection(n));
      neg.set(f.id, f.kind === 'and' ? intersection(m) : union(m));
    }
  });
  return roots.map((r) => nec.get(r.id)!);
}
