/**
 * Every role moves, and a forbidden derived atom entailed through a chain of rules (docs/mutex.md,
 * section 2l). crissrace keeps `(first ?player)` by a frame rule and sets `(first red)` when red's
 * stones are all home, each rule guarded by `(not reseted)`, `(<= reseted (does ?player reset))`.
 * Both fire, with different fluents, only in a state holding `(first teal)` in which red's stones
 * are home; there the game is over, `crissfin` holds, every move but `reset` needs `(not
 * crissfin)`, so some role resets, and `(not reseted)` is false. The pair's bodies hold no `does`
 * atom, so 2a never read a move: here a pair left open whose bodies forbid a derived atom that a
 * rule derives from a move is checked once more with a move `(does R ?m)` of every role added
 * (each role makes one move, legal in the state: the `legal` cases and unfolding of 2a read it),
 * and with forbidden atoms entailed through rules of derived relations below the first
 * (`crissfin` <= `crissfinished` <= `crissgoal`), not only by the case's own literals: that test is
 * lifted-entail.ts' with `THROUGH_RULES`.
 */
import { NO_POS, type Term } from '../gdl/ast.js';
import type { Literal, NormalGame } from '../normalize/types.js';
import { relOf } from './lifted-relax.js';
import { type Subst, walk } from './lifted-terms.js';

/** The relations (`name/arity`) some rule of which reads `does` positively: what a move makes true. */
function moveRelations(normal: NormalGame): Set<string> {
  return new Set(normal.rules.flatMap((r) => (r.head.rel !== 'legal' && r.body.some((l) => l.kind === 'pos' && l.atom.rel === 'does') ? [relOf(r.head)] : [])));
}

/**
 * A function giving, for a body that forbids an atom of a relation a move makes true, the body with
 * `(does R ?fresh)` added for every role R with no `does` of its own there (undefined otherwise:
 * the pair is not a move's guard, and is not checked again).
 */
export function everyRoleMoves(normal: NormalGame, roles: readonly Term[], counter: { tag: number }): (body: readonly Literal[], s: Subst) => Literal[] | undefined {
  const guarded = moveRelations(normal);
  return (body, s) => {
    if (!body.some((l) => l.kind === 'neg' && guarded.has(relOf(l.atom)))) return undefined;
    const moving = new Set(body.flatMap((l) => {
      const r = l.kind === 'pos' && l.atom.rel === 'does' && l.atom.args.length === 2 ? walk(l.atom.args[0]!, s) : undefined;
      return r?.kind === 'const' ? [r.name] : [];
    }));
    const added = roles.filter((r) => r.kind === 'const' && !moving.has(r.name)).map((r): Literal => ({
      kind: 'pos', atom: { kind: 'atom', rel: 'does', args: [r, { kind: 'var', name: `_M${counter.tag++}`, pos: NO_POS }], pos: NO_POS },
    }));
    return added.length === 0 ? undefined : [...body, ...added];
  };
}
