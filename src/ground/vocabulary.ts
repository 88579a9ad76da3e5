/**
 * The ground game's vocabulary: its fluents, moves, goals and `terminal`, with the ids of the
 * atoms that read and make them. It is computed once, with the ground game
 * ({@link groundVocabulary}, called by the one canonicalization, assemble.ts), and carried
 * along (`GroundGame.vocabulary`); a game whose atoms are only renumbered gets it renumbered
 * ({@link renumberVocabulary}). The writers, the simulators, the mutex stage and ground
 * reachability read it; none classifies the atoms again.
 */
import type { TermReader } from '../datalog/terms.js';
import { compareCodePoints } from '../gdl/terms.js';
import { sortTermsByText } from './text-order.js';
import type { FluentEntry, GoalEntry, GroundAtom, MoveEntry, Vocabulary } from './types.js';

export type { Vocabulary };

/** What the vocabulary is read from: the atoms of a ground game and their term table. */
interface VocabularySource {
  readonly terms: TermReader;
  readonly atoms: readonly GroundAtom[];
}


/** The fluents while the atoms are read: a fluent's `(true F)` and `(next F)` atoms by its term. */
type FluentDraft = Map<number, { term: number; trueId: number; nextId: number }>;

/** Files atom `id`, `(true F)` or `(next F)` (`isTrue`), under fluent `f`. */
function fileFluent(fluents: FluentDraft, f: number, id: number, isTrue: boolean): void {
  const e = fluents.get(f) ?? { term: f, trueId: -1, nextId: -1 };
  fluents.set(f, e);
  if (isTrue) e.trueId = id;
  else e.nextId = id;
}

/**
 * The vocabulary of a ground game's atoms: a fluent pairs its `(true F)` and `(next F)` atoms,
 * a move its `(does R M)` and `(legal R M)` atoms, by term id; text is made only to sort them.
 */
export function groundVocabulary(game: VocabularySource): Vocabulary {
  return vocabularyOfTerms(game.terms, game.atoms.map((a) => a.term));
}

/**
 * {@link groundVocabulary} of the atoms with term ids `atoms` (id = index, in text order), read
 * from `terms` without atom objects.
 */
export function vocabularyOfTerms(terms: TermReader, atoms: ArrayLike<number>): Vocabulary {
  const s = (name: string): number => terms.findSymbol(name);
  const kw = { true: s('true'), next: s('next'), does: s('does'), legal: s('legal') };
  const goal = s('goal');
  const terminalSymbol = s('terminal');
  const fluents: FluentDraft = new Map();
  const moveAtoms: MoveAtoms = { does: [], legal: [] };
  const goals: GoalEntry[] = [];
  let terminal = -1;
  for (let id = 0; id < atoms.length; id++) {
    const t = atoms[id]!;
    const rel = terms.functor(t);
    const n = terms.arity(t);
    if ((rel === kw.true || rel === kw.next) && n === 1) fileFluent(fluents, terms.arg(t, 0), id, rel === kw.true);
    else if (rel === kw.does && n === 2) moveAtoms.does.push(id);
    else if (rel === kw.legal && n === 2) moveAtoms.legal.push(id);
    else if (rel === goal && n === 2) goals.push({ role: terms.arg(t, 0), value: terms.arg(t, 1), id });
    else if (rel === terminalSymbol && n === 0) terminal = id;
  }
  const moves = movesInOrder({ terms, atoms }, moveAtoms);
  return { fluents: fluentsByText(terms, fluents), moves, goals, terminal };
}

/** The fluents in the text order of their terms (text-order.ts: no text made per fluent). */
function fluentsByText(terms: TermReader, fluents: FluentDraft): FluentEntry[] {
  return sortTermsByText(terms, [...fluents.keys()]).map((f) => fluents.get(f)!);
}

/** The `(does R M)` and `(legal R M)` atoms of a game, each list in atom order. */
interface MoveAtoms {
  readonly does: number[];
  readonly legal: number[];
}

