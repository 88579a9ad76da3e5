/**
 * The syntactic core of the lifted proofs (docs/mutex.md, 2a): "closing" a conjunction of
 * literals by forcing the equalities that must hold (one move per role, the assumed "at most one"
 * claims, functional static relations) until a contradiction appears, the static facts held
 * jointly against it. The terms and unification it works on are lifted-terms.ts'.
 */
import type { Atom, Term } from '../gdl/ast.js';
import type { Literal } from '../normalize/types.js';
import { type Subst, atomKey, ground, key, sameKey, unify, walk } from './lifted-terms.js';
import { type Bound, boundFits, boundPairsFit, matchesGround, varsOf } from './lifted-rows.js';
import { relKey } from './lifted-relax.js';
import { forcedByRows } from './lifted-domains.js';
import { negativesCover } from './lifted-cover.js';

/**
 * A claim assumed of the current state: "at most one per key" over the input positions, for
 * every key or only the keys (canonical texts of the ground input arguments) in `keys`.
 */
export interface AssumedClaim {
  readonly input: readonly number[];
  readonly keys?: ReadonlySet<string>;
  /** The positions two atoms with equal inputs agree on (default: every other position). */
  readonly output?: readonly number[];
  /** Which claim of the caller's this is (lifted.ts: the hypothesis), for {@link Assumed.use}. */
  readonly hypothesis?: number;
}

/** Key of {@link Assumed} under which a static (or derived) relation's functional dependencies are kept. */
export const staticKey = (rel: string, arity: number): string => `static ${rel}/${arity}`;

/**
 * The claims assumed of the current state, per `name/arity` (a `Map` is one). Only looked up,
 * never listed, so that lifted.ts can record which relations' claims a proof read.
 */
export interface Assumed {
  get(relation: string): readonly AssumedClaim[] | undefined;
  has(relation: string): boolean;
  /**
   * Told of each claim whose equalities a check took: a check that took none of a claim's gives
   * the same answer without it (the claims it passed over did not match, those after it were not
   * looked at), which lifted.ts uses to check again only what a claim that left was used for.
   * `key`: for a claim on some keys, the one taken (lifted-induction.ts: only what a key that
   * left was used for is checked again); undefined: any of them.
   */
  use?(claim: AssumedClaim, key?: string): void;
  /** Told, before a relation's claims are read, which positions two of its atoms agree on (lifted-derived.ts proves claims on demand). */
  want?(relation: string, same: readonly boolean[]): void;
}

/**
 * Whether a required fact, a forbidden one or a `distinct` already contradict each other, or
 * the goal's two output lists became identical (no goal: lifted-alo.ts's branches).
 */
function contradicts(body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]] | undefined): boolean {
  if (goal !== undefined && goal[0].map((t) => key(t, s)).join(' ') === goal[1].map((t) => key(t, s)).join(' ')) return true;
  // The texts of the positive atoms only of relations some negative atom has (chess's cases: a
  // few `threatened`, `in_check` and castling atoms against dozens of positive ones).
  let negated: Set<string> | undefined;
  for (const l of body) {
    if (l.kind === 'distinct' && sameKey(l.left, l.right, s)) return true;
    if (l.kind === 'neg') (negated ??= new Set()).add(l.atom.rel);
  }
  if (negated === undefined) return false;
  const pos = new Set<string>();
  for (const l of body) if (l.kind === 'pos' && negated.has(l.atom.rel)) pos.add(atomKey(l.atom, s));
  return pos.size > 0 && body.some((l) => l.kind === 'neg' && pos.has(atomKey(l.atom, s)));
}

/**
 * One forcing step: two facts that can only hold together when some of their arguments are
 * equal (two `does` of one role, two `true` atoms of an assumed claim with identical inputs)
 * get those arguments unified. 'changed', 'same' (nothing to force) or 'conflict'.
 */
function force(body: readonly Literal[], s: Subst, assumed: Assumed): 'changed' | 'same' | 'conflict' {
  const facts = body.filter((l) => l.kind === 'pos' && (l.atom.rel === 'true' || l.atom.rel === 'does' || assumed.has(staticKey(l.atom.rel, l.atom.args.length))));
  for (let i = 0; i < facts.length; i++) {
    for (let j = i + 1; j < facts.length; j++) {
      const a = (facts[i] as { atom: Atom }).atom;
      const b = (facts[j] as { atom: Atom }).atom;
      if (a.rel !== b.rel || a.args.length !== b.args.length) continue;
      const pairs = a.rel === 'does' ? doesPairs(a, b, s) : a.rel === 'true' ? truePairs(a, b, s, assumed) : functionalPairs(a, b, s, assumed);
      for (const [x, y] of pairs) {
        if (sameKey(x, y, s)) continue;
        return unify(x, y, s) ? 'changed' : 'conflict';
      }
    }
  }
  return 'same';
}

