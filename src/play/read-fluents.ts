/**
 * The fluents some rule reads: those with a `(true F)` atom in the ground game. A fluent without
 * one decides nothing (no legal move, next fluent, goal or terminal depends on it), so the states
 * the mutex stage samples and searches may leave it out (docs/mutex.md, fact23):
 * factoringImpossibleTurtleBrain's states hold about 7,300 fluents, of which at most 547 are read.
 */
import type { GroundGame } from '../ground/types.js';

/** Per term id, 1 when it is a fluent with a `true` atom in `game` (0 otherwise, or past the end). */
export function readFluentTerms(game: GroundGame): Uint8Array {
  const fluents = game.vocabulary.fluents;
  const out = new Uint8Array(fluents.reduce((m, f) => Math.max(m, f.term + 1), 0));
  for (const f of fluents) if (f.trueId >= 0) out[f.term] = 1;
  return out;
}

/** The term ids of `terms` that are read fluents (`read` from {@link readFluentTerms}), in order. */
export function keepRead(terms: readonly number[], read: Uint8Array): number[] {
  return terms.filter((t) => read[t] === 1);
}

/**
 * A mask over a state's bits (bit f: the fluent whose term id is `termOf[f]`) keeping the read
 * fluents only; undefined when every fluent is read (nothing to clear).
 */
export function readMask(termOf: readonly number[], read: Uint8Array): Uint32Array | undefined {
  const mask = new Uint32Array(Math.ceil(termOf.length / 32));
  let all = true;
  termOf.forEach((t, f) => {
    if (read[t] === 1) mask[f >> 5] = mask[f >> 5]! | (1 << (f & 31));
    else all = false;
  });
  return all ? undefined : mask;
}