/** What pairing a move's atoms reads: the atoms' terms (atom id to term id) and the term table. */
interface MoveSource {
  readonly terms: TermReader;
  readonly atoms: ArrayLike<number>;
}

/** A move entry of `own`'s atom `id` (of role `role` and action `action`) and its partner (-1: none) of the other kind. */
function moveEntry(ownIsDoes: boolean, role: number, action: number, id: number, partner: number): MoveEntry {
  return ownIsDoes ? { role, action, doesId: id, legalId: partner } : { role, action, doesId: partner, legalId: id };
}

/**
 * The moves of atoms `own` in their order, each with its partner among atoms `other` (the other
 * kind), when every atom of `other` has a partner in `own`; undefined otherwise. Both lists are
 * in the order of `(R M)` (see {@link movesInOrder}), so `other` is then a subsequence of `own`
 * and one merge pairs them, comparing argument ids: no hash probe of the term table per move
 * (amazons: 173,962 finds, ~150 ms, a cache miss or more each). A pair is only ever made of
 * equal arguments, and an atom of `other` left unpaired (the lists not so ordered, or a move of
 * `other` alone) refuses the whole, as soon as fewer atoms of `own` are left than of `other`.
 */
function mergedMoves(src: MoveSource, own: readonly number[], other: readonly number[], ownIsDoes: boolean): MoveEntry[] | undefined {
  const { terms, atoms } = src;
  const moves: MoveEntry[] = [];
  let j = 0;
  for (let i = 0; i < own.length; i++) {
    if (other.length - j > own.length - i) return undefined;
    const [id, t] = [own[i]!, atoms[own[i]!]!];
    const [role, action] = [terms.arg(t, 0), terms.arg(t, 1)];
    const o = j < other.length ? atoms[other[j]!]! : -1;
    const partner = o >= 0 && terms.arg(o, 0) === role && terms.arg(o, 1) === action ? other[j++]! : -1;
    moves.push(moveEntry(ownIsDoes, role, action, id, partner));
  }
  return j === other.length ? moves : undefined;
}

/**
 * The moves of both lists (each in the order of `(R M)`) in that order, by one merge: two atoms
 * of equal arguments are one move's pair; else the one whose argument list's text, `R M)`,
 * comes first by code points is a move alone (texts made only there: shogi_ctk has 7,698 does
 * and 7,628 legal atoms over 7,700 moves). Two texts never tie without equal arguments (see
 * {@link argumentTextsTie}).
 */
function unitedMoves(src: MoveSource, atoms: MoveAtoms): MoveEntry[] {
  const { terms } = src;
  const args = (id: number): [number, number] => [terms.arg(src.atoms[id]!, 0), terms.arg(src.atoms[id]!, 1)];
  const text = ([role, action]: [number, number]): string => `${terms.text(role)} ${terms.text(action)})`;
  const { does, legal } = atoms;
  const moves: MoveEntry[] = [];
  let [i, j] = [0, 0];
  while (i < does.length || j < legal.length) {
    const d = i < does.length ? args(does[i]!) : undefined;
    const l = j < legal.length ? args(legal[j]!) : undefined;
    const order = d === undefined ? 1 : l === undefined ? -1 : d[0] === l[0] && d[1] === l[1] ? 0 : compareCodePoints(text(d), text(l));
    if (order === 0 && (d![0] !== l![0] || d![1] !== l![1])) argumentTextsTie(text(d!));
    if (order <= 0) moves.push(moveEntry(true, d![0], d![1], does[i++]!, order === 0 ? legal[j++]! : -1));
    else moves.push(moveEntry(false, l![0], l![1], legal[j++]!, -1));
  }
  return moves;
}

