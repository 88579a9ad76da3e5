/**
 * Derived relations functional within one transition (docs/mutex.md, 2i): "at most one value of
 * a derived relation per (state, move)", proven on its rules with variables assuming the claims
 * of the current state. wargame's `(intendedLocation ?character ?x ?y)` (one square per character
 * and move: the soldier's step, a terrorist's two steps towards it) is not functional over all
 * states, so its bound (lifted-functional.ts) has no dependency, but it is in each state that
 * satisfies "one location per character"; the `next` rules of `location` and `health` need it.
 *
 * A claim (R, O): two true atoms of R in one (s, m) that agree outside the positions O agree at O.
 * It is proven like a hypothesis of 2a: every pair of R's rules (one with itself included),
 * renamed apart, their heads unified outside O, must close with the heads different at O. The
 * atoms of R's own component (recursive relations) in those bodies are renamed to a fresh
 * relation on which the component's claims are assumed: by strong induction on the larger
 * derivation height of the two atoms, the body atoms of both rules are derived lower.
 */
import type { Term } from '../gdl/ast.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import { type Assumed, type AssumedClaim, type StaticFacts, staticKey } from './lifted-core.js';
import { type Subst, renameRule, unify } from './lifted-terms.js';

/** Whether a conjunction closes (lifted.ts' pair check), with these claims assumed. */
export type BodyCloser = (body: readonly Literal[], s: Subst, goal: readonly [Term[], Term[]], assumed: Assumed) => boolean;

/** Relations never claimed: the state, the move, the next state, and what a player reads. */
const NOT_CLAIMED = new Set(['true', 'does', 'next', 'init', 'base', 'input', 'role', 'legal', 'goal', 'terminal']);

/** Largest arity claimed (outputs of one and two positions), and most rules of a component. */
const MAX_ARITY = 8;
const MAX_RULES = 16;

/** Suffix of the fresh relation standing for a component's atoms derived lower (a space: no game has it). */
const LOWER = ' lower';

/** A component's proven claims and the state claims their proofs took equalities from. */
interface Proven {
  readonly claims: ReadonlyMap<string, readonly AssumedClaim[]>;
  readonly used: readonly AssumedClaim[];
}

/** The derived relations' components, each relation's rules, and which component it is in. */
interface Components {
  readonly rules: ReadonlyMap<string, readonly NormalRule[]>;
  readonly of: ReadonlyMap<string, readonly string[]>;
}

const relKey = (rel: string, arity: number): string => `${rel}/${arity}`;

/** The derived relations (with rules, no static facts, not {@link NOT_CLAIMED}) and their components. */
function components(normal: NormalGame, facts: StaticFacts): Components {
  const rules = new Map<string, NormalRule[]>();
  for (const r of normal.rules) {
    const k = relKey(r.head.rel, r.head.args.length);
    if (!NOT_CLAIMED.has(r.head.rel) && !facts.has(k)) rules.set(k, [...(rules.get(k) ?? []), r]);
  }
  const names = [...rules.keys()];
  const index = new Map(names.map((k, i) => [k, i]));
  const succ = names.map((k) => [...new Set(rules.get(k)!.flatMap((r) => r.body.flatMap((l) => {
    const j = l.kind === 'distinct' ? undefined : index.get(relKey(l.atom.rel, l.atom.args.length));
    return j === undefined ? [] : [j];
  })))]);
  const of = new Map<string, string[]>();
  for (const comp of stronglyConnectedComponents(names.length, (v) => succ[v]!)) {
    const rels = comp.map((v) => names[v]!);
    for (const k of rels) of.set(k, rels);
  }
  return { rules, of };
}

/** The claims tried for a relation of `arity`: every output of one position, then of two. */
function candidates(arity: number): AssumedClaim[] {
  if (arity < 2 || arity > MAX_ARITY) return [];
  const all = [...Array(arity).keys()];
  const out: AssumedClaim[] = all.map((j) => ({ input: all.filter((i) => i !== j), output: [j] }));
  for (let a = 0; a < arity; a++) for (let b = a + 1; b < arity; b++) if (arity > 2) out.push({ input: all.filter((i) => i !== a && i !== b), output: [a, b] });
  return out;
}

/** The body with the positive atoms of the component's relations renamed to their lower stand-ins. */
function lowered(body: readonly Literal[], comp: ReadonlySet<string>): Literal[] {
  return body.map((l) => (l.kind === 'pos' && comp.has(relKey(l.atom.rel, l.atom.args.length)) ? { ...l, atom: { ...l.atom, rel: l.atom.rel + LOWER } } : l));
}

/** Whether every pair of the rules closes with the heads equal at the claim's inputs and different at its outputs. */
function claimHolds(rules: readonly NormalRule[], claim: AssumedClaim, comp: ReadonlySet<string>, assumed: Assumed, close: BodyCloser): boolean {
  for (let x = 0; x < rules.length; x++) {
    for (let y = x; y < rules.length; y++) {
      const a = renameRule(rules[x]!, 'f1');
      const b = renameRule(rules[y]!, 'f2');
      const s: Subst = new Map();
      if (!claim.input.every((i) => unify(a.head.args[i]!, b.head.args[i]!, s))) continue;
      const out = claim.output ?? [];
      const goal: [Term[], Term[]] = [out.map((j) => a.head.args[j]!), out.map((j) => b.head.args[j]!)];
      if (!close([...lowered(a.body, comp), ...lowered(b.body, comp)], s, goal, assumed)) return false;
    }
  }
  return true;
}

