/**
 * The watched atoms of a fast simulator's network (simulator.ts): which atoms are legal moves,
 * by role, and which are next atoms, by fluent, with the propagator's lists sized once for them.
 */
import type { GroundGame } from '../../ground/types.js';
import type { Outputs } from './propagate.js';

/** The watched atoms of `game`: legal atoms by role, next atoms by fluent. */
export function outputsOf(game: GroundGame, legal: readonly Int32Array[], nextAtoms: Int32Array, nextFluent: Int32Array, words: number): Outputs {
  const n = game.atoms.length;
  const kind = new Uint8Array(n);
  const legalRole = new Int32Array(n).fill(-1);
  const legalBase = new Int32Array(legal.length + 1);
  legal.forEach((ids, r) => {
    legalBase[r + 1] = legalBase[r]! + ids.length;
    for (const a of ids) (kind[a] = 1), (legalRole[a] = r);
  });
  const fluentOf = new Int32Array(n).fill(-1);
  nextAtoms.forEach((a, i) => {
    kind[a] = 2;
    fluentOf[a] = nextFluent[i]!;
  });
  return {
    kind,
    legalRole,
    legalBase,
    legalCount: new Int32Array(legal.length),
    legalList: new Int32Array(legalBase[legal.length]!),
    legalPos: new Int32Array(n),
    nextFluent: fluentOf,
    nextBits: new Uint32Array(words),
  };
}
