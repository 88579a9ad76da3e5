/**
 * Conditions on one role's move, for the move complements of complement.ts: a rule's literals on
 * does atoms of a role r, and on atoms that are disjunctions of r's does atoms (their rules each
 * one positive does literal: the grounder's split atoms such as "r moved" or "r's move touched
 * cell c"), negated or not. A joint move sets exactly one of r's playable does atoms (the
 * simulator's contract: one legal move per role), so such a conjunction holds exactly when r's
 * move is in one set of r's playable moves, which this module computes.
 */
import type { GroundRule } from '../../ground/types.js';

/** Per atom, the does atoms it is the disjunction of (sorted), else undefined; and per such set (its atoms joined by commas), an atom that is it. */
export interface MoveSets {
  readonly of: readonly (readonly number[] | undefined)[];
  readonly atomOf: ReadonlyMap<string, number>;
}

/**
 * The disjunctions of does atoms among `rules`: heads whose every rule is one positive does
 * literal of a playable move (`roleOf` >= 0), all of one role.
 */
export function moveSets(rules: readonly GroundRule[], isDoes: (a: number) => boolean, roleOf: Int32Array): MoveSets {
  const of = new Map<number, number[] | null>();
  for (const r of rules) {
    const d = r.pos.length === 1 && r.neg.length === 0 && isDoes(r.pos[0]!) ? r.pos[0]! : -1;
    const list = of.get(r.head);
    if (d < 0 || roleOf[d]! < 0 || list === null || (list !== undefined && roleOf[list[0]!] !== roleOf[d])) of.set(r.head, null);
    else if (list === undefined) of.set(r.head, [d]);
    else list.push(d);
  }
  const sets: (number[] | undefined)[] = [];
  const atomOf = new Map<string, number>();
  for (const [a, list] of of) {
    if (list === null) continue;
    const sorted = [...new Set(list)].sort((x, y) => x - y);
    sets[a] = sorted;
    if (!atomOf.has(sorted.join(','))) atomOf.set(sorted.join(','), a);
  }
  return { of: sets, atomOf };
}

/** A rule whose move literals are a condition on one role's move: the role, the moves under which they hold (ascending), the rule without them, how many there were. */
interface MoveCondition {
  readonly role: number;
  readonly allowed: readonly number[];
  readonly rest: GroundRule;
  readonly literals: number;
}

/**
 * The move condition of `r`: its literals on does atoms and on disjunctions of them (`sets`), all
 * on playable moves of one role; undefined when it has none or they concern several roles (or a
 * move that is not playable). `moves[role]` are the role's playable does atoms.
 */
export function moveCondition(r: GroundRule, isDoes: (a: number) => boolean, roleOf: Int32Array, moves: readonly (readonly number[])[], sets: MoveSets): MoveCondition | undefined {
  const setOf = (a: number): readonly number[] | undefined => (isDoes(a) ? [a] : sets.of[a]);
  const pos = r.pos.filter((a) => setOf(a) !== undefined);
  const neg = r.neg.filter((a) => setOf(a) !== undefined);
  if (pos.length + neg.length === 0) return undefined;
  const roles = new Set([...pos, ...neg].flatMap((a) => setOf(a)!.map((d) => roleOf[d]!)));
  if (roles.size !== 1) return undefined;
  const role = [...roles][0]!;
  if (role < 0) return undefined;
  const inAll = (d: number): boolean => pos.every((a) => setOf(a)!.includes(d)) && !neg.some((a) => setOf(a)!.includes(d));
  const allowed = moves[role]!.filter(inAll).sort((x, y) => x - y);
  const rest = { head: r.head, pos: r.pos.filter((a) => !pos.includes(a)), neg: r.neg.filter((a) => !neg.includes(a)) };
  return { role, allowed, rest, literals: pos.length + neg.length };
}
