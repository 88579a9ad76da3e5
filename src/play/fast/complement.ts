/**
 * Move complements, a net optimization pass of the fast simulator (docs/play.md, "Specialized
 * nets"), for frame rules that list most moves of a role:
 *
 *   h <= B, (does r J1)   ...   h <= B, (does r Jn)      become      h <= B, (not y)
 *   y <= (does r K1)      ...   y <= (does r Km)
 *
 * where K1..Km are the role's other moves (its playable moves, those whose legal atom some rule
 * derives, not among J1..Jn), when there are fewer of them than of the Ji. A joint move sets
 * exactly one does atom per role (the simulator's contract: one legal move per role; the pass is
 * used only for roles whose every playable move has a does atom in the game),
 * so "r made one of J1..Jn" is "r made none of K1..Km": h holds in the same states after every
 * joint move. Before the move is set (a state just loaded) h may differ, but nothing reads it
 * then: h depends on a does atom, and legal, terminal and goal atoms do not (the game is valid
 * GDL), while next and sees atoms are read only after the move.
 *
 * Why: pegEuro's frame, `(next (hole x y empty)) <= (does jumper (jump ...)) (true (hole x y
 * empty))` for every jump not landing on (x, y), is 74 rules per cell, each counted over the
 * cell's fluent (~900 counter updates per step); complemented, a cell's fluent has one reader
 * and a jump touches the few y atoms of the cells it lands on or jumps from.
 */
import { keywordSymbols } from '../../ground/atoms.js';
import type { GroundGame, GroundRule } from '../../ground/types.js';

/** A group is complemented from this many rules on. */
const MIN_GROUP = 4;

/** Per does atom its role index, -1 for a does atom that cannot be played; per role its playable does atoms. */
interface Playable {
  readonly roleOf: Int32Array;
  readonly moves: readonly (readonly number[])[];
}

/**
 * The does atoms the simulator can set, by role: those of moves whose legal atom some rule
 * derives (a joint move is made of legal moves). A role with such a move whose does atom is
 * not in the game (no rule reads it) has none: a joint move may set none of its does atoms, so
 * the complement of its moves would not be exact.
 */
function playable(game: GroundGame, rules: readonly GroundRule[]): Playable {
  const roleIndex = new Map(game.roles.map((r, i) => [r, i]));
  const roleOf = new Int32Array(game.atoms.length).fill(-1);
  const moves: number[][] = game.roles.map(() => []);
  const broken = new Set<number>();
  // A move whose legal atom no rule derives is never legal here (in a net per control fluent: the other roles' moves).
  const derived = new Uint8Array(game.atoms.length);
  for (const r of rules) if (r.head < derived.length) derived[r.head] = 1;
  for (const m of game.vocabulary.moves) {
    const r = roleIndex.get(m.role);
    if (r === undefined || m.legalId < 0 || derived[m.legalId] === 0) continue;
    if (m.doesId < 0) broken.add(r);
    else if (roleOf[m.doesId] !== r) (roleOf[m.doesId] = r), moves[r]!.push(m.doesId);
  }
  for (const r of broken) for (const d of moves[r]!) roleOf[d] = -1;
  return { roleOf, moves: moves.map((ds, r) => (broken.has(r) ? [] : ds)) };
}

/** The one positive does literal of `r` when it has exactly one and no negative one, else -1. */
function onlyDoes(r: GroundRule, isDoes: (a: number) => boolean): number {
  if (r.neg.some(isDoes)) return -1;
  const found = r.pos.filter(isDoes);
  return found.length === 1 ? found[0]! : -1;
}

/** A frame group: the rules `head <= rest, (does r J)` for the moves J of each role r. */
interface Group {
  readonly rule: GroundRule;
  readonly byRole: Map<number, number[]>;
  readonly indices: number[];
}

/** The rules with a single playable does literal, grouped by head and the rest of their body. */
function groups(rules: readonly GroundRule[], isDoes: (a: number) => boolean, p: Playable): Map<string, Group> {
  const out = new Map<string, Group>();
  rules.forEach((r, i) => {
    const d = onlyDoes(r, isDoes);
    if (d < 0 || p.roleOf[d]! < 0) return;
    const pos = r.pos.filter((a) => a !== d).sort((x, y) => x - y);
    const neg = [...r.neg].sort((x, y) => x - y);
    const key = `${r.head}|${pos.join(',')}|${neg.join(',')}`;
    let g = out.get(key);
    if (g === undefined) out.set(key, (g = { rule: { head: r.head, pos, neg }, byRole: new Map(), indices: [] }));
    const list = g.byRole.get(p.roleOf[d]!);
    if (list === undefined) g.byRole.set(p.roleOf[d]!, [d]);
    else list.push(d);
    g.indices.push(i);
  });
  return out;
}

/**
 * `rules` (of `game`) with the frame groups that list most moves of a role complemented; the
 * new y atoms are numbered from `firstAtom` on, one per distinct set of complemented moves.
 */
export function complementMoves(game: GroundGame, rules: readonly GroundRule[], firstAtom: number): { rules: GroundRule[]; added: number } {
  const does = keywordSymbols(game.terms).does;
  const isDoes = (a: number): boolean => game.atoms[a]!.rel === does;
  const p = playable(game, rules);
  const dropped = new Uint8Array(rules.length);
  const made: GroundRule[] = [];
  const yOf = new Map<string, number>();
  let next = firstAtom;
  for (const g of groups(rules, isDoes, p).values()) {
    if (g.indices.length < MIN_GROUP) continue;
    const parts = [...g.byRole].map(([r, list]) => {
      const listed = new Set(list);
      return { r, moves: listed, others: p.moves[r]!.filter((d) => !listed.has(d)) };
    });
    if (!parts.some((x) => x.others.length < x.moves.size)) continue;
    for (const i of g.indices) dropped[i] = 1;
    for (const { r, moves, others } of parts) {
      if (others.length >= moves.size) {
        // This role's moves stay listed: each one's rule as it was.
        for (const d of moves) made.push({ head: g.rule.head, pos: [...g.rule.pos, d], neg: g.rule.neg });
        continue;
      }
      // Every move of r is among them: the rule holds whatever r does.
      if (others.length === 0) {
        made.push(g.rule);
        continue;
      }
      const key = `${r}:${others.join(',')}`;
      let y = yOf.get(key);
      if (y === undefined) {
        yOf.set(key, (y = next++));
        for (const d of others) made.push({ head: y, pos: [d], neg: [] });
      }
      made.push({ head: g.rule.head, pos: g.rule.pos, neg: [...g.rule.neg, y] });
    }
  }
  if (next === firstAtom && made.length === 0) return { rules: rules.slice(), added: 0 };
  return { rules: [...rules.filter((_, i) => dropped[i] === 0), ...made], added: next - firstAtom };
}
