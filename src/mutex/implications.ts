/**
 * Implications between two fluent relations (docs/mutex.md, section 2d): "whenever a fluent
 * P(x1..xn) holds, some fluent Q holds whose arguments at the mapped positions are those of
 * P": hex's `(connected ?k ?m ?n)` implies `(cell ?m ?n ?someone)` (a square joined to a chain
 * has a stone). Such a claim is outside the input/output hypotheses of one relation, and some
 * "at most one" claims need it: a stone is placed only on an empty square, so it cannot join a
 * square that already has a `connected` fluent. Candidates are read off the sampled states
 * here; lifted.ts proves them together with the "at most one" claims (one induction), by the
 * case analysis of lifted-alo.ts, and both proofs assume the proven ones of the current state
 * by adding the implied `true` atom (fresh variables at the unmapped positions) beside each
 * `true` atom of P.
 */
import { NO_POS, type Term } from '../gdl/ast.js';
import type { Literal, NormalGame } from '../normalize/types.js';
import { arityOf, relOf, termRel } from './lifted-relax.js';
import { type Subst, walk } from './lifted-terms.js';
import type { MutexView } from './view.js';

/** One implication: a P fluent true means a Q fluent true with Q's argument i equal to P's `map[i]` (free where undefined). */
export interface Implication {
  /** `name/arity` of P and Q. */
  readonly from: string;
  readonly to: string;
  /** Per position of Q, the position of P it equals, or undefined (any value). */
  readonly map: readonly (number | undefined)[];
}

/** Widest Q whose position maps are enumerated ((arity of P + 1)^(arity of Q) maps). */
const MAX_TO_ARITY = 4;
/** Most implications kept (each costs one case analysis per `next` rule of P, and atoms in every body). */
const MAX_IMPLICATIONS = 32;

const relName = (rel: string): string => rel.slice(0, rel.lastIndexOf('/'));

/** The relations Q some rule reads as `(not (true (Q ...)))`: what an implied atom can contradict. */
function negatedFluents(normal: NormalGame): Set<string> {
  const out = new Set<string>();
  for (const r of normal.rules) {
    for (const l of r.body) {
      if (l.kind !== 'neg' || l.atom.rel !== 'true' || l.atom.args.length !== 1) continue;
      const f = l.atom.args[0]!;
      if (f.kind === 'fn') out.add(termRel(f));
    }
  }
  return out;
}

/**
 * The relations Q that a rule of a derived relation reads as `(true (Q ...))`, when some rule reads
 * that relation negated (atariGo's `(not (occupied ?x ?y))` of `empty`, with `(<= (occupied ?x ?y)
 * (true (cell ?x ?y ?color)))`): an implied Q atom makes that rule's body hold, which contradicts
 * the negation (lifted-entail.ts). Those not in `direct`, sorted.
 */
function negatedThroughDerived(normal: NormalGame, direct: ReadonlySet<string>): string[] {
  const negated = new Set<string>();
  for (const r of normal.rules) for (const l of r.body) if (l.kind === 'neg' && l.atom.rel !== 'true' && l.atom.rel !== 'does') negated.add(relOf(l.atom));
  const out = new Set<string>();
  for (const r of normal.rules) {
    if (!negated.has(relOf(r.head))) continue;
    for (const l of r.body) {
      const f = l.kind === 'pos' && l.atom.rel === 'true' && l.atom.args.length === 1 ? l.atom.args[0]! : undefined;
      if (f?.kind === 'fn' && !direct.has(termRel(f))) out.add(termRel(f));
    }
  }
  return [...out].sort();
}

/** Every injective map of Q's `toArity` positions into P's `fromArity` (undefined: unmapped), the map with none mapped included. */
export function positionMaps(fromArity: number, toArity: number): (number | undefined)[][] {
  let maps: (number | undefined)[][] = [[]];
  for (let i = 0; i < toArity; i++) {
    maps = maps.flatMap((m) => [undefined, ...Array(fromArity).keys()].filter((p) => p === undefined || !m.includes(p)).map((p) => [...m, p]));
  }
  return maps;
}

/**
 * The implications P => Q that every sampled state (the initial one included) satisfies, for P
 * among `from` (relations whose "at most one" is tried lifted) and Q among the relations some
 * rule reads negated, P and Q both without hidden fluents (every fluent has a `true` atom, so
 * the sampled states show them all). Implied by a kept one with more positions mapped: dropped.
 * `stop` (the stage's budget) is asked before the passes over the states of each pair of
 * relations: once it says to stop, the implications found so far are returned (each is only a
 * candidate the lifted proof tries).
 */
export function impliedCandidates(
  view: MutexView, normal: NormalGame, from: ReadonlySet<string>, hidden: ReadonlySet<string>, states: readonly (readonly number[])[],
  stop: () => boolean = () => false,
): Implication[] {
  const out: Implication[] = [];
  for (const [p, q] of implicationPairs(normal, from, hidden)) {
    // Past the limit nothing more is kept.
    if (q === p || out.length >= MAX_IMPLICATIONS) continue;
    // At least one position mapped: an implication between unrelated fluents says nothing per key.
    const maps = positionMaps(arityOf(p), arityOf(q)).filter((m) => m.some((x) => x !== undefined));
    if (maps.length > 0 && stop()) return out.slice(0, MAX_IMPLICATIONS);
    const held = maps.filter((map) => holdsOnStates(view, p, q, map, [view.init, ...states]));
    const strongest = held.filter((m) => !held.some((n) => n !== m && m.every((x, i) => x === undefined || n[i] === x)));
    out.push(...strongest.map((map) => ({ from: p, to: q, map })));
  }
  return out.slice(0, MAX_IMPLICATIONS);
}

