/**
 * The one place where src/axioms/ looks at what an atom *is*. Everything else in this folder
 * works on atom ids and the rule structure (head, pos, neg), so a change of the atom's shape
 * (term ids over the game's term table) is a change of this file alone.
 */
import { PLAY_KEYWORDS, isOutputKeyword } from '../gdl/keywords.js';
import type { GroundGame } from '../ground/types.js';
import { atomTerm, atomTerms } from '../ground/compact.js';

/** What the functions here read of a game: its atoms and terms (a GroundGame or a game made from one). */
type AtomSource = Pick<GroundGame, 'atoms' | 'terms'>;

/**
 * The role of a ground atom in play: the state and move inputs (`true`, `does`), the four
 * outputs whose rules define the game (`next`, `legal`, `goal`, `terminal`), or an axiom.
 */
export type AtomKind = 'true' | 'does' | 'next' | 'legal' | 'goal' | 'terminal' | 'axiom';


/** The kind of atom `id` of `game`. */
export function atomKind(game: AtomSource, id: number): AtomKind {
  const rel = atomRelation(game, id);
  return PLAY_KEYWORDS.has(rel) ? (rel as AtomKind) : 'axiom';
}

/** The relation constant of atom `id` (for reports). */
export function atomRelation(game: AtomSource, id: number): string {
  return game.terms.symbolName(game.terms.functor(atomTerm(game, id)));
}


/**
 * Per atom id of `game`, whether it is an output of play ({@link isOutput}): decided once per
 * relation symbol, not by the relation's name per atom (amazonsTorus: 1.2 million atoms).
 */
export function outputAtoms(game: GroundGame): Uint8Array {
  const { terms } = game;
  const atoms = atomTerms(game);
  const bySymbol = new Uint8Array(terms.symbolCount);
  for (let sym = 0; sym < bySymbol.length; sym++) {
    const name = terms.symbolName(sym);
    bySymbol[sym] = PLAY_KEYWORDS.has(name) && isOutput(name as AtomKind) ? 1 : 0;
  }
  const out = new Uint8Array(atoms.length);
  for (let id = 0; id < atoms.length; id++) out[id] = bySymbol[terms.functor(atoms[id]!)]!;
  return out;
}

/** True for the outputs of play, whose rules every transformation must keep: next, legal, goal, terminal. */
export function isOutput(kind: AtomKind): boolean {
  return isOutputKeyword(kind);
}
