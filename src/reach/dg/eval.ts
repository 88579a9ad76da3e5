/**
 * Relation instance sets and the evaluation of one rule against them. A body relation is seen
 * either as a set of ground tuples or, inside a recursive component that reduceSupersetsDG has
 * not reduced yet, as the product of its argument domains (never enumerated).
 */
import type { Atom, Term } from '../../gdl/ast.js';
import type { NormalRule } from '../../normalize/types.js';
import { type Constraint, type DistinctLit, type Guard, instantiateTerm, joinConstraints, matchConstraint, patternVars } from './join.js';
import type { TermTable } from '../../datalog/terms.js';

/** Key of a relation: name and arity, since GDL allows one name with several arities. */
export function relKey(name: string, arity: number): string {
  return `${name}/${arity}`;
}

/** Key of an atom's relation. */
export function atomRel(atom: Atom): string {
  return relKey(atom.rel, atom.args.length);
}

/** A set of ground tuples (argument ids) of one relation, without duplicates. */
export interface TupleSet {
  readonly tuples: (readonly number[])[];
  readonly keys: Set<string>;
}

/** An empty tuple set. */
export function emptySet(): TupleSet {
  return { tuples: [], keys: new Set() };
}

/** Adds a tuple; returns true when it was new. */
export function addTuple(set: TupleSet, tuple: readonly number[]): boolean {
  const key = tuple.join(',');
  if (set.keys.has(key)) return false;
  set.keys.add(key);
  set.tuples.push(tuple);
  return true;
}

/** How a body relation is seen during evaluation. */
export type RelationView =
  | { readonly kind: 'set'; readonly set: TupleSet }
  | { readonly kind: 'product'; readonly domains: readonly (readonly number[])[] };

/** The view of every relation; undefined means the relation has no instances. */
export type Views = (rel: string) => RelationView | undefined;

/** The positive atoms and distinct literals of a rule body (negative literals are relaxed away). */
export function bodyParts(rule: NormalRule): { atoms: Atom[]; distincts: DistinctLit[] } {
  const atoms: Atom[] = [];
  const distincts: DistinctLit[] = [];
  for (const l of rule.body) {
    if (l.kind === 'pos') atoms.push(l.atom);
    else if (l.kind === 'distinct') distincts.push({ left: l.left, right: l.right });
  }
  return { atoms, distincts };
}

/** The binding tables of one body atom under its view (one per argument for a product). */
function atomConstraints(table: TermTable, atom: Atom, view: RelationView, keep: ReadonlySet<string>, guard: Guard): Constraint[] {
  if (view.kind === 'set') return [matchConstraint(table, atom.args, view.set.tuples, keep, guard)];
  // A product constrains each argument independently: one unary table per argument.
  return atom.args.map((arg, i) => matchConstraint(table, [arg], view.domains[i]!.map((id) => [id]), keep, guard));
}

/**
 * Evaluates a rule and calls `onHead` with each head tuple it derives.
 * `exact`: every variable is joined (the rule's true consequences over the views);
 * otherwise only head variables are kept, so each body atom is checked on its own for a
 * compatible instance (the test of Algorithm 9.4, strengthened from single arguments to
 * whole atoms). With `delta`, the positive atom number `delta.index` sees only `delta.set`
 * (for semi-naive evaluation). Returns the number of join solutions.
 */
export function evalRule(
  table: TermTable,
  rule: NormalRule,
  views: Views,
  exact: boolean,
  guard: Guard,
  onHead: (tuple: readonly number[]) => void,
  delta?: { readonly index: number; readonly set: TupleSet },
): number {
  const { atoms, distincts } = bodyParts(rule);
  const headVars = new Set(patternVars(rule.head.args));
  const keep = exact ? new Set(patternVars(atoms.flatMap((a) => a.args))) : headVars;
  const constraints: Constraint[] = [];
  for (const [i, a] of atoms.entries()) {
    const view: RelationView | undefined = delta?.index === i ? { kind: 'set', set: delta.set } : views(atomRel(a));
    if (view === undefined) return 0;
    for (const c of atomConstraints(table, a, view, keep, guard)) {
      if (c.rows.length === 0) return 0;
      constraints.push(c);
    }
  }
  // A head variable no positive literal binds (an unsafe rule) has no values at all.
  const bound = new Set(constraints.flatMap((c) => c.vars));
  if ([...headVars].some((v) => !bound.has(v))) return 0;
  let solutions = 0;
  joinConstraints(table, constraints, distincts, guard, (b) => {
    solutions++;
    onHead(rule.head.args.map((t: Term) => instantiateTerm(table, t, b)!));
  });
  return solutions;
}
