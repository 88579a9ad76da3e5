/**
 * Keyword relations read inside the lazy program (docs/lazy.md). alexChess's lazy
 * `hasAnyLegalMoves` reads `(legal ?player castleKingside)`: the lazy program must then
 * evaluate `legal` itself, but the keyword's rules belong to the ground part (and to the lazy
 * rules, whose heads are over-approximated), so it cannot join the program as it is. The game is
 * rewritten instead: every body literal over such a keyword reads a fresh relation with a copy
 * of the keyword's rules, an equivalent game (`legal_read(R, M)` holds exactly when
 * `legal(R, M)` does), whose copy is an ordinary relation the lazy program can hold.
 */
import type { Atom } from '../gdl/ast.js';
import { READ_KEYWORDS } from '../gdl/keywords.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import { gameSymbols } from './split.js';


/** The keywords of {@link READ_KEYWORDS} that a body of `rules` reads, sorted. */
export function keywordsRead(rules: readonly NormalRule[]): string[] {
  const out = new Set<string>();
  for (const r of rules) for (const l of r.body) if (l.kind !== 'distinct' && READ_KEYWORDS.has(l.atom.rel)) out.add(l.atom.rel);
  return [...out].sort();
}

/**
 * `game` with every body literal over one of `keywords` reading a fresh copy of it instead
 * (`legal_read`, more underscores while the name is taken), and the copy's rules: those of the
 * keyword, renamed in head and body alike.
 */
export function renameKeywordReads(game: NormalGame, keywords: readonly string[]): NormalGame {
  const symbols = gameSymbols(game);
  const fresh = new Map<string, string>();
  for (const k of keywords) {
    let name = `${k}_read`;
    while (symbols.has(name)) name += '_';
    fresh.set(k, name);
  }
  const renamed = (a: Atom): Atom => (fresh.has(a.rel) ? { ...a, rel: fresh.get(a.rel)! } : a);
  const body = (ls: readonly Literal[]): Literal[] => ls.map((l) => (l.kind === 'distinct' ? l : { ...l, atom: renamed(l.atom) }));
  const rules = game.rules.map((r): NormalRule => ({ ...r, body: body(r.body) }));
  const copies = game.rules.filter((r) => fresh.has(r.head.rel)).map((r): NormalRule => ({ ...r, head: renamed(r.head), body: body(r.body) }));
  return { ...game, rules: [...rules, ...copies] };
}
