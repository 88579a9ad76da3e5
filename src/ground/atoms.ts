/**
 * Reading a ground game's atoms by id: their text (for output and messages) and the keyword
 * symbols they are classified by. Which atoms are fluents, moves and goals is the game's
 * vocabulary (vocabulary.ts), made once with the game.
 */
import type { TermReader } from '../datalog/terms.js';
import type { GroundGame } from './types.js';
import { atomTerm, atomTerms } from './compact.js';

/** KIF text of atom `id` of `game` (a ground game or one made from it), for output and messages (never for identity). */
export function atomText(game: Pick<GroundGame, 'atoms' | 'terms'>, id: number): string {
  return game.terms.text(atomTerm(game, id));
}

/** Symbol ids of the GDL keywords a ground game is read by; -1 for one the game never uses. */
interface KeywordSymbols {
  readonly true: number;
  readonly next: number;
  readonly does: number;
  readonly legal: number;
  readonly goal: number;
  readonly terminal: number;
}

/** The keyword symbols of `terms`, looked up once so atoms are classified by number. */
export function keywordSymbols(terms: TermReader): KeywordSymbols {
  const s = (name: string): number => terms.findSymbol(name);
  return { true: s('true'), next: s('next'), does: s('does'), legal: s('legal'), goal: s('goal'), terminal: s('terminal') };
}

/**
 * The atoms a lazy part (docs/lazy.md) makes opaque inputs of the ground game: atoms of lazy
 * relations, and the heads its non-ground keyword rules may produce. Empty without one.
 */
export function lazyInputAtoms(game: GroundGame): number[] {
  const lazy = game.lazy;
  if (lazy === undefined) return [];
  const rels = new Set(lazy.relations);
  const heads = new Set(lazy.heads);
  const out: number[] = [];
  const atoms = atomTerms(game);
  for (let i = 0; i < atoms.length; i++) {
    const t = atoms[i]!;
    const name = game.terms.symbolName(game.terms.functor(t));
    if (heads.has(t) || rels.has(name) || rels.has(`${name}/${game.terms.arity(t)}`)) out.push(i);
  }
  return out;
}
