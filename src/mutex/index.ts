/**
 * Mutex groups of fluents (section 9.1.4): groups of which at most one member holds in any
 * reachable state, so that a state fits in far fewer variables (a group of n members needs
 * ceil(log2(n+1)) bits, or ceil(log2 n) when exactly one member always holds). Candidates come
 * from input/output hypotheses refuted on sampled states (candidates.ts), survivors are proven
 * inductively on the ground rules (prove.ts), and the encoding with the fewest bits is chosen
 * per relation (choose.ts). The caller supplies the sampled states (random playouts of the
 * ground game), so this stage needs no simulator.
 *
 * The stage runs in three steps, a module each: find-early.ts (the candidates the states leave,
 * and their claims), find-proofs.ts (lifted, ground, walks) and find-result.ts (the encoding and
 * the stats).
 */
import type { GroundGame } from '../ground/types.js';
import type { PackedStates } from '../play/packed.js';
import { refuteFirst } from './find-early.js';
import type { HeldSample } from './sample-enough.js';
import { proveAndWalk } from './find-proofs.js';
import { assembleResult } from './find-result.js';
import type { MutexOptions, MutexResult } from './types.js';

/** The stage's result and its parts, for the pipeline and the formats. */
export type { MutexEnumeration, MutexGroup, MutexResult, MutexTime } from './types.js';

/**
 * Defaults: 20,000 conflicts a query (a fraction of a second on the games measured), 64 pair
 * queries per failed candidate, and a work budget of 100 million clause literals and visits.
 * Measured at 4 to 6 million a second on this project's 2-core machine (sheepAndWolf 14M in
 * 3.5 s, kalaha5x2x3 554M in 100 s), so the proof of the largest games stops after about 20 s
 * with what it has proven; typical games need under a million. The lifted proof checks at most
 * two million pairs of rule schemas (each a few microseconds).
 */
export const DEFAULT_MUTEX_OPTIONS: Omit<MutexOptions, 'deadline'> = { maxConflicts: 20_000, maxPairQueries: 64, maxWork: 100_000_000, maxLiftedPairs: 2_000_000 };

/**
 * Finds, proves and chooses mutex groups. `states` are sampled reachable states, each as the
 * term ids (in `game.terms`) of the fluents that hold, or packed (src/play/packed.ts: a complete search's
 * states); include the initial state. `held`: what sampling's stopping test held of the first
 * of them (sample-enough.ts), not held again.
 */
export function findMutexGroups(game: GroundGame, states: readonly (readonly number[])[] | PackedStates, options: MutexOptions, held?: HeldSample): MutexResult {
  const early = refuteFirst(game, states, options, held);
  const proofs = proveAndWalk(game, early, options);
  return assembleResult(game, early, proofs, options);
}
