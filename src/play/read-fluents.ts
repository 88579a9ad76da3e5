/**
 * The fluents some rule reads: those with a `(true F)` atom in the ground game, and those the lazy
 * part of a game with lazy axioms may read (docs/lazy.md). A fluent neither reads decides nothing
 * (no legal move, next fluent, goal or terminal depends on it), so the states
 * the mutex stage samples and searches may leave it out (docs/mutex.md, fact23):
 * factoringImpossibleTurtleBrain's states hold about 7,300 fluents, of which at most 547 are read.
 */
import type { GroundGame } from '../ground/types.js';
import type { GroundState } from './ground-sim.js';

/**
 * Per term id, 1 when it is a fluent with a `true` atom in `game` or one its lazy part may read
 * ({@link lazyReadUnviewed}; 0 otherwise, or past the end).
 */
export function readFluentTerms(game: GroundGame): Uint8Array {
  const fluents = game.vocabulary.fluents;
  const out = new Uint8Array(fluents.reduce((m, f) => Math.max(m, f.term + 1), 0));
  for (const f of fluents) if (f.trueId >= 0) out[f.term] = 1;
  for (const t of lazyReadUnviewed(game)) out[t] = 1;
  return out;
}

/**
 * The term ids of the fluents without a `true` atom in the ground rules that the lazy part of
 * `game` may read under `true` (none without lazy axioms): by relation name, and every one when a
 * lazy rule reads `true` of a variable. alexChess's `canEnPassantInFile` and the held-out
 * LOCUST_S's and PIT221_S's `county`/`alesom` are read so (docs/mutex.md, lazyref32): a state
 * without them is another state for the lazy queries.
 */
export function lazyReadUnviewed(game: GroundGame): number[] {
  const unviewed = game.vocabulary.fluents.filter((f) => f.trueId < 0);
  if (game.lazy === undefined || unviewed.length === 0) return [];
  const names = new Set<string>();
  for (const rule of game.lazy.rules) {
    for (const lit of rule.body) {
      if (lit.kind === 'distinct' || lit.atom.rel !== 'true') continue;
      const t = lit.atom.args[0];
      if (t === undefined || t.kind === 'var') return unviewed.map((f) => f.term);
      names.add(t.name);
    }
  }
  return unviewed.filter((f) => names.has(game.terms.symbolName(game.terms.functor(f.term)))).map((f) => f.term);
}

/** The term ids of `terms` that are read fluents (`read` from {@link readFluentTerms}), in order. */
export function keepRead(terms: readonly number[], read: Uint8Array): number[] {
  return terms.filter((t) => read[t] === 1);
}

/**
 * States of a simulator (bit f: the fluent whose term id is `termOf[f]`) stored with the read
 * fluents' bits only, gathered into fewer words: the reachable-state search keeps up to a million
 * of them (factoringImpossibleTurtleBrain: 243 words a state whole, 18 gathered).
 */
interface StatePacker {
  /** Words of a packed state. */
  readonly words: number;
  /** The term id of each bit of a packed state. */
  readonly termOf: readonly number[];
  /** `state` packed (a new array): the unread bits dropped. */
  pack(state: GroundState): GroundState;
  /** `packed` spread back into `into` (the simulator's width; overwritten), unread bits clear; returns `into`. */
  unpack(packed: GroundState, into: GroundState): GroundState;
}

/** The packer of {@link StatePacker}, or undefined when every fluent is read (nothing to drop). */
export function statePacker(termOf: readonly number[], read: Uint8Array): StatePacker | undefined {
  // Per simulator bit, its packed bit (-1: unread); per packed bit, its simulator bit.
  const rank = new Int32Array(termOf.length).fill(-1);
  const position: number[] = [];
  // The read bits per word: a successor holds every fluent, thousands unread on the games this is for.
  const mask = new Uint32Array(Math.ceil(termOf.length / 32));
  termOf.forEach((t, f) => {
    if (read[t] !== 1) return;
    rank[f] = position.push(f) - 1;
    mask[f >> 5] = mask[f >> 5]! | (1 << (f & 31));
  });
  if (position.length === termOf.length) return undefined;
  const words = Math.max(1, Math.ceil(position.length / 32));
  return {
    words, termOf: position.map((f) => termOf[f]!),
    pack: (state) => {
      const out = new Uint32Array(words);
      for (let w = 0; w < mask.length; w++) {
        for (let b = state[w]! & mask[w]!; b !== 0; b &= b - 1) {
          const j = rank[(w << 5) | (31 - Math.clz32(b & -b))]!;
          out[j >> 5] = out[j >> 5]! | (1 << (j & 31));
        }
      }
      return out;
    },
    unpack: (packed, into) => {
      into.fill(0);
      for (let w = 0; w < packed.length; w++) {
        for (let b = packed[w]!; b !== 0; b &= b - 1) {
          const f = position[(w << 5) | (31 - Math.clz32(b & -b))]!;
          into[f >> 5] = into[f >> 5]! | (1 << (f & 31));
        }
      }
      return into;
    },
  };
}
