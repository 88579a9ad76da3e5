/**
 * What the two simulators share, so that `verify` can play the original game (reasoner) and
 * the ground game (simulator) side by side through one interface. Each simulator keeps states,
 * moves and goal values in its own form (the reasoner as syntax trees with their text, the
 * ground simulator as bitsets and atom ids); text is made only through {@link SimulatorText},
 * where `verify` compares and reports.
 */
import type { Term } from '../gdl/ast.js';
import { compareCodePoints } from '../gdl/terms.js';

/** What holds in one state, per role in the order of {@link GameSimulator.roles}. */
export interface StateInfo<Move, Value> {
  /** Legal moves of each role, each move once. */
  readonly legal: readonly (readonly Move[])[];
  readonly terminal: boolean;
  /** Goal values of each role (a well-formed game has one). */
  readonly goals: readonly (readonly Value[])[];
}

/** How a simulator's states, moves and goal values read as KIF text. */
export interface SimulatorText<State, Move, Value> {
  /** The fluents of `state` as texts, sorted (code point order). */
  state(state: State): readonly string[];
  /** The text of a move (the M of `(does R M)`). */
  move(move: Move): string;
  /** The text of a goal value. */
  value(value: Value): string;
}

/** A game that can be played: the common face of the reasoner and the ground simulator. */
export interface GameSimulator<State, Move, Value> {
  /** The roles' texts, in the order of the description. */
  readonly roles: readonly string[];
  /** The initial state. */
  initialState(): State;
  /** Legal moves, terminal and goal values in `state`. */
  info(state: State): StateInfo<Move, Value>;
  /** The successor of `state` after the joint move `moves` (one move per role, in role order). */
  successor(state: State, moves: readonly Move[]): State;
  /**
   * GDL-II (docs/gdl2.md): what each role perceives, `(sees R P)`, after the joint move `moves`
   * in `state`, as the texts of the percepts P per role in role order, sorted (code point
   * order), each once. Absent for simulators of formats without percepts (GDDL, RDDL).
   */
  percepts?(state: State, moves: readonly Move[]): readonly (readonly string[])[];
  /** Text of states, moves and values, for comparison and reports only. */
  readonly text: SimulatorText<State, Move, Value>;
}

/** A ground term together with its KIF text (the reasoner's states and moves). */
export interface GroundItem {
  readonly text: string;
  readonly term: Term;
}

/** A reasoner state: its fluents, sorted by text (code point order), without duplicates. */
export type GameState = readonly GroundItem[];

/** A simulator whose states and moves are items and whose goal values are texts (the reasoner). */
export type ItemSimulator = GameSimulator<GameState, GroundItem, string>;

/** The text view of an {@link ItemSimulator}: items carry their text. */
export const ITEM_TEXT: SimulatorText<GameState, GroundItem, string> = {
  state: (state) => state.map((f) => f.text),
  move: (move) => move.text,
  value: (value) => value,
};

/** Turns terms into items sorted by text, dropping duplicates. */
export function toItems(terms: Iterable<Term>, text: (t: Term) => string): GroundItem[] {
  const byText = new Map<string, Term>();
  for (const term of terms) {
    const key = text(term);
    if (!byText.has(key)) byText.set(key, term);
  }
  return [...byText.keys()].sort(compareCodePoints).map((k) => ({ text: k, term: byText.get(k)! }));
}
