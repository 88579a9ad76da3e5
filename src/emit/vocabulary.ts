/**
 * The fluents, moves and goals a ground game mentions, read off its atoms, for the `base` and
 * `input` facts of the GDL output and the tables of the JSON output.
 */
import { compareCodePoints } from '../gdl/terms.js';
import { keywordSymbols } from '../ground/atoms.js';
import type { GroundGame } from '../ground/types.js';

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

/** Collects the fluents, moves, goals and `terminal` of a ground game. */
export function vocabulary(game: GroundGame): Vocabulary {
  const fluents = new Map<string, { trueId: number; nextId: number }>();
  const moves = new Map<string, { role: string; action: string; doesId: number; legalId: number }>();
  const goals: GoalEntry[] = [];
  let terminal = -1;
  const kw = keywordSymbols(game.terms);
  const arg = (args: readonly number[], i: number): string => game.terms.text(args[i]!);
  game.atoms.forEach((a, id) => {
    if ((a.rel === kw.true || a.rel === kw.next) && a.args.length === 1) {
      const f = arg(a.args, 0);
      const e = fluents.get(f) ?? { trueId: -1, nextId: -1 };
      fluents.set(f, a.rel === kw.true ? { ...e, trueId: id } : { ...e, nextId: id });
    } else if ((a.rel === kw.does || a.rel === kw.legal) && a.args.length === 2) {
      const role = arg(a.args, 0);
      const action = arg(a.args, 1);
      const key = `(${role} ${action})`;
      const e = moves.get(key) ?? { role, action, doesId: -1, legalId: -1 };
      moves.set(key, a.rel === kw.does ? { ...e, doesId: id } : { ...e, legalId: id });
    } else if (a.rel === kw.goal && a.args.length === 2) {
      goals.push({ role: arg(a.args, 0), value: arg(a.args, 1), id });
    } else if (a.rel === kw.terminal && a.args.length === 0) {
      terminal = id;
    }
  });
  const byKey = <T>(m: Map<string, T>): [string, T][] => [...m.entries()].sort((x, y) => compareCodePoints(x[0], y[0]));
  return {
    fluents: byKey(fluents).map(([term, e]) => ({ term, ...e })),
    moves: byKey(moves).map(([, e]) => e),
    goals,
    terminal,
  };
}
