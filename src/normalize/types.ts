/** The normalized game of section 9.1.1: every rule body is a conjunction of literals. */
import type { Atom, Formula, Pos, Rule, Term } from '../gdl/ast.js';

/** A literal of a normalized body. */
export type Literal =
  | { readonly kind: 'pos'; readonly atom: Atom }
  | { readonly kind: 'neg'; readonly atom: Atom }
  | { readonly kind: 'distinct'; readonly left: Term; readonly right: Term; readonly pos: Pos };

/** A rule `head <= l1, ..., ln` (a fact when the body is empty). */
export interface NormalRule {
  readonly head: Atom;
  readonly body: readonly Literal[];
  /** Position of the source rule this one was split from. */
  readonly pos: Pos;
}

/** A game whose rules are all Horn-like: conjunctions of literals, no `or`, no nested `not`. */
export interface NormalGame {
  readonly file: string;
  readonly rules: readonly NormalRule[];
}

/** A normalized rule seen as a plain rule, so graph and classification code serves both. */
export function asRule(rule: NormalRule): Rule {
  const body = rule.body.map((l): Formula => {
    if (l.kind === 'pos') return l.atom;
    if (l.kind === 'neg') return { kind: 'not', arg: l.atom, pos: l.atom.pos };
    return l;
  });
  return { head: rule.head, body, pos: rule.pos };
}
