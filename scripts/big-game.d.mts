// Types of scripts/big-game.mjs, the generator of large inputs for the parse/validate scale checks.

/** What {@link bigGame} makes. */
export interface BigGameOptions {
  /** Generated static facts, about 100 bytes each (default 500,000: about 50 MB). */
  readonly facts?: number;
  /** All facts on one line. */
  readonly oneLine?: boolean;
}

/** ticTacToe, a rule reading the generated facts, and the facts, as text. */
export function bigGame(options?: BigGameOptions): string;