/**
 * The pairs (P, Q) of relations an implication is tried between, in the order tried: Q read
 * negated directly first, then through a derived relation; P among `from`; neither hidden.
 */
export function implicationPairs(normal: NormalGame, from: ReadonlySet<string>, hidden: ReadonlySet<string>): (readonly [string, string])[] {
  const direct = negatedFluents(normal);
  const usable = (q: string): boolean => !hidden.has(q) && arityOf(q) <= MAX_TO_ARITY;
  // Those read negated through a derived relation come after every direct one (so that the direct
  // ones are kept first within the limit, as before they were added).
  const to = [[...direct].filter(usable).sort(), negatedThroughDerived(normal, direct).filter(usable)];
  const ps = [...from].filter((x) => !hidden.has(x) && arityOf(x) > 0).sort();
  return to.flatMap((qs) => ps.flatMap((x) => qs.map((y) => [x, y] as const)));
}

/**
 * Whether every state has, for each true P fluent, a true Q fluent agreeing at the mapped positions.
 * Each fluent's key (its arguments at the mapped positions) is numbered once, not joined per state
 * (snake_2009_big: 0.7 s of a 5.8 s profile in string keys made per fluent and state).
 */
export function holdsOnStates(view: MutexView, p: string, q: string, map: readonly (number | undefined)[], states: readonly (readonly number[])[]): boolean {
  const mapped = map.flatMap((x, i) => (x === undefined ? [] : [[i, x] as const]));
  // Per fluent, the number of its key as a Q fluent and as a P fluent (-1: not one); shared numbers.
  const qKey = new Int32Array(view.fluents.length).fill(-1);
  const pKey = new Int32Array(view.fluents.length).fill(-1);
  const numbers = new Map<string, number>();
  const number = (key: string): number => numbers.get(key) ?? (numbers.set(key, numbers.size), numbers.size - 1);
  view.fluents.forEach((info, f) => {
    if (info.relation === q) qKey[f] = number(mapped.map(([i]) => info.args[i]).join('\u0000'));
    if (info.relation === p) pKey[f] = number(mapped.map(([, j]) => info.args[j]).join('\u0000'));
  });
  // The state in which each key was last seen on a Q fluent (its index plus one): no set per state.
  const seenIn = new Int32Array(numbers.size);
  for (let s = 0; s < states.length; s++) {
    const state = states[s]!;
    for (const f of state) if (qKey[f]! >= 0) seenIn[qKey[f]!] = s + 1;
    for (const f of state) if (pKey[f]! >= 0 && seenIn[pKey[f]!] !== s + 1) return false;
  }
  return true;
}

/**
 * The `true` atoms the implications add to literals that hold in a state satisfying them: for
 * each positive `(true P(a))`, `(true Q(...))` with P's arguments at the mapped positions and
 * fresh variables (named by `counter`) elsewhere.
 */
export function impliedAtoms(lits: readonly Literal[], s: Subst, implied: readonly Implication[], counter: { tag: number }): Literal[] {
  if (implied.length === 0) return [];
  const out: Literal[] = [];
  for (const l of lits) {
    if (l.kind !== 'pos' || l.atom.rel !== 'true' || l.atom.args.length !== 1) continue;
    const f = walk(l.atom.args[0]!, s);
    if (f.kind !== 'fn') continue;
    for (const imp of implied) {
      if (imp.from !== termRel(f)) continue;
      const args = imp.map.map((j): Term => (j === undefined ? { kind: 'var', name: `_I${counter.tag++}`, pos: NO_POS } : f.args[j]!));
      out.push({ kind: 'pos', atom: { ...l.atom, args: [{ kind: 'fn', name: relName(imp.to), args, pos: NO_POS }] } });
    }
  }
  return out;
}

/**
 * One "some fluent per key" fact proven before the induction (lifted-exists.ts, docs/mutex.md 2e):
 * in every reachable state, for each key of `keys`, some fluent of `name/arity` with those input
 * arguments holds.
 */
export interface Existence {
  readonly name: string;
  readonly arity: number;
  readonly input: readonly number[];
  readonly keys: readonly (readonly Term[])[];
}

/** The atoms the facts add to a branch: `(true f(k, ?fresh...))` per key, fresh variables named by `counter`. */
export function existenceAtoms(exists: readonly Existence[], counter: { tag: number }): Literal[] {
  return exists.flatMap((e) => e.keys.map((k): Literal => {
    const args = [...Array(e.arity).keys()].map((p): Term => {
      const j = e.input.indexOf(p);
      return j >= 0 ? k[j]! : { kind: 'var', name: `_E${counter.tag++}`, pos: NO_POS };
    });
    return { kind: 'pos', atom: { kind: 'atom', rel: 'true', args: [{ kind: 'fn', name: e.name, args, pos: NO_POS }], pos: NO_POS } };
  }));
}

