/**
 * The ground game's vocabulary: its fluents, moves, goals and `terminal`, with the ids of the
 * atoms that read and make them. It is computed once, with the ground game
 * ({@link groundVocabulary}, called by the one canonicalization, assemble.ts), and carried
 * along (`GroundGame.vocabulary`); a game whose atoms are only renumbered gets it renumbered
 * ({@link renumberVocabulary}). The writers, the simulators, the mutex stage and ground
 * reachability read it; none classifies the atoms again.
 */
import type { TermReader } from '../datalog/terms.js';
import { sortByArgumentTexts, sortTermsByText } from './text-order.js';
import type { FluentEntry, GoalEntry, GroundAtom, MoveEntry, Vocabulary } from './types.js';

export type { Vocabulary };

/** What the vocabulary is read from: the atoms of a ground game and their term table. */
interface VocabularySource {
  readonly terms: TermReader;
  readonly atoms: readonly GroundAtom[];
}


/** Mutable entries while the atoms are read. */
interface Draft {
  fluents: Map<number, { term: number; trueId: number; nextId: number }>;
  moves: Map<number, Map<number, { role: number; action: number; doesId: number; legalId: number }>>;
}

/** Files atom `id` (term `t`, functor `rel`) under its fluent or move, if it is a true, next, does or legal atom; false otherwise. */
function file(draft: Draft, kw: Record<'true' | 'next' | 'does' | 'legal', number>, terms: TermReader, t: number, id: number): boolean {
  const rel = terms.functor(t);
  const n = terms.arity(t);
  if ((rel === kw.true || rel === kw.next) && n === 1) {
    const f = terms.arg(t, 0);
    const e = draft.fluents.get(f) ?? { term: f, trueId: -1, nextId: -1 };
    draft.fluents.set(f, e);
    if (rel === kw.true) e.trueId = id;
    else e.nextId = id;
    return true;
  }
  if ((rel === kw.does || rel === kw.legal) && n === 2) {
    const [role, action] = [terms.arg(t, 0), terms.arg(t, 1)];
    const ofRole = draft.moves.get(role) ?? new Map();
    draft.moves.set(role, ofRole);
    const e = ofRole.get(action) ?? { role, action, doesId: -1, legalId: -1 };
    ofRole.set(action, e);
    if (rel === kw.does) e.doesId = id;
    else e.legalId = id;
    return true;
  }
  return false;
}

/**
 * The vocabulary of a ground game's atoms: a fluent pairs its `(true F)` and `(next F)` atoms,
 * a move its `(does R M)` and `(legal R M)` atoms, by term id; text is made only to sort them.
 */
export function groundVocabulary(game: VocabularySource): Vocabulary {
  return vocabularyOfTerms(game.terms, game.atoms.map((a) => a.term));
}

/** {@link groundVocabulary} of the atoms with term ids `atoms` (id = index), read from `terms` without atom objects. */
export function vocabularyOfTerms(terms: TermReader, atoms: ArrayLike<number>): Vocabulary {
  const s = (name: string): number => terms.findSymbol(name);
  const kw = { true: s('true'), next: s('next'), does: s('does'), legal: s('legal') };
  const goal = s('goal');
  const terminalSymbol = s('terminal');
  const draft: Draft = { fluents: new Map(), moves: new Map() };
  const goals: GoalEntry[] = [];
  let terminal = -1;
  for (let id = 0; id < atoms.length; id++) {
    const t = atoms[id]!;
    if (file(draft, kw, terms, t, id)) continue;
    const rel = terms.functor(t);
    if (rel === goal && terms.arity(t) === 2) goals.push({ role: terms.arg(t, 0), value: terms.arg(t, 1), id });
    else if (rel === terminalSymbol && terms.arity(t) === 0) terminal = id;
  }
  return { fluents: fluentsByText(terms, draft), moves: movesByText(terms, atoms, draft), goals, terminal };
}

/** The fluents in the text order of their terms (text-order.ts: no text made per fluent). */
function fluentsByText(terms: TermReader, draft: Draft): FluentEntry[] {
  return sortTermsByText(terms, [...draft.fluents.keys()]).map((f) => draft.fluents.get(f)!);
}

/**
 * The moves in the order of their `does` atoms, or else of their `legal` atoms, when every move
 * has one (undefined otherwise). The atoms are in text order and the texts of one kind share
 * their prefix (`(does `), so that is the text order of `(R M)` without sorting anything
 * (amazonsTorus: 259,200 moves, a tenth of its assembly sorting them again).
 */
function movesByAtoms(atoms: number, draft: Draft): MoveEntry[] | undefined {
  for (const kind of ['doesId', 'legalId'] as const) {
    const at: (MoveEntry | undefined)[] = [];
    let all = true;
    for (const ofRole of draft.moves.values()) for (const e of ofRole.values()) all &&= e[kind] >= 0;
    if (!all) continue;
    // Pushed in atom order through a table of atoms (`new Array(n)` past 100,000 entries is a slow dictionary).
    const slot = new Int32Array(atoms).fill(-1);
    for (const ofRole of draft.moves.values()) for (const e of ofRole.values()) (slot[e[kind]] = at.length), at.push(e);
    const out: MoveEntry[] = [];
    for (let id = 0; id < atoms; id++) if (slot[id]! >= 0) out.push(at[slot[id]!]!);
    return out;
  }
  return undefined;
}

/**
 * The moves in the text order of `(R M)` (amazons: 173,962 of them), which is the order of
 * their `does` or `legal` atoms' argument lists: each move read off one of its atoms.
 */
function movesByText(terms: TermReader, atoms: ArrayLike<number>, draft: Draft): MoveEntry[] {
  const inOrder = movesByAtoms(atoms.length, draft);
  if (inOrder !== undefined) return inOrder;
  const byAtom = new Map<number, MoveEntry>();
  for (const ofRole of draft.moves.values()) for (const e of ofRole.values()) byAtom.set(atoms[e.doesId >= 0 ? e.doesId : e.legalId]!, e);
  return sortByArgumentTexts(terms, [...byAtom.keys()]).map((t) => byAtom.get(t)!);
}

/**
 * The vocabulary after the atoms were renumbered by `renumber` (old id to new, -1 for an atom
 * dropped), monotone, as restricting a sorted atom list is: the orders stay, and an entry whose
 * atoms are all dropped goes. The same as {@link groundVocabulary} of the new atoms, without text.
 */
export function renumberVocabulary(vocab: Vocabulary, renumber: Int32Array): Vocabulary {
  const to = (id: number): number => (id < 0 ? -1 : renumber[id]!);
  // One loop per list, each entry made with all its fields at once (amazonsTorus: 259,202 moves).
  const fluents: FluentEntry[] = [];
  for (const f of vocab.fluents) {
    const trueId = to(f.trueId);
    const nextId = to(f.nextId);
    if (trueId >= 0 || nextId >= 0) fluents.push({ term: f.term, trueId, nextId });
  }
  const moves: MoveEntry[] = [];
  for (const m of vocab.moves) {
    const doesId = to(m.doesId);
    const legalId = to(m.legalId);
    if (doesId >= 0 || legalId >= 0) moves.push({ role: m.role, action: m.action, doesId, legalId });
  }
  const goals = vocab.goals.map((g) => ({ ...g, id: to(g.id) })).filter((g) => g.id >= 0);
  return { fluents, moves, goals, terminal: to(vocab.terminal) };
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
