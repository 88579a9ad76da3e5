/**
 * The fluents, moves and goals a ground game mentions, read off its atoms, for the `base` and
 * `input` facts of the GDL output and the tables of the JSON output.
 */
import { compareCodePoints } from '../gdl/terms.js';
import { keywordSymbols, partnerAtoms } from './atoms.js';
import type { GroundGame } from './types.js';

/** A fluent F with the ids of its `(true F)` and `(next F)` atoms (-1 when absent). */
export interface FluentEntry {
  readonly term: string;
  readonly trueId: number;
  readonly nextId: number;
}

/** A move of a role with the ids of its `(does R M)` and `(legal R M)` atoms (-1 when absent). */
export interface MoveEntry {
  readonly role: string;
  readonly action: string;
  readonly doesId: number;
  readonly legalId: number;
}

/** A `(goal R V)` atom. */
export interface GoalEntry {
  readonly role: string;
  readonly value: string;
  readonly id: number;
}

/** Everything a player program needs to name, each list sorted by text. */
export interface Vocabulary {
  readonly fluents: readonly FluentEntry[];
  readonly moves: readonly MoveEntry[];
  readonly goals: readonly GoalEntry[];
  /** Id of the `terminal` atom, -1 when the game has none. */
  readonly terminal: number;
}

/** Sorts entries by a text key (code point order). */
function byText<T>(entries: [string, T][]): T[] {
  return entries.sort((x, y) => compareCodePoints(x[0], y[0])).map((e) => e[1]);
}

/**
 * Collects the fluents, moves, goals and `terminal` of a ground game. A fluent pairs its
 * `(true F)` and `(next F)` atoms, a move its `(does R M)` and `(legal R M)` atoms, found by id;
 * text is made for the output and its order only.
 */
export function vocabulary(game: GroundGame): Vocabulary {
  const { terms } = game;
  const kw = keywordSymbols(terms);
  const partner = partnerAtoms(game, [[kw.true, kw.next], [kw.next, kw.true], [kw.does, kw.legal], [kw.legal, kw.does]]);
  const fluents: [string, FluentEntry][] = [];
  const moves: [string, MoveEntry][] = [];
  const goals: GoalEntry[] = [];
  let terminal = -1;
  const text = (t: number): string => terms.text(t);
  game.atoms.forEach((a, id) => {
    const other = partner[id]!;
    if ((a.rel === kw.true || a.rel === kw.next) && a.args.length === 1) {
      // Each fluent once: from its true atom, or from its next atom when it has no true atom.
      if (a.rel === kw.next && other >= 0) return;
      const [trueId, nextId] = a.rel === kw.true ? [id, other] : [-1, id];
      const term = text(a.args[0]!);
      fluents.push([term, { term, trueId, nextId }]);
    } else if ((a.rel === kw.does || a.rel === kw.legal) && a.args.length === 2) {
      if (a.rel === kw.legal && other >= 0) return;
      const [doesId, legalId] = a.rel === kw.does ? [id, other] : [-1, id];
      const role = text(a.args[0]!);
      const action = text(a.args[1]!);
      moves.push([`(${role} ${action})`, { role, action, doesId, legalId }]);
    } else if (a.rel === kw.goal && a.args.length === 2) {
      goals.push({ role: text(a.args[0]!), value: text(a.args[1]!), id });
    } else if (a.rel === kw.terminal && a.args.length === 0) {
      terminal = id;
    }
  });
  return { fluents: byText(fluents), moves: byText(moves), goals, terminal };
}
