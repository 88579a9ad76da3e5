// STUB — owned by the issue-5 (instantiation) helper, who replaces this file.
import type { GroundGame } from '../ground/types.js';

/** The ground game as GDL text, deterministic byte for byte. */
export function emitGdl(game: GroundGame): string {
  void game;
  throw new Error('emitGdl: not implemented yet');
}
