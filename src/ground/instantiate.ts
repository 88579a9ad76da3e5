// STUB — owned by the issue-5 (instantiation) helper, who replaces this file.
import type { NormalGame } from '../normalize/types.js';
import type { Supersets } from '../reach/types.js';
import type { GroundGame } from './types.js';

/** Instantiates every normalized rule by joining the supersets (section 9.1.3). */
export function instantiateGame(game: NormalGame, supersets: Supersets): GroundGame {
  void game; void supersets;
  throw new Error('instantiateGame: not implemented yet');
}