/**
 * Throws: two different argument lists of moves, `(R M)` and `(R' M')`, have the same text
 * `text`. That cannot happen: the term table holds each ground term once (one id per functor
 * and arguments) and a symbol's name once, and no symbol name holds a space or a parenthesis
 * (the reader ends a symbol at either, and the names the grounder makes hold neither), so a term's
 * text is its functor's name or a parenthesized list of such texts, and `R M)` splits into `R`
 * and `M` one way only. Sorting the moves by their texts would not help: the order of two tied
 * moves would be arbitrary.
 */
function argumentTextsTie(text: string): never {
  throw new Error(`vocabulary: two different moves have the argument text '${text}' (impossible: distinct ground terms have distinct texts; a bug)`);
}

/**
 * The moves in the text order of `(R M)` (amazons: 173,962 of them). The atoms are in text order
 * and the texts of one kind share their prefix (`(does `), so both lists are in the moves' order.
 * When the longer list's moves hold the other's, one pass over both pairs them (no text); else
 * one merge of the two, comparing texts where they differ (moves of each kind alone).
 */
function movesInOrder(src: MoveSource, atoms: MoveAtoms): MoveEntry[] {
  const doesLonger = atoms.does.length >= atoms.legal.length;
  const inOrder = doesLonger ? mergedMoves(src, atoms.does, atoms.legal, true) : mergedMoves(src, atoms.legal, atoms.does, false);
  return inOrder ?? unitedMoves(src, atoms);
}

/**
 * The vocabulary after the atoms were renumbered by `renumber` (old id to new, -1 for an atom
 * dropped), monotone, as restricting a sorted atom list is: the orders stay, and an entry whose
 * atoms are all dropped goes. The same as {@link groundVocabulary} of the new atoms, without text.
 */
export function renumberVocabulary(vocab: Vocabulary, renumber: Int32Array): Vocabulary {
  const to = (id: number): number => (id < 0 ? -1 : renumber[id]!);
  // One loop per list, each entry made with all its fields at once (amazonsTorus: 259,202
  // moves), each in a function of its own: V8 compiled one function of the loops again for each.
  const goals = vocab.goals.map((g) => ({ ...g, id: to(g.id) })).filter((g) => g.id >= 0);
  return { fluents: keptFluents(vocab.fluents, to), moves: keptMoves(vocab.moves, to), goals, terminal: to(vocab.terminal) };
}

/** The fluents with an atom left, their atoms renumbered by `to` (-1: dropped). */
function keptFluents(list: readonly FluentEntry[], to: (id: number) => number): FluentEntry[] {
  const fluents: FluentEntry[] = [];
  for (const f of list) {
    const trueId = to(f.trueId);
    const nextId = to(f.nextId);
    // Either is kept (`&` of two ids is negative only when both are): no short circuit, whose
    // second test first runs late, where V8 would compile the loop again.
    if ((trueId & nextId) >= 0) fluents.push({ term: f.term, trueId, nextId });
  }
  return fluents;
}

/** The moves with an atom left, their atoms renumbered by `to` (-1: dropped). */
function keptMoves(list: readonly MoveEntry[], to: (id: number) => number): MoveEntry[] {
  const moves: MoveEntry[] = [];
  for (const m of list) {
    const doesId = to(m.doesId);
    const legalId = to(m.legalId);
    if ((doesId & legalId) >= 0) moves.push({ role: m.role, action: m.action, doesId, legalId });
  }
  return moves;
}

/**
 * Per atom, its partner in the vocabulary: `(true F)` for `(next F)` and `(does R M)` for
 * `(legal R M)`, the bridges of the relaxed game (-1 for other atoms and absent partners).
 */
export function relaxedBridges(vocab: Vocabulary, atoms: number): Int32Array {
  const bridge = new Int32Array(atoms).fill(-1);
  for (const f of vocab.fluents) if (f.nextId >= 0) bridge[f.nextId] = f.trueId;
  for (const m of vocab.moves) if (m.legalId >= 0) bridge[m.legalId] = m.doesId;
  return bridge;
}
