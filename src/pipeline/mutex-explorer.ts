/**
 * The explorer the mutex stage's walks play the ground game with (src/mutex/refute-walks.ts,
 * docs/mutex.md "False observed groups refuted by walks"): the ground simulator, made on first
 * use only (a game whose claims are all proven never compiles it), and a seeded generator.
 */
import type { Deadline } from '../deadline.js';
import type { GroundGame } from '../ground/types.js';
import type { Explorer } from '../mutex/refute-walks.js';
import { type GroundSimulator, type GroundState, createGroundSimulator, fluentsOf } from '../play/ground-sim.js';
import { createRandom } from '../play/random.js';

/**
 * An explorer of `game` (not one with lazy axioms): the simulator `shared` gives (sampling's,
 * compiled once), else one compiled under `deadline`.
 */
export function groundExplorer(game: GroundGame, deadline: Deadline, seed: number, shared?: () => GroundSimulator): Explorer<GroundState> {
  const random = createRandom(seed);
  let made: { sim: GroundSimulator; index: Map<number, number>; words: number } | undefined;
  const simulator = (): NonNullable<typeof made> => {
    if (made === undefined) {
      const terms = fluentsOf(game).terms;
      made = { sim: shared?.() ?? createGroundSimulator(game, deadline), index: new Map(terms.map((t, i) => [t, i])), words: (terms.length + 31) >>> 5 };
    }
    return made;
  };
  return {
    state(terms) {
      const { index, words } = simulator();
      const out = new Uint32Array(words);
      for (const t of terms) {
        const f = index.get(t);
        if (f !== undefined) out[f >>> 5]! |= 1 << (f & 31);
      }
      return out;
    },
    terms: (state) => simulator().sim.fluentTerms(state),
    legal(state) {
      const info = simulator().sim.info(state);
      return info.terminal || info.legal.some((m) => m.length === 0) ? undefined : info.legal;
    },
    successor: (state, moves) => simulator().sim.successor(state, moves),
    below: (bound) => random.below(bound),
  };
}
