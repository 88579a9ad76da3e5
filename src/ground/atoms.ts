/**
 * Reading a ground game's atoms by id: their text (for output and messages) and the keyword
 * symbols they are classified by. Which atoms are fluents, moves and goals is the game's
 * vocabulary (vocabulary.ts), made once with the game.
 */
import type { TermReader } from '../datalog/terms.js';
import type { GroundGame, GroundRule } from './types.js';

/** KIF text of atom `id` of `game` (a ground game or one made from it), for output and messages (never for identity). */
export function atomText(game: Pick<GroundGame, 'atoms' | 'terms'>, id: number): string {
  return game.terms.text(game.atoms[id]!.term);
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
  game.atoms.forEach((a, i) => {
    const name = game.terms.symbolName(a.rel);
    if (heads.has(a.term) || rels.has(name) || rels.has(`${name}/${a.args.length}`)) out.push(i);
  });
  return out;
}

/** Marks (1) every atom that `init` or a rule of `rules` mentions, over `count` atoms; `tick` once per rule (a caller's deadline). */
export function usedAtoms(count: number, init: readonly number[], rules: readonly GroundRule[], tick: () => void = () => {}): Uint8Array {
  const used = new Uint8Array(count);
  for (const id of init) used[id] = 1;
  // Indexed loops: bodies are frozen shared empty arrays or plain ones, and iterators over
  // that mix were a tenth of instantiation on the largest games.
  for (let i = 0; i < rules.length; i++) {
    tick();
    const r = rules[i]!;
    used[r.head] = 1;
    for (let j = 0; j < r.pos.length; j++) used[r.pos[j]!] = 1;
    for (let j = 0; j < r.neg.length; j++) used[r.neg[j]!] = 1;
  }
  return used;
}
