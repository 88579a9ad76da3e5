// STUB — owned by the issue-5 (instantiation) helper, who replaces this file.
import type { GroundGame } from '../ground/types.js';

/** The ground game as JSON with integer ids, for programs. */
export function emitJson(game: GroundGame): string {
  void game;
  throw new Error('emitJson: not implemented yet');
}
