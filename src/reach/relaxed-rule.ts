/**
 * A rule of the relaxed game (section 9.1.2) and its relation key: what the plan (relaxed.ts)
 * and the subsumption test (subsume.ts) share. Apart from both, since relaxed.ts calls subsume.ts.
 */
import type { Atom, Pos } from '../gdl/ast.js';
import type { Literal } from '../normalize/types.js';

/** A positive literal or a `distinct` of the relaxed game. */
export type RelaxedLiteral = Exclude<Literal, { kind: 'neg' }>;

/** A rule of the relaxed game: the normalized rule with its negative literals removed. */
export interface RelaxedRule {
  readonly head: Atom;
  readonly body: readonly RelaxedLiteral[];
  /** Position of the source rule, for messages. */
  readonly pos: Pos;
}

/** The relation key `rel/arity` of an atom. */
export function keyOf(atom: Atom): string {
  return `${atom.rel}/${atom.args.length}`;
}
