/**
 * The relaxed rules of a derived relation (docs/mutex.md, section 2a, "Bounds of derived
 * relations"): each rule keeps its positive atoms of relations with rows (static facts, the
 * ground game's fluents for its `true` atoms, the bounds computed before) and the `distinct`s
 * those bind; negative literals and the atoms of unbounded relations are dropped, which only lets
 * more instances fire. A `does` atom is read against the bound of `legal` (a move made is legal),
 * or dropped when `legal` has none. A kept head position no kept atom binds is left out of the
 * relation's rows (any value there).
 */
import type { Term } from '../gdl/ast.js';
import type { Literal, NormalRule } from '../normalize/types.js';
import { type JoinAtom, type Relaxed, type Table, varsOf } from './lifted-join.js';

/** Relations never bounded: the state, the move, and what the rules define for the next state. */
export const KEYWORDS: ReadonlySet<string> = new Set(['true', 'does', 'next', 'init', 'base', 'input']);

/** The key of a relation, `name/arity`. */
export const relKey = (rel: string, arity: number): string => `${rel}/${arity}`;

/** The key of an atom's relation, `name/arity`. */
export const relOf = (a: { readonly rel: string; readonly args: readonly unknown[] }): string => relKey(a.rel, a.args.length);

/** The key of a fluent term's relation, `name/arity` (a constant's arity 0). */
export const termRel = (t: Exclude<Term, { readonly kind: 'var' }>): string => relKey(t.name, t.kind === 'fn' ? t.args.length : 0);

/** The arity of a relation's key. */
export const arityOf = (k: string): number => Number(k.slice(k.lastIndexOf('/') + 1));

/** The rows known so far and the positions of each relation they keep. */
export interface Known {
  readonly tables: ReadonlyMap<string, Table>;
  readonly keeps: ReadonlyMap<string, readonly number[]>;
  /** The static relations (ground facts only): their negative atoms are kept when bound (absentAtoms). */
  readonly statics?: ReadonlySet<string>;
}

/** One relaxed rule of a component, with the rule it came from and its head relation. */
export interface ComponentRule {
  readonly rel: string;
  readonly source: NormalRule;
  readonly rule: Relaxed;
}

/** The kept positions of each relation with rows (all positions of static facts and fluents). */
type Kept = (rel: string) => readonly number[] | undefined;

/** The body atom as a join atom over a relation with rows, or undefined (dropped by the relaxation). */
function joinAtom(l: Literal, kept: Kept): JoinAtom | undefined {
  if (l.kind !== 'pos') return undefined;
  let rel: string;
  let args: readonly Term[];
  if (l.atom.rel === 'true' && l.atom.args.length === 1) {
    const f = l.atom.args[0]!;
    if (f.kind === 'var') return undefined;
    rel = `true ${relKey(f.name, f.kind === 'fn' ? f.args.length : 0)}`;
    args = f.kind === 'fn' ? f.args : [];
  } else if (l.atom.rel === 'does' && l.atom.args.length === 2) {
    // A move made is legal: read against the bound of `legal` when it has one (else dropped).
    rel = 'legal/2';
    args = l.atom.args;
  } else {
    if (KEYWORDS.has(l.atom.rel)) return undefined;
    rel = relKey(l.atom.rel, l.atom.args.length);
    args = l.atom.args;
  }
  const keep = kept(rel);
  return keep === undefined ? undefined : { args: keep.map((i) => args[i]!), rel };
}

/**
 * The rule relaxed over the relations with rows, its head cut to the positions `keep`; with the
 * kept head positions whose variables no kept atom binds (then it is no relaxed rule yet).
 */
