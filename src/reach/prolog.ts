// STUB — owned by the issue-4 helper, who replaces this file.
import type { NormalGame } from '../normalize/types.js';
import { type ReachLimits, type ReachResult, DEFAULT_REACH_LIMITS } from './types.js';

/** Algorithm 9.2 on Tau-Prolog: supersets equal to the least model of the relaxed game. */
export function computeSupersetsProlog(game: NormalGame, limits: ReachLimits = DEFAULT_REACH_LIMITS): ReachResult {
  void game; void limits;
  throw new Error('computeSupersetsProlog: not implemented yet');
}