/** One move per role: two `does` of an identical role name the same action. */
function doesPairs(a: Atom, b: Atom, s: Subst): [Term, Term][] {
  if (a.args.length !== 2 || !sameKey(a.args[0]!, b.args[0]!, s)) return [];
  return [[a.args[1]!, b.args[1]!]];
}

/**
 * A functional relation (static, or derived with a bound: lifted-functional.ts): two atoms with
 * identical inputs have equal outputs, for every dependency whose inputs are identical.
 */
function functionalPairs(a: Atom, b: Atom, s: Subst, assumed: Assumed): [Term, Term][] {
  // Nothing to force unless the atoms agree somewhere and differ elsewhere (and only then is a derived relation's bound asked for).
  const same = a.args.map((x, i) => sameKey(x, b.args[i]!, s));
  if (!same.includes(true) || !same.includes(false)) return [];
  assumed.want?.(staticKey(a.rel, a.args.length), same);
  return (assumed.get(staticKey(a.rel, a.args.length)) ?? []).flatMap(({ input, output }): [Term, Term][] =>
    (input.every((i) => sameKey(a.args[i]!, b.args[i]!, s)) ? (output ?? []).map((j) => [a.args[j]!, b.args[j]!]) : []));
}

/** An assumed claim: two `true` fluents of its relation with identical inputs have equal outputs. */
function truePairs(a: Atom, b: Atom, s: Subst, assumed: Assumed): [Term, Term][] {
  const x = walk(a.args[0]!, s);
  const y = walk(b.args[0]!, s);
  if (x.kind !== 'fn' || y.kind !== 'fn' || x.name !== y.name || x.args.length !== y.args.length) return [];
  for (const claim of assumed.get(relKey(x.name, x.args.length)) ?? []) {
    const { input, keys } = claim;
    if (!input.every((i) => sameKey(x.args[i]!, y.args[i]!, s))) continue;
    // A claim on some keys only: the key must be ground and one of them.
    const at = keys === undefined ? undefined : input.map((i) => key(x.args[i]!, s)).join(' ');
    if (at !== undefined && !(input.every((i) => ground(x.args[i]!, s)) && keys!.has(at))) continue;
    assumed.use?.(claim, at);
    const out: [Term, Term][] = [];
    x.args.forEach((xa, i) => (input.includes(i) ? undefined : out.push([xa, y.args[i]!])));
    return out;
  }
  return [];
}

/** Rows of ground arguments of each static relation (defined by ground facts only), per `name/arity`. */
export type StaticFacts = ReadonlyMap<string, readonly (readonly Term[])[]>;

/**
 * The bounds of the derived relations that have one, per `name/arity` (a map, or lifted-bounds.ts'
 * computation on demand: a relation's bound is computed when first asked for).
 */
export interface Bounds {
  get(rel: string): Bound | undefined;
  /** The work (rows scanned, row pairs tried) lifted-domains.ts may still spend in this proof; none: no forcing by rows. */
  readonly forcing?: { left: number };
  /** Whether the relation's bound, if it has one, reads no state nor move, told without computing it. */
  stateFree?(rel: string): boolean;
}

/**
 * Forces equalities until a contradiction (true) or nothing more to force (false); extends `s`.
 * With `facts`, a body whose static atoms (and positive atoms of relations with a bound in
 * `over`) no choice of rows fits closes too, and so does one `refute` says is impossible; with
 * `fluents` (the game's fluent rows), one with a `true` atom its negative `true` atoms forbid on
 * every row (lifted-cover.ts).
 */
export function closes(
  body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]] | undefined, assumed: Assumed, facts?: StaticFacts, over: Bounds = NO_BOUNDS, refute?: Refute,
  fluents?: StaticFacts,
): boolean {
  for (;;) {
    if (contradicts(body, s, goal)) return true;
    const step = force(body, s, assumed);
    if (step === 'conflict') return true;
    if (step !== 'same') continue;
    // Values the bounds' rows leave one choice are bound, and the forcing goes on with them.
    const forced = facts === undefined ? 'same' : forcedByRows(body, s, over, goal);
    if (forced === 'conflict') return true;
    if (forced !== 'same') continue;
    if (fluents !== undefined && negativesCover(body, s, fluents)) return true;
    return (facts !== undefined && !staticsSatisfiable(body, s, goal, facts, over)) || refute?.(body, s) === true;
  }
}

/** One more way a settled case closes (lifted-entail.ts: a forbidden derived atom whose rule body it holds). */
export type Refute = (body: readonly Literal[], s: Subst) => boolean;

const NO_BOUNDS: Bounds = new Map();

/** Steps of one search over static facts before it answers "satisfiable" (sound either way). */
const MAX_FACT_STEPS = 2000;

/**
 * Whether the static atoms of the body, with the `distinct`s and the negative static atoms that
 * become ground, can hold together under some extension of `s`, with the goal's two output lists
 * different (a static relation means the same in every state). Each group of atoms and checks
 * that share variables is searched alone (no choice in one group is retried for another's sake).
 * False only when no choice of facts fits; a search stopped by its step limit counts as
 * satisfiable.
 */
