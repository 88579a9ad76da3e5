/**
 * A case closed by the game's fluents (docs/mutex.md, thirtieth session, sudoku30): a positive
 * `true` atom each of whose instances among the fluents is forbidden by a negative `true` atom of
 * the same case. sudoku's "placed now and already there": `(true (mark ?i ?j ?m2))` against the
 * legal rule's `(not (true (mark ?i ?j 1)))` ... `(not (true (mark ?i ?j 9)))`, ?m2 one of 1..9.
 *
 * Sound: the fluent rows are every fluent the grounding found, a superset of those a state holds
 * (the assumption valueSplits of lifted-unfold.ts makes). In a state where the case holds under
 * some grounding σ of `s`, the positive atom's fluent is one of the rows r, σ agrees with the
 * binding that matches the atom to r, and a negative atom ground under that binding is σ's too:
 * if it is r, the case asks r both true and not true.
 */
import type { Term } from '../gdl/ast.js';
import type { Literal } from '../normalize/types.js';
import { relKey } from './lifted-relax.js';
import { matchesGround } from './lifted-rows.js';
import { type Subst, ground, key, walk } from './lifted-terms.js';

/** No bindings: the rows are ground. */
const NONE: Subst = new Map();

/** Most fluent rows of one relation looked at per positive atom (each row costs a match and a look at the negative atoms). */
const MAX_COVER_ROWS = 4096;

/** The relation (`name/arity`) and arguments of a fluent term under `s`, if it is compound or a constant. */
function fluentOf(t: Term, s: Subst): { readonly rel: string; readonly args: readonly Term[] } | undefined {
  const u = walk(t, s);
  if (u.kind === 'fn') return { rel: relKey(u.name, u.args.length), args: u.args };
  return u.kind === 'const' ? { rel: relKey(u.name, 0), args: [] } : undefined;
}

/**
 * Whether some positive, not ground `true` atom of the body is contradicted by the negative
 * `true` atoms of its relation: every fluent row it matches is, under the match, the fluent of one
 * of them. Only looked at when a negative atom of that relation is present; a relation without
 * rows in `fluents` (none given) is never closed this way. (`fluents` is lifted-core.ts' StaticFacts,
 * spelled out: that module reads this one.)
 */
export function negativesCover(body: readonly Literal[], s: Subst, fluents: ReadonlyMap<string, readonly (readonly Term[])[]>): boolean {
  const negatives = new Map<string, (readonly Term[])[]>();
  for (const l of body) {
    if (l.kind !== 'neg' || l.atom.rel !== 'true' || l.atom.args.length !== 1) continue;
    const f = fluentOf(l.atom.args[0]!, s);
    if (f !== undefined) negatives.set(f.rel, [...(negatives.get(f.rel) ?? []), f.args]);
  }
  if (negatives.size === 0) return false;
  return body.some((l) => {
    if (l.kind !== 'pos' || l.atom.rel !== 'true' || l.atom.args.length !== 1 || ground(l.atom.args[0]!, s)) return false;
    const f = fluentOf(l.atom.args[0]!, s);
    const rows = f === undefined ? undefined : fluents.get(f.rel);
    const against = f === undefined ? undefined : negatives.get(f.rel);
    if (rows === undefined || against === undefined || rows.length > MAX_COVER_ROWS) return false;
    return rows.every((row) => {
      const local = new Map<string, Term>();
      if (!f!.args.every((x, j) => matchesGround(x, row[j]!, s, local))) return true;
      const texts = row.map((t) => key(t, NONE));
      return against.some((args) => args.every((x, j) => groundKey(x, s, local) === texts[j]));
    });
  });
}

/** The text of `t` under `s` and then `local`, or undefined when it is not ground there. */
function groundKey(t: Term, s: Subst, local: ReadonlyMap<string, Term>): string | undefined {
  const b = bound(t, s, local);
  return ground(b, NONE) ? key(b, NONE) : undefined;
}

/** `t` under `s` with the variables `local` binds replaced by their terms. */
function bound(t: Term, s: Subst, local: ReadonlyMap<string, Term>): Term {
  const u = walk(t, s);
  if (u.kind === 'var') return local.get(u.name) ?? u;
  return u.kind === 'fn' ? { ...u, args: u.args.map((a) => bound(a, s, local)) } : u;
}