function relax(r: NormalRule, keep: readonly number[], kept: Kept, filled: (rel: string) => boolean, statics: ReadonlySet<string>): { readonly rule: Relaxed; readonly unbound: readonly number[] } {
  const all = r.body.flatMap((l) => joinAtom(l, kept) ?? []);
  const bound = new Set<string>();
  all.forEach((a) => a.args.forEach((t) => varsOf(t, bound)));
  const unbound = keep.filter((i) => ![...varsOf(r.head.args[i]!, new Set())].every((v) => bound.has(v)));
  const distinct = r.body.flatMap((l) => (l.kind === 'distinct' && [...varsOf(l.left, new Set()), ...varsOf(l.right, new Set())].every((v) => bound.has(v)) ? [[l.left, l.right] as const] : []));
  const absent = absentAtoms(r, bound, statics);
  // An atom sharing no variable with the kept head, the other atoms or a `distinct` only says its
  // rows are not empty: left out of the join when they are not (it would repeat every row).
  const used = (skip: number): Set<string> => {
    const out = new Set<string>();
    keep.forEach((i) => varsOf(r.head.args[i]!, out));
    distinct.forEach(([a, b]) => varsOf(b, varsOf(a, out)));
    all.forEach((a, j) => (j === skip ? undefined : a.args.forEach((t) => varsOf(t, out))));
    return out;
  };
  const atoms = all.filter((a, j) => {
    if (!filled(a.rel)) return true;
    const others = used(j);
    return a.args.some((t) => [...varsOf(t, new Set())].some((v) => others.has(v)));
  });
  return { rule: { head: keep.map((i) => r.head.args[i]!), atoms, distinct, ...(absent.length > 0 ? { absent } : {}) }, unbound };
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The negative atoms of static relations whose variables the kept atoms bind. A static relation
 * means the same in every state and its true atoms are its facts, so an instance of the rule whose
 * body holds has none of these among the facts: checking them drops no true atom from the bound
 * (colonelBlotto's `(gt ?a ?b) <= (index ?x) (not (succ ?x 1)) (sum ?b ?x ?a)`: no `(gt a a)`).
 */
function absentAtoms(r: NormalRule, bound: ReadonlySet<string>, statics: ReadonlySet<string>): JoinAtom[] {
  return r.body.flatMap((l) => {
    if (l.kind !== 'neg' || KEYWORDS.has(l.atom.rel)) return [];
    const rel = relKey(l.atom.rel, l.atom.args.length);
    const vars = l.atom.args.reduce((acc, t) => varsOf(t, acc), new Set<string>());
    return statics.has(rel) && [...vars].every((v) => bound.has(v)) ? [{ rel, args: l.atom.args }] : [];
  });
}

/**
 * The kept head positions of a relaxed rule grouped by the parts of its body that share no
 * variable (none when there is one part): the factors of a cross product, whose rows multiply
 * (amazons' ignored square `cell(?xIg, ?yIg)` beside the move along a line).
 */
export function factorGroups(r: NormalRule, rule: Relaxed, keep: readonly number[]): number[][] {
  const parent = new Map<string, string>();
  const find = (v: string): string => {
    let u = v;
    while ((parent.get(u) ?? u) !== u) u = parent.get(u)!;
    return u;
  };
  const join = (vs: readonly string[]): void => vs.slice(1).forEach((v) => parent.set(find(v), find(vs[0]!)));
  rule.atoms.forEach((a) => join([...a.args.reduce((acc, t) => varsOf(t, acc), new Set<string>())]));
  rule.distinct.forEach(([a, b]) => join([...varsOf(b, varsOf(a, new Set()))]));
  const groups = new Map<string, number[]>();
  for (const i of keep) {
    const vs = [...varsOf(r.head.args[i]!, new Set())];
    if (vs.length === 0) continue;
    join(vs);
    groups.set(find(vs[0]!), [...(groups.get(find(vs[0]!)) ?? []), i]);
  }
  const parts = [...groups.entries()].map(([root, ps]) => ({ root: find(root), ps }));
  const merged = new Map<string, number[]>();
  parts.forEach(({ root, ps }) => merged.set(root, [...(merged.get(root) ?? []), ...ps]));
  return merged.size > 1 ? [...merged.values()] : [];
}

/**
 * The relaxed rules of a component, each relation's positions in `dropped` left out; a kept head
 * position some rule leaves unbound is dropped too, until every rule binds its kept head.
 */
export function relaxedRules(rels: readonly string[], byHead: ReadonlyMap<string, readonly NormalRule[]>, known: Known, dropped: ReadonlyMap<string, Set<number>>): ComponentRule[] {
  const keepOf = (rel: string): number[] => [...Array(arityOf(rel)).keys()].filter((i) => !dropped.get(rel)!.has(i));
  const kept: Kept = (rel) => (dropped.has(rel) ? keepOf(rel) : known.keeps.get(rel));
  const filled = (rel: string): boolean => !dropped.has(rel) && (known.tables.get(rel)?.rows.length ?? 0) > 0;
  for (;;) {
    const out: ComponentRule[] = [];
    let changed = false;
    for (const rel of rels) {
      for (const source of byHead.get(rel)!) {
        const { rule, unbound } = relax(source, keepOf(rel), kept, filled, known.statics ?? NONE);
        unbound.forEach((i) => dropped.get(rel)!.add(i));
        changed ||= unbound.length > 0;
        out.push({ rel, source, rule });
      }
    }
    if (!changed) return out;
  }
}

