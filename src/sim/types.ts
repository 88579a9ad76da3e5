/**
 * What the two simulators share, so that `verify` can play the original game (reasoner) and
 * the ground game (simulator) side by side through one interface.
 */
import type { Term } from '../gdl/ast.js';
import { compareCodePoints } from '../gdl/terms.js';

/** A ground term together with its KIF text (the text is what states and moves compare by). */
export interface GroundItem {
  readonly text: string;
  readonly term: Term;
}

/** A game state: its fluents, sorted by text (code point order), without duplicates. */
export type GameState = readonly GroundItem[];

/** What holds in one state, per role in the order of {@link GameSimulator.roles}. */
export interface StateInfo {
  /** Legal moves of each role, sorted by text. */
  readonly legal: readonly (readonly GroundItem[])[];
  readonly terminal: boolean;
  /** Goal values of each role, as constant texts, sorted (a well-formed game has one). */
  readonly goals: readonly (readonly string[])[];
}

/** A game that can be played: the common face of the reasoner and the ground simulator. */
export interface GameSimulator {
  /** The roles, in the order of the description. */
  readonly roles: readonly GroundItem[];
  /** The initial state. */
  initialState(): GameState;
  /** Legal moves, terminal and goal values in `state`. */
  info(state: GameState): StateInfo;
  /** The successor of `state` after the joint move `moves` (one move per role, in role order). */
  successor(state: GameState, moves: readonly GroundItem[]): GameState;
}

/** Turns terms into items sorted by text, dropping duplicates. */
export function toItems(terms: Iterable<Term>, text: (t: Term) => string): GroundItem[] {
  const byText = new Map<string, Term>();
  for (const term of terms) {
    const key = text(term);
    if (!byText.has(key)) byText.set(key, term);
  }
  return [...byText.keys()].sort(compareCodePoints).map((k) => ({ text: k, term: byText.get(k)! }));
}
