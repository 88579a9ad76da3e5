/**
 * Exclusions between two relations (docs/mutex.md, section 2g): "no state holds a fluent of P and
 * a fluent of Q at once". Games split their turn or their phase over two relations: pentago's
 * `placeControl` and `rotateControl`, biddingTicTacToe's `stage` and `control`, ticblock's board of
 * the first game (`cell`) and of the second (`cellb`). A pair of `next` rules of the board then
 * fires under two roles' moves whose `legal` rules read one relation each, and only the exclusion
 * closes it. Candidates are read off the sampled states; each is proven by the pair checks of 2a
 * (every `next` rule of P against every `next` rule of Q cannot both fire), as a greatest fixpoint
 * assuming only the exclusions themselves (and the static facts): an invariant of its own, which
 * the induction of 2a then assumes (a body with a `true` atom of each relation closes).
 */
import type { Term } from '../gdl/ast.js';
import type { NormalGame, NormalRule } from '../normalize/types.js';
import type { Refute } from './lifted-core.js';
import { termRel } from './lifted-relax.js';
import { type Subst, walk } from './lifted-terms.js';
import type { MutexView } from './view.js';

/**
 * Most exclusions tried (each costs a rule pair check per pair of their `next` rules). 32, not 16:
 * crissrace's two phases give 20 (four relations of the first game against five of the race), and
 * the 16 first in name order left out `step` against `stepr`, `wall` and `walls` (2k).
 */
const MAX_EXCLUSIONS = 32;

/** Two relations (`name/arity`) claimed never to have fluents true in one state. */
export interface Exclusion {
  readonly p: string;
  readonly q: string;
}

/** The relations (`name/arity`) of the fluents some `legal` or `next` rule reads positively, `(true F)`. */
function legalReads(normal: NormalGame): Set<string> {
  const out = new Set<string>();
  for (const r of normal.rules) {
    if (r.head.rel !== 'legal' && r.head.rel !== 'next') continue;
    for (const l of r.body) {
      const f = l.kind === 'pos' && l.atom.rel === 'true' ? l.atom.args[0] : undefined;
      if (f !== undefined && f.kind !== 'var') out.add(termRel(f));
    }
  }
  return out;
}

/**
 * The exclusions that every sampled state (the initial one included: the base case) satisfies,
 * between two relations some `legal` or `next` rule reads, each with a fluent in some sampled state, neither
 * with a fluent that has no `true` atom (`hidden`: the states would not show it).
 */
export function exclusionCandidates(view: MutexView, normal: NormalGame, hidden: ReadonlySet<string>, states: readonly (readonly number[])[]): Exclusion[] {
  const rels = [...legalReads(normal)].filter((r) => !hidden.has(r)).sort();
  const index = new Map(rels.map((r, i) => [r, i]));
  const n = rels.length;
  // Per fluent its relation's number (-1: none read): the states are read by number, with no set
  // or list made per state (snake_2009_big: 11,708 states, about 0.25 processor s with them).
  const relOf = Int32Array.from(view.fluents, (f) => index.get(f.relation) ?? -1);
  const seen = new Uint8Array(n);
  const together = new Uint8Array(n * n);
  // The state (its number plus one) in which each relation was last found, and the relations of this one.
  const inState = new Int32Array(n);
  const here: number[] = [];
  [view.init, ...states].forEach((state, s) => {
    here.length = 0;
    for (const f of state) {
      const a = relOf[f]!;
      if (a < 0 || inState[a] === s + 1) continue;
      inState[a] = s + 1;
      here.push(a);
    }
    for (const a of here) {
      seen[a] = 1;
      for (const b of here) together[a * n + b] = 1;
    }
  });
  const out: Exclusion[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      if (seen[a] === 1 && seen[b] === 1 && together[a * n + b] === 0) out.push({ p: rels[a]!, q: rels[b]! });
    }
  }
  return out.slice(0, MAX_EXCLUSIONS);
}

/** The relation (`name/arity`) of a fluent term under `s`, if it is known. */
function relationOf(t: Term, s: Subst): string | undefined {
  const f = walk(t, s);
  return f.kind === 'var' ? undefined : termRel(f);
}

/**
 * A body with a positive `true` atom of each relation of an exclusion assumed closes, and so does
 * one `inner` (lifted-entail.ts) refutes. No exclusion: `inner` itself.
 */
export function withExclusions(inner: Refute, excluded: readonly Exclusion[]): Refute {
  if (excluded.length === 0) return inner;
  const pairs = new Set(excluded.flatMap((e) => [`${e.p} ${e.q}`, `${e.q} ${e.p}`]));
  return (body, s) => {
    const rels = [...new Set(body.flatMap((l) => (l.kind === 'pos' && l.atom.rel === 'true' ? relationOf(l.atom.args[0]!, s) ?? [] : [])))];
    return rels.some((a) => rels.some((b) => pairs.has(`${a} ${b}`))) || inner(body, s);
  };
}

/**
 * The greatest set of the candidates whose every pair of `next` rules (one of P, one of Q)
 * `excluded(r1, r2, refute)` shows cannot both fire, assuming the set (through `refute`, made
 * from it by `refuteOf`). `stop`: the stage's budget; once it says to stop, nothing is proven.
 */
export function proveExclusions(
  candidates: readonly Exclusion[], rulesOf: (relation: string) => readonly NormalRule[],
  excluded: (r1: NormalRule, r2: NormalRule, refute: Refute) => boolean, refuteOf: (set: readonly Exclusion[]) => Refute, stop: () => boolean,
): Exclusion[] {
  let set = [...candidates];
  for (;;) {
    const refute = refuteOf(set);
    const kept = set.filter((e) => rulesOf(e.p).every((r1) => rulesOf(e.q).every((r2) => !stop() && excluded(r1, r2, refute))));
    if (stop()) return [];
    if (kept.length === set.length) return kept;
    set = kept;
  }
}
