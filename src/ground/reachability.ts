/**
 * Post-processing at the end of 9.1.3: reachability on the ground rules with negative
 * literals removed. Starting from the initial state, a rule fires once all its positive body
 * atoms are reached; `(next F)` reaches `(true F)` and `(legal R M)` reaches `(does R M)`, as in
 * the relaxed game of Algorithm 9.2. Afterwards the supersets and the ground game are the same
 * whichever method produced the supersets the rules were instantiated with.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { KEYWORDS, NO_POS } from '../gdl/ast.js';
import { stateDependent } from '../gdl/relations.js';
import { atomToString, compareCodePoints } from '../gdl/terms.js';
import { type NormalGame, asRule } from '../normalize/types.js';
import type { Move, Supersets } from '../reach/types.js';
import type { GroundAtom, GroundGame, GroundRule } from './types.js';

/** The atom a reached head also makes true: `(true F)` for `(next F)`, `(does R M)` for `(legal R M)`. */
function bridgeText(atom: GroundAtom): string | undefined {
  if (atom.rel === 'next') return `(true ${atom.text.slice('(next '.length)}`;
  if (atom.rel === 'legal') return `(does ${atom.text.slice('(legal '.length)}`;
  return undefined;
}

/**
 * The ids of the atoms reachable in the relaxed ground game (negative literals ignored), by
 * counting down each rule's unreached positive atoms (a linear-time forward chaining):
 *   reach(h) <= reach(p1), ..., reach(pn)   for every rule h <= p1..pn, not n1..nm
 *   reach((true F)) <= reach((next F))      reach((does R M)) <= reach((legal R M))
 */
export function reachableAtoms(game: GroundGame): Uint8Array {
  const n = game.atoms.length;
  const byText = new Map(game.atoms.map((a, i) => [a.text, i]));
  const bridge = game.atoms.map((a) => {
    const t = bridgeText(a);
    return t === undefined ? -1 : byText.get(t) ?? -1;
  });
  const waiting = new Int32Array(game.rules.length);
  const watchers: number[][] = Array.from({ length: n }, () => []);
  game.rules.forEach((r, i) => {
    const pos = [...new Set(r.pos)];
    waiting[i] = pos.length;
    for (const p of pos) watchers[p]!.push(i);
  });
  const reached = new Uint8Array(n);
  const todo: number[] = [];
  const reach = (id: number): void => {
    if (id < 0 || reached[id]) return;
    reached[id] = 1;
    todo.push(id);
  };
  for (const id of game.init) reach(id);
  game.rules.forEach((r, i) => {
    if (waiting[i] === 0) reach(r.head);
  });
  while (todo.length > 0) {
    const id = todo.pop()!;
    reach(bridge[id]!);
    for (const ri of watchers[id]!) if (--waiting[ri]! === 0) reach(game.rules[ri]!.head);
  }
  return reached;
}

/** Lexicographic order of two ascending id lists. */
function compareLists(a: readonly number[], b: readonly number[]): number {
  const len = Math.min(a.length, b.length);
  for (let i = 0; i < len; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

const ascending = (ids: Iterable<number>): number[] => [...new Set(ids)].sort((x, y) => x - y);

/**
 * Keeps the rules whose positive body atoms are all reachable (their heads then are too), drops
 * negative literals over unreachable atoms (they are always true), and renumbers the atoms that
 * are left in text order, with bodies ascending and rules sorted by head, positive and negative
 * body: the same game gives the same result byte for byte, whatever the superset method.
 */
export function pruneUnreachable(game: GroundGame): GroundGame {
  const reached = reachableAtoms(game);
  const kept = game.rules
    .filter((r) => r.pos.every((p) => reached[p] === 1))
    .map((r) => ({ head: r.head, pos: r.pos, neg: r.neg.filter((x) => reached[x] === 1) }));
  const used = new Set<number>(game.init);
  for (const r of kept) {
    used.add(r.head);
    for (const p of r.pos) used.add(p);
    for (const x of r.neg) used.add(x);
  }
  const order = [...used].sort((a, b) => compareCodePoints(game.atoms[a]!.text, game.atoms[b]!.text));
  const renumber = new Map(order.map((old, i) => [old, i]));
  const map = (ids: readonly number[]): number[] => ascending(ids.map((id) => renumber.get(id)!));
  const rules: GroundRule[] = kept.map((r) => ({ head: renumber.get(r.head)!, pos: map(r.pos), neg: map(r.neg) }));
  rules.sort(compareRules);
  // Dropping negative literals can make two rules equal; keep one.
  const unique = rules.filter((r, i) => i === 0 || compareRules(rules[i - 1]!, r) !== 0);
  return {
    file: game.file,
    roles: game.roles,
    atoms: order.map((id) => game.atoms[id]!),
    init: map(game.init),
    rules: unique,
  };
}

/** Order of ground rules: by head, then positive body, then negative body. */
function compareRules(a: GroundRule, b: GroundRule): number {
  return a.head - b.head || compareLists(a.pos, b.pos) || compareLists(a.neg, b.neg);
}

/**
 * The final supersets read off a ground game: the fluents, moves and axiom instances that are
 * reachable in its relaxed form. The ground game no longer holds static relations, so their
 * instances (`staticAxioms`, exact) are added to the axioms, as Algorithm 9.2 reports them.
 */
export function groundSupersets(game: GroundGame, staticAxioms: readonly Atom[]): Supersets {
  const reached = reachableAtoms(game);
  const fluents = new Map<string, Term>();
  const moves = new Map<string, Move>();
  const axioms = new Map<string, Atom>();
  game.atoms.forEach((a, id) => {
    if (reached[id] !== 1) return;
    if ((a.rel === 'true' || a.rel === 'next') && a.args.length === 1) {
      fluents.set(a.text.slice(a.rel.length + 2, -1), a.args[0]!);
    } else if ((a.rel === 'does' || a.rel === 'legal') && a.args.length === 2) {
      moves.set(a.text.slice(a.rel.length + 2, -1), { role: a.args[0]!, action: a.args[1]! });
    } else if (!KEYWORDS.has(a.rel)) {
      axioms.set(a.text, { kind: 'atom', rel: a.rel, args: a.args, pos: NO_POS });
    }
  });
  for (const s of staticAxioms) axioms.set(atomToString(s), s);
  const sorted = <T>(m: Map<string, T>): T[] => [...m.entries()].sort((x, y) => compareCodePoints(x[0], y[0])).map((e) => e[1]);
  return { fluents: sorted(fluents), moves: sorted(moves), axioms: sorted(axioms) };
}

/**
 * The final supersets of a method: what is reachable in the pruned ground game, plus the
 * static relations' instances from the method's own supersets (the ground game has none;
 * both methods compute them exactly).
 */
export function finalSupersets(game: NormalGame, supersets: Supersets, ground: GroundGame): Supersets {
  const dependent = stateDependent(game.rules.map(asRule));
  return groundSupersets(ground, supersets.axioms.filter((a) => !dependent.has(a.rel)));
}
