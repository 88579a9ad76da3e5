/**
 * The explorer the mutex stage's refuters play the ground game with (src/mutex/refute-moves.ts,
 * refute-walks.ts, refute-search.ts; docs/mutex.md "False observed groups refuted by walks"): the
 * ground simulator, or for a game with lazy axioms the fast simulator (docs/lazy.md: the ground
 * simulator cannot play it), made on first use only (a game whose claims are all proven never
 * compiles it), and a seeded generator.
 */
import type { Deadline } from '../deadline.js';
import type { GroundGame } from '../ground/types.js';
import type { Explorer } from '../mutex/refute-walks.js';
import { createFastSimulator } from '../play/fast/simulator.js';
import { type GroundSimulator, type GroundState, createGroundSimulator, fluentsOf } from '../play/ground-sim.js';
import { createRandom } from '../play/random.js';
import { lazyReadUnviewed } from '../play/read-fluents.js';
import type { StateInfo } from '../play/types.js';

/** What an explorer reads of a simulator (the ground one's or the fast one's). */
interface Playing {
  fluentTerms(state: GroundState): number[];
  successor(state: GroundState, moves: readonly number[]): GroundState;
  /** The legal moves and whether `state` is terminal (the ground simulator's `info`, the fast one's `moves`: no goals). */
  moves(state: GroundState): Omit<StateInfo<number, number>, 'goals'>;
  /** The work beyond the ground rules so far, in rule evaluations (absent: none). */
  work?(): number;
}

/**
 * Rule evaluations one call of the lazy part's term-table evaluator counts for (fast/simulator.ts
 * `lazyWork`): a lazy game's state costs its lazy queries beside its ground rules, which the
 * refuters' counts weigh alone. Measured on 2026-11-30 (docs/mutex.md, lazyref32): alexChess's
 * simulator calls took 9.6 processor ms for 298 calls each (267,524 rules), chess's 3.0 ms for 418
 * (439,025 rules); the refuters' counts take a rule evaluation for about 12.5 ns (refute-walks.ts
 * `WALK_WORK`), so alexChess's calls are about 25 µs, 2,000 rule evaluations, each (chess's fewer:
 * this count errs on the side of doing less).
 */
const LAZY_CALL_RULES = 2_000;

/**
 * An explorer of `game`: for a game without lazy axioms, the ground simulator `shared` gives
 * (sampling's, compiled once), else one compiled under `deadline`; for a game with lazy axioms,
 * the fast simulator compiled under `deadline`, whose lazy queries count in `work`. When the lazy
 * part may read a fluent without a `true` atom (read-fluents.ts `lazyReadUnviewed`), the stage's
 * states do not show it: a seed is then completed from `sampled` ({@link completer}).
 */
export function mutexExplorer(
  game: GroundGame, deadline: Deadline, seed: number, shared?: () => GroundSimulator, sampled?: readonly (readonly number[])[],
): Explorer<GroundState> {
  if (game.lazy === undefined) {
    return explorerOf(game, seed, (): Playing => {
      const sim = shared?.() ?? createGroundSimulator(game, deadline);
      return { fluentTerms: sim.fluentTerms, successor: sim.successor, moves: sim.info };
    });
  }
  const complete = lazyReadUnviewed(game).length === 0 ? undefined : completer(game, sampled ?? []);
  return explorerOf(game, seed, (): Playing => {
    const sim = createFastSimulator(game, deadline);
    return { fluentTerms: sim.fluentTerms, successor: sim.successor, moves: sim.moves, work: () => sim.lazyWork() * LAZY_CALL_RULES };
  }, complete);
}

/**
 * Completes a state of the stage (its fluents with a `true` atom) to a whole state it was seen
 * as: a sampled state (term ids of every fluent some rule reads, the lazy part's included:
 * sample.ts, read-fluents.ts), or one the explorer gave the refuters ({@link Completer.saw}). A
 * seed rebuilt from the stage's fluents alone would lack those the lazy part reads (alexChess's
 * `canEnPassantInFile`), and its lazy queries would answer for another state, perhaps one that is
 * not reachable (docs/mutex.md, lazyref32 and rook32). Two whole states seen as the same stage
 * state: the first is kept (both are reachable).
 */
interface Completer {
  /** The whole state seen as the stage's state `terms`, or undefined when none was seen. */
  whole(terms: readonly number[]): readonly number[] | undefined;
  /** Remembers a whole state (term ids) the explorer gave out. */
  saw(terms: readonly number[]): void;
}

/** The {@link Completer} of `game`, knowing the sampled states `sampled` (term ids). */
function completer(game: GroundGame, sampled: readonly (readonly number[])[]): Completer {
  const viewed = new Set(game.vocabulary.fluents.filter((f) => f.trueId >= 0).map((f) => f.term));
  const key = (terms: readonly number[]): string => terms.filter((t) => viewed.has(t)).sort((a, b) => a - b).join(' ');
  const seen = new Map<string, readonly number[]>();
  const saw = (terms: readonly number[]): void => {
    const k = key(terms);
    if (!seen.has(k)) seen.set(k, terms);
  };
  for (const s of sampled) saw(s);
  return { whole: (terms) => seen.get(key(terms)), saw };
}
/** The explorer over the simulator `make` gives on first use. */
function explorerOf(game: GroundGame, seed: number, make: () => Playing, complete?: Completer): Explorer<GroundState> {
  const random = createRandom(seed);
  let made: { sim: Playing; index: Map<number, number>; words: number } | undefined;
  const simulator = (): NonNullable<typeof made> => {
    if (made === undefined) {
      const terms = fluentsOf(game).terms;
      made = { sim: make(), index: new Map(terms.map((t, i) => [t, i])), words: (terms.length + 31) >>> 5 };
    }
    return made;
  };
  return {
    state(given) {
      const terms = complete === undefined ? given : complete.whole(given);
      if (terms === undefined) return undefined;
      const { index, words } = simulator();
      const out = new Uint32Array(words);
      for (const t of terms) {
        const f = index.get(t);
        if (f !== undefined) out[f >>> 5]! |= 1 << (f & 31);
      }
      return out;
    },
    terms(state) {
      const terms = simulator().sim.fluentTerms(state);
      complete?.saw(terms);
      return terms;
    },
    legal(state) {
      const info = simulator().sim.moves(state);
      return info.terminal || info.legal.some((m) => m.length === 0) ? undefined : info.legal;
    },
    successor: (state, moves) => simulator().sim.successor(state, moves),
    below: (bound) => random.below(bound),
    // Before the simulator is made, nothing was spent.
    work: () => made?.sim.work?.() ?? 0,
  };
}