/**
 * The greatest set of the component's candidate claims whose pairs all close assuming the set (on
 * the lower stand-ins) and `outer` (the state's claims, the relations below). A pair output leaves
 * with either of its single outputs (a smaller input cannot determine what a larger one does not).
 */
function proveComponent(rels: readonly string[], rules: Components['rules'], outer: Assumed, close: BodyCloser, stop: () => boolean): Map<string, AssumedClaim[]> {
  const comp = new Set(rels);
  const total = rels.reduce((n, k) => n + rules.get(k)!.length, 0);
  const live = new Map(rels.map((k) => [k, total > MAX_RULES ? [] : candidates(Number(k.slice(k.lastIndexOf('/') + 1)))]));
  for (let changed = true; changed && !stop(); ) {
    changed = false;
    const lower: Assumed = {
      get: (k) => (k.includes(LOWER + '/') ? live.get(k.slice(7).replace(LOWER + '/', '/')) : outer.get(k)),
      has: (k) => (k.includes(LOWER + '/') ? (live.get(k.slice(7).replace(LOWER + '/', '/'))?.length ?? 0) > 0 : outer.has(k)),
      use: (c) => outer.use?.(c),
    };
    for (const k of rels) {
      const kept = live.get(k)!.filter((c) => claimHolds(rules.get(k)!, c, comp, lower, close));
      const singles = new Set(kept.filter((c) => c.output!.length === 1).map((c) => c.output![0]));
      const left = kept.filter((c) => c.output!.every((j) => singles.has(j)));
      if (left.length < live.get(k)!.length) (changed = true), live.set(k, left);
    }
  }
  if (stop()) return new Map();
  return new Map([...live].filter(([, cs]) => cs.length > 0).map(([k, cs]) => [staticKey(k.slice(0, k.lastIndexOf('/')), Number(k.slice(k.lastIndexOf('/') + 1))), cs]));
}

/**
 * The claims of the state read by a check, as one text: two checks with the same text assume the
 * same of the state, so the derived relations' claims proven for one hold for the other.
 */
function fingerprint(assumed: Assumed, relations: readonly string[]): string {
  return relations.map((r) => (assumed.get(r) ?? []).map((c) => `${c.hypothesis ?? ''}:${c.input.join(',')}:${c.keys?.size ?? ''}`).join(';')).join('|');
}

/**
 * Per check, `assumed` with the derived relations' per-transition claims added (on demand: a
 * component is proven when a case first asks for one of its relations, once per set of state
 * claims). `relations` are the fluent relations whose claims the state may have; `close` is the
 * pair check of lifted.ts.
 */
export function transitionFunctions(normal: NormalGame, facts: StaticFacts, relations: readonly string[], close: BodyCloser, stop: () => boolean): (assumed: Assumed) => Assumed {
  const comps = components(normal, facts);
  const memo = new Map<string, Map<string, Proven>>();
  return (assumed) => {
    const print = fingerprint(assumed, relations);
    const known = memo.get(print) ?? new Map<string, Proven>();
    memo.set(print, known);
    const busy = new Set<string>();
    // The view of the claims a component's proof assumes: the state's (their use collected) and, on demand, the relations below.
    const view = (used: Set<AssumedClaim>): Assumed => ({
      get: (k) => merged(k, used),
      has: (k) => assumed.has(k) || comps.rules.has(k.slice(7)),
      use: (c) => used.add(c),
    });
    const merged = (k: string, used: Set<AssumedClaim>): readonly AssumedClaim[] | undefined => {
      const rel = k.slice(7);
      const inner = assumed.get(k);
      const rels = comps.of.get(rel);
      if (!k.startsWith('static ') || rels === undefined || busy.has(rel)) return inner;
      let p = known.get(rel);
      if (p === undefined) {
        const mine = new Set<AssumedClaim>();
        rels.forEach((r) => busy.add(r));
        const claims = proveComponent(rels, comps.rules, view(mine), close, stop);
        rels.forEach((r) => busy.delete(r));
        p = { claims, used: [...mine] };
        rels.forEach((r) => known.set(r, p!));
      }
      const own = p.claims.get(k) ?? [];
      if (own.length > 0) p.used.forEach((c) => used.add(c));
      return own.length === 0 ? inner : [...(inner ?? []), ...own];
    };
    const top = new Set<AssumedClaim>();
    return {
      get: (k) => {
        const out = merged(k, top);
        top.forEach((c) => assumed.use?.(c));
        top.clear();
        return out;
      },
      has: (k) => assumed.has(k) || (k.startsWith('static ') && comps.rules.has(k.slice(7))),
      use: (c) => assumed.use?.(c),
    };
  };
}
