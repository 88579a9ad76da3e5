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
import { type MoveSets, moveCondition, moveSets } from './move-sets.js';

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

/**
 * A role's part of a frame group: its moves listed one rule each (`simple`, the rules `head <=
 * rest, (does r J)`), and the moves under which some other rule of the group holds (`allowed`,
 * from rules whose move literals are several does atoms of r or disjunctions of them, negated or
 * not: move-sets.ts).
 */
interface Part {
  readonly simple: number[];
  readonly simpleRules: number[];
  readonly allowed: Set<number>;
  readonly general: number[];
  /** Move literals of the general rules: a part of one general rule with one is left as it is (already a frame over one set). */
  literals: number;
}

/** A frame group: the rules `head <= rest, M` where M is a condition on one role's move, by role. */
interface Group {
  readonly rule: GroundRule;
  readonly byRole: Map<number, Part>;
  readonly indices: number[];
}

/** The group of key `key` in `out`, made with `rule` (head and rest) when new. */
function groupOf(out: Map<string, Group>, rule: GroundRule): Group {
  const pos = [...rule.pos].sort((x, y) => x - y);
  const neg = [...rule.neg].sort((x, y) => x - y);
  const key = `${rule.head}|${pos.join(',')}|${neg.join(',')}`;
  let g = out.get(key);
  if (g === undefined) out.set(key, (g = { rule: { head: rule.head, pos, neg }, byRole: new Map(), indices: [] }));
  return g;
}

/** Role r's part of group g. */
function partOf(g: Group, r: number): Part {
  let part = g.byRole.get(r);
  if (part === undefined) g.byRole.set(r, (part = { simple: [], simpleRules: [], allowed: new Set(), general: [], literals: 0 }));
  return part;
}

/**
 * The rules grouped by head and the rest of their body: those with a single playable does
 * literal (`simple`), and those whose move literals are a condition on one role's move
 * (`general`, moveCondition in move-sets.ts).
 */
function groups(rules: readonly GroundRule[], isDoes: (a: number) => boolean, p: Playable, ors: MoveSets): Map<string, Group> {
  const out = new Map<string, Group>();
  rules.forEach((r, i) => {
    const d = onlyDoes(r, isDoes);
    if (d >= 0) {
      if (p.roleOf[d]! < 0) return;
      const g = groupOf(out, { head: r.head, pos: r.pos.filter((a) => a !== d), neg: r.neg });
      const part = partOf(g, p.roleOf[d]!);
      part.simple.push(d);
      part.simpleRules.push(i);
      g.indices.push(i);
      return;
    }
    const c = moveCondition(r, isDoes, p.roleOf, p.moves, ors);
    if (c === undefined) return;
    const part = partOf(groupOf(out, c.rest), c.role);
    part.general.push(i);
    part.literals += c.literals;
    for (const m of c.allowed) part.allowed.add(m);
  });
  return out;
}

/** What the rewriting makes: the rules, the new y atoms numbered from `next` on, one per set of moves. */
interface Made {
  readonly rules: GroundRule[];
  readonly yOf: Map<string, number>;
  next: number;
}

/**
 * `head <= rest, (not y)` with y the disjunction of `others`: one atom per set, or the game's own
 * disjunction of exactly those moves when `ors` is given (general parts; simple parts make their
 * own, as before there were general ones).
 */
function unless(made: Made, rule: GroundRule, r: number, others: readonly number[], ors?: MoveSets): void {
  const key = `${r}:${others.join(',')}`;
  let y = made.yOf.get(key) ?? ors?.atomOf.get(others.join(','));
  if (y === undefined) {
    made.yOf.set(key, (y = made.next++));
    for (const d of others) made.rules.push({ head: y, pos: [d], neg: [] });
  }
  made.rules.push({ head: rule.head, pos: rule.pos, neg: [...rule.neg, y] });
}

/**
 * `rules` (of `game`) with the frame groups that list most moves of a role complemented; the
 * new y atoms are numbered from `firstAtom` on, one per distinct set of complemented moves.
 */
export function complementMoves(game: GroundGame, rules: readonly GroundRule[], firstAtom: number): { rules: GroundRule[]; added: number } {
  const does = keywordSymbols(game.terms).does;
  const isDoes = (a: number): boolean => game.atoms[a]!.rel === does;
  const p = playable(game, rules);
  const ors = moveSets(rules, isDoes, p.roleOf);
  const dropped = new Uint8Array(rules.length);
  const made: Made = { rules: [], yOf: new Map(), next: firstAtom };
  for (const g of groups(rules, isDoes, p, ors).values()) {
    complementGeneral(g, p, made, dropped, ors);
    complementSimple(g, p, made, dropped);
  }
  if (made.next === firstAtom && made.rules.length === 0) return { rules: rules.slice(), added: 0 };
  return { rules: [...rules.filter((_, i) => dropped[i] === 0), ...made.rules], added: made.next - firstAtom };
}

/** The parts of group g whose rules are single does literals, complemented as the module's doc says when g has enough of them. */
function complementSimple(g: Group, p: Playable, made: Made, dropped: Uint8Array): void {
  if (g.indices.length < MIN_GROUP) return;
  const parts = [...g.byRole].filter(([, part]) => part.simple.length > 0 && part.general.length === 0).map(([r, part]) => {
    const listed = new Set(part.simple);
    return { r, moves: listed, others: p.moves[r]!.filter((d) => !listed.has(d)) };
  });
  if (!parts.some((x) => x.others.length < x.moves.size)) return;
  for (const [, part] of g.byRole) if (part.general.length === 0) for (const i of part.simpleRules) dropped[i] = 1;
  for (const { r, moves, others } of parts) {
    // This role's moves stay listed: each one's rule as it was.
    if (others.length >= moves.size) for (const d of moves) made.rules.push({ head: g.rule.head, pos: [...g.rule.pos, d], neg: g.rule.neg });
    // Every move of r is among them: the rule holds whatever r does.
    else if (others.length === 0) made.rules.push(g.rule);
    else unless(made, g.rule, r, others);
  }
}

/**
 * The parts of group g with general rules (a move condition other than one does literal):
 * with K the moves under which some rule of the part holds, `head <= rest` when K is every
 * playable move of the role, `head <= rest, (not y)` with y over the others when they are
 * fewer than K, else left as they are. Held-out CHINESECHECKERS6_S's cells are kept by
 * `(split-1 r) (not (split-2 r c))` ("r moved, not from or to c") and by r's noop: K is every
 * move not touching c, so `(not (split-2 r c))` alone, which frames.ts takes as "kept unless".
 */
function complementGeneral(g: Group, p: Playable, made: Made, dropped: Uint8Array, ors: MoveSets): void {
  for (const [r, part] of g.byRole) {
    if (part.general.length === 0 || (part.general.length === 1 && part.simple.length === 0 && part.literals === 1)) continue;
    const k = new Set([...part.allowed, ...part.simple]);
    const others = p.moves[r]!.filter((d) => !k.has(d)).sort((x, y) => x - y);
    if (others.length >= k.size) continue;
    for (const i of [...part.general, ...part.simpleRules]) dropped[i] = 1;
    if (others.length === 0) made.rules.push(g.rule);
    else unless(made, g.rule, r, others, ors);
  }
}
