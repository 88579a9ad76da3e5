// STUB — owned by the issue-6 helper, who replaces this file.
import type { NormalGame } from '../../normalize/types.js';
import { type ReachLimits, type ReachResult, DEFAULT_REACH_LIMITS } from '../types.js';

/** Algorithms 9.3 and 9.4: supersets from the argument dependency graph. */
export function computeSupersetsDG(game: NormalGame, limits: ReachLimits = DEFAULT_REACH_LIMITS): ReachResult {
  void game; void limits;
  throw new Error('computeSupersetsDG: not implemented yet');
}
