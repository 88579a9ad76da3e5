/**
 * GDL-II (docs/gdl2.md): what makes a game one. A game is GDL-II when a rule or fact has a
 * `sees` head or a role is the reserved `random`; the planner formats, which have no
 * percepts and no chance player, refuse such a game and name the first of these.
 */
import type { GameDescription, Pos } from './ast.js';
import { RANDOM_ROLE, SEES } from './keywords.js';

/** The first GDL-II construct of a game, by position: a `sees` rule or the `random` role. */
interface Gdl2Feature {
  readonly kind: 'sees' | 'random';
  readonly pos: Pos;
}

/** The first `sees` rule or `(role random)` fact of `game` in the text, or undefined for plain GDL. */
export function firstGdl2Feature(game: GameDescription): Gdl2Feature | undefined {
  let first: Gdl2Feature | undefined;
  for (const rule of game.rules) {
    const h = rule.head;
    const isRandom = h.rel === 'role' && h.args.length === 1 && h.args[0]!.kind === 'const' && h.args[0]!.name === RANDOM_ROLE;
    if (h.rel !== SEES && !isRandom) continue;
    const at = rule.pos;
    if (first === undefined || at.line < first.pos.line || (at.line === first.pos.line && at.col < first.pos.col)) {
      first = { kind: isRandom ? 'random' : 'sees', pos: at };
    }
  }
  return first;
}