function staticsSatisfiable(body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]] | undefined, facts: StaticFacts, over: Bounds): boolean {
  const isStatic = (l: Literal): boolean => l.kind !== 'distinct' && facts.has(relKey(l.atom.rel, l.atom.args.length));
  // The atoms of relations with a bound: each needs a fitting row of its own, and each two sharing
  // a variable a pair of fitting rows (not searched jointly with the rest: cost).
  const bounded: [Atom, Bound][] = [];
  for (const l of body) {
    const b = l.kind === 'pos' ? over.get(relKey(l.atom.rel, l.atom.args.length)) : undefined;
    if (b === undefined || l.kind !== 'pos') continue;
    if (!boundFits(b, l.atom.args, s)) return false;
    bounded.push([l.atom, b]);
  }
  if (!boundPairsFit(bounded, s)) return false;
  const atoms = body.flatMap((l) => (l.kind === 'pos' && isStatic(l) ? [l.atom] : []));
  if (atoms.length === 0) return true;
  const checks: Check[] = body.flatMap((l): Check[] => {
    if (l.kind === 'distinct') return [{ terms: [l.left, l.right], ok: (t) => key(l.left, t) !== key(l.right, t) }];
    if (l.kind !== 'neg' || !isStatic(l)) return [];
    const rows = facts.get(relKey(l.atom.rel, l.atom.args.length))!;
    return [{ terms: l.atom.args, ok: (t) => !l.atom.args.every((x) => ground(x, t)) || !rows.some((row) => l.atom.args.every((x, j) => key(x, t) === key(row[j]!, t))) }];
  });
  if (goal !== undefined) checks.push({ terms: [...goal[0], ...goal[1]], ok: (t) => goal[0].some((x, i) => key(x, t) !== key(goal[1][i]!, t)) });
  return components(atoms, checks, s).every(({ atoms: part, checks: tests }) => factSearch(part, s, facts, (t) => tests.every((k) => k.ok(t))));
}

/** A condition on the values of some terms, checked once the facts are chosen. */
interface Check {
  readonly terms: readonly Term[];
  readonly ok: (t: Subst) => boolean;
}

/**
 * The atoms and checks grouped by shared variables (under `s`): no variable is in two groups,
 * so the whole holds when each group does.
 */
function components(atoms: readonly Atom[], checks: readonly Check[], s: Subst): { atoms: Atom[]; checks: Check[] }[] {
  const items = [...atoms.map((a) => a.args), ...checks.map((k) => k.terms)];
  const group = items.map((_, i) => i);
  const find = (i: number): number => {
    let r = i;
    while (group[r] !== r) r = group[r]!;
    return r;
  };
  const owner = new Map<string, number>();
  items.forEach((terms, i) => {
    for (const v of terms.flatMap((t) => varsOf(t, s))) {
      const o = owner.get(v);
      if (o === undefined) owner.set(v, i);
      else group[find(i)] = find(o);
    }
  });
  const out = new Map<number, { atoms: Atom[]; checks: Check[] }>();
  items.forEach((_, i) => {
    const part = out.get(find(i)) ?? { atoms: [], checks: [] };
    if (i < atoms.length) part.atoms.push(atoms[i]!);
    else part.checks.push(checks[i - atoms.length]!);
    out.set(find(i), part);
  });
  return [...out.values()];
}

/**
 * Backtracking over the facts, the atom with the fewest fitting facts first; true when some
 * choice for every atom passes `leafOk`, or when the step limit is reached.
 */
function factSearch(atoms: readonly Atom[], s: Subst, facts: StaticFacts, leafOk: (t: Subst) => boolean): boolean {
  const stack: { readonly left: readonly Atom[]; readonly t: Subst }[] = [{ left: atoms, t: s }];
  for (let steps = 0; stack.length > 0; steps++) {
    if (steps > MAX_FACT_STEPS) return true;
    const { left, t } = stack.pop()!;
    if (left.length === 0) {
      if (leafOk(t)) return true;
      continue;
    }
    // The atom with the fewest fitting facts; the bindings are copied only for the one chosen.
    let best: { readonly i: number; readonly fits: (readonly Term[])[] } | undefined;
    for (let i = 0; i < left.length && best?.fits.length !== 0; i++) {
      const a = left[i]!;
      const fits = facts.get(relKey(a.rel, a.args.length))!.filter((row) => {
        const local = new Map<string, Term>();
        return a.args.every((x, j) => matchesGround(x, row[j]!, t, local));
      });
      if (best === undefined || fits.length < best.fits.length) best = { i, fits };
    }
    const a = left[best!.i]!;
    const rest = left.filter((_, i) => i !== best!.i);
    for (const row of best!.fits) {
      const u = new Map(t);
      if (a.args.every((x, j) => unify(x, row[j]!, u))) stack.push({ left: rest, t: u });
    }
  }
  return false;
}

