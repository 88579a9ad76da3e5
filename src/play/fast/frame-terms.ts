/**
 * The shapes of `next` rules that frames.ts takes out of the net (docs/play.md, "Frames as
 * masks", "Frames under net atoms", "Frames under a second fluent"): each rule of a framed fluent
 * g is a term, "copied from fluent `src` (or added when there is none) under a condition", where
 * the condition is a conjunction of at most one state bit (`fluent`) and one of: nothing, some
 * does atom of a set (or none of them), a net atom (or its negation).
 *
 * Why terms with a second fluent: asteroidsSerial's coordinates are `next(x new) <= true(x old),
 * true(speed s), ~game1Over`, one rule per (old, s), and its speeds are kept while the heading
 * is east or west, `next(speed s) <= true(speed s), true(heading east)`; in the net each of these
 * rules is counted over both fluents, so every move of the ship (x and y change at every step)
 * costs a counter update per rule reading the old and the new coordinate (about 36 of the 79
 * counter updates per step). As frames, the coordinate's successor is looked up among the copies
 * of the one coordinate fluent that holds, each checking a bit of the state.
 */
import type { GroundAtom, GroundRule } from '../../ground/types.js';

/**
 * One rule of a framed fluent: copied from `src` (-1: added) under `kind` (0 always, 1 if some
 * of `moves`, 2 unless), or, when `atom` is given, 1 if that net atom holds, 2 unless it does;
 * and, when `fluent` is given, only if that fluent holds in the state too.
 */
export interface Term {
  readonly src: number;
  readonly kind: 0 | 1 | 2;
  readonly moves: readonly number[];
  readonly atom?: number;
  readonly fluent?: number;
}

/** What the pass reads of the rules: does atoms, facts, does disjunctions, the fluent of each true atom, how often a fluent is one of two read by a next rule. */
export interface Shapes {
  readonly isDoes: Uint8Array;
  readonly isFact: Uint8Array;
  readonly ors: readonly (number[] | undefined)[];
  readonly fluentOfTrue: Int32Array;
  /** Per fluent, the next rules that read it and one other fluent: the one read by fewer is a term's source (fewer copies to look at per step). */
  readonly pairs: Int32Array;
}

/** Per atom, the does atoms whose disjunction it is (its rules are single positive does literals), else undefined. */
export function doesDisjunctions(rules: readonly GroundRule[], atoms: readonly GroundAtom[], isDoes: Uint8Array, isFact: Uint8Array): (number[] | undefined)[] {
  const of: (number[] | null | undefined)[] = new Array(atoms.length);
  for (const r of rules) {
    const pos = r.pos.filter((a) => isFact[a] === 0);
    const single = r.neg.length === 0 && pos.length === 1 && isDoes[pos[0]!] === 1;
    const list = of[r.head];
    if (!single || list === null) of[r.head] = null;
    else if (list === undefined) of[r.head] = [pos[0]!];
    else list.push(pos[0]!);
  }
  return of.map((l) => l ?? undefined);
}

/** The fluents of the positive true literals of `r` (facts dropped). */
function sourcesOf(r: GroundRule, sh: Pick<Shapes, 'isFact' | 'fluentOfTrue'>): number[] {
  const out: number[] = [];
  for (const a of r.pos) if (sh.isFact[a] === 0 && sh.fluentOfTrue[a]! >= 0) out.push(sh.fluentOfTrue[a]!);
  return out;
}

/** Per fluent, how many of the `nextRules` read it and exactly one other fluent. */
export function pairCounts(nextRules: readonly GroundRule[], sh: Pick<Shapes, 'isFact' | 'fluentOfTrue'>, fluents: number): Int32Array {
  const pairs = new Int32Array(fluents);
  for (const r of nextRules) {
    const sources = sourcesOf(r, sh);
    if (sources.length === 2) pairs[sources[0]!]!++, pairs[sources[1]!]!++;
  }
  return pairs;
}

/** Of two fluents read by a rule of g: the source (g itself if it is one, else the one in fewer pairs, else the lower) and the condition. */
function split(a: number, b: number, g: number, pairs: Int32Array): [number, number] {
  if (a === g || b === g) return a === g ? [a, b] : [b, a];
  if (pairs[a] !== pairs[b]) return pairs[a]! < pairs[b]! ? [a, b] : [b, a];
  return a < b ? [a, b] : [b, a];
}

