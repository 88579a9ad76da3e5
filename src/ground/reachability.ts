// STUB — owned by the issue-6 helper, who replaces this file.
import type { GroundGame } from './types.js';

/**
 * Post-processing at the end of 9.1.3: relaxed reachability over the ground rules (negative
 * literals ignored); keeps only rules whose heads and positive bodies are reachable.
 */
export function pruneUnreachable(game: GroundGame): GroundGame {
  return game;
}
