/**
 * The proof by every reachable state (docs/mutex.md, 2f): when the states the stage is given
 * are all the reachable states of the game (the pipeline's breadth-first search completed),
 * a claim none of them violates holds in every reachable state, which is what a mutex group
 * claims. The claims the stage asks are exactly those the states left (an "at most one" of a
 * group no state had two members of, an "at least one" of a group every state had a member
 * of), so every one of them is proven.
 */
import type { proveClaims } from './prove.js';

/** The proof's result when the states given were every reachable state: each of the `claims` proven, no query asked. */
export function everyStateProof(claims: number): ReturnType<typeof proveClaims> {
  return {
    proven: Array.from({ length: claims }, () => true),
    verdicts: Array.from({ length: claims }, () => 'proven' as const),
    unrefutedPairs: new Map(),
    queries: 0,
    work: 0,
    complete: true,
    budgetSpent: false,
  };
}