/** The term of one next rule of fluent g, or undefined when it has another shape. */
function termOf(r: GroundRule, g: number, sh: Shapes): Term | undefined {
  const sources = sourcesOf(r, sh);
  if (sources.length > 2 || r.neg.some((a) => sh.isFact[a] === 1 || sh.fluentOfTrue[a]! >= 0)) return undefined;
  const [src, fluent] = sources.length === 2 ? split(sources[0]!, sources[1]!, g, sh.pairs) : [sources[0] ?? -1, undefined];
  const extra = fluent === undefined ? {} : { fluent };
  const rest = r.pos.filter((a) => sh.isFact[a] === 0 && sh.fluentOfTrue[a]! < 0);
  const movesOf = (a: number): number[] | undefined => (sh.isDoes[a] === 1 ? [a] : sh.ors[a]);
  if (rest.length > 1 || (rest.length === 1 && r.neg.length > 0)) return undefined;
  if (rest.length === 1) {
    const moves = movesOf(rest[0]!);
    return moves !== undefined ? { src, kind: 1, moves, ...extra } : { src, kind: 1, moves: [], atom: rest[0]!, ...extra };
  }
  // Added unconditionally or unless a move: a shape no game of the corpus has, left to the net.
  if (src < 0) return undefined;
  // Copied unless a net atom (beatMania's caught-blocks counter kept unless a block is caught).
  if (r.neg.length === 1 && movesOf(r.neg[0]!) === undefined) return { src, kind: 2, moves: [], atom: r.neg[0]!, ...extra };
  const moves: number[] = [];
  for (const y of r.neg) {
    const list = movesOf(y);
    if (list === undefined) return undefined;
    moves.push(...list);
  }
  return { src, kind: moves.length === 0 ? 0 : 2, moves, ...extra };
}

/**
 * The terms of fluent g's rules, or undefined when one has another shape or g keeps itself by
 * two "unless" rules (a term with a second fluent is a copy, looked at on its own: not a keep).
 */
export function frameOf(rules: readonly GroundRule[], g: number, sh: Shapes): Term[] | undefined {
  const terms: Term[] = [];
  let unless = 0;
  for (const r of rules) {
    const t = termOf(r, g, sh);
    if (t === undefined) return undefined;
    // Kept unless one set or unless another would be "unless both"; one mask of kills says "unless either".
    if (t.src === g && t.kind !== 1 && t.fluent === undefined && ++unless > 1) return undefined;
    terms.push(t);
  }
  return terms;
}

/** Most rules an atom may have to be inlined into the next rules reading it (asteroidsSerial's have 7, one per speed). */
const MAX_INLINED = 16;

/**
 * Per atom, its rules when the next rules reading it may be read with it inlined, else
 * undefined: an axiom (no input or output) read by next rules only, with at most
 * {@link MAX_INLINED} rules, each reading exactly two fluents and nothing else. Factoring makes
 * such atoms out of frame rules sharing a literal: asteroidsSerial's `next(x new) <= ~game1Over,
 * a` with `a <= true(x old), true(speed s)` for the 7 pairs (old, s) that give `new`.
 */
export function inlinable(rules: readonly GroundRule[], goalRules: readonly GroundRule[], isNext: Uint8Array, isAxiom: (a: number) => boolean, sh: Pick<Shapes, 'isFact' | 'fluentOfTrue'>): (readonly GroundRule[] | undefined)[] {
  const of: (GroundRule[] | null | undefined)[] = [];
  const pairOnly = (r: GroundRule): boolean => r.neg.length === 0 && r.pos.every((a) => sh.isFact[a] === 1 || sh.fluentOfTrue[a]! >= 0) && sourcesOf(r, sh).length === 2;
  for (const r of rules) {
    const list = of[r.head];
    if (list === null) continue;
    if (!isAxiom(r.head) || !pairOnly(r)) of[r.head] = null;
    else if (list === undefined) of[r.head] = [r];
    else list.push(r);
  }
  // Read by another rule than a next rule: it stays in the net, so inlining it would only add work.
  const readBy = (r: GroundRule): void => [...r.pos, ...r.neg].forEach((a) => (of[a] = null));
  rules.forEach((r) => isNext[r.head] === 0 && readBy(r));
  goalRules.forEach(readBy);
  for (const r of rules) for (const a of r.neg) of[a] = null;
  return Array.from(of, (l) => (l === null || l === undefined || l.length > MAX_INLINED ? undefined : l));
}

/** Rule r with its one inlinable positive literal replaced by each of that atom's bodies (r alone when it reads none or several). */
export function expand(r: GroundRule, inline: readonly (readonly GroundRule[] | undefined)[]): readonly GroundRule[] {
  const xs = r.pos.filter((a) => inline[a] !== undefined);
  if (xs.length !== 1) return [r];
  const x = xs[0]!;
  const rest = r.pos.filter((a) => a !== x);
  return inline[x]!.map((b) => ({ head: r.head, pos: [...rest, ...b.pos], neg: r.neg }));
}
