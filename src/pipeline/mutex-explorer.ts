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
 * the fast simulator compiled under `deadline`, whose lazy queries count in `work`. None when the
 * lazy part may read a fluent without a `true` atom ({@link lazyReadsUnviewed}).
 */
export function mutexExplorer(game: GroundGame, deadline: Deadline, seed: number, shared?: () => GroundSimulator): Explorer<GroundState> | undefined {
  if (game.lazy === undefined) {
    return explorerOf(game, seed, (): Playing => {
      const sim = shared?.() ?? createGroundSimulator(game, deadline);
      return { fluentTerms: sim.fluentTerms, successor: sim.successor, moves: sim.info };
    });
  }
  if (lazyReadsUnviewed(game)) return undefined;
  return explorerOf(game, seed, (): Playing => {
    const sim = createFastSimulator(game, deadline);
    return { fluentTerms: sim.fluentTerms, successor: sim.successor, moves: sim.moves, work: () => sim.lazyWork() * LAZY_CALL_RULES };
  });
}

/**
 * Whether the lazy part of `game` may read, under `true`, a fluent that has no `true` atom in the
 * ground rules. The mutex stage's states hold only fluents with one (view.ts, read-fluents.ts), and
 * the refuters rebuild their seeds from those. A seed without such a fluent is not the state that
 * was sampled, and its lazy queries would answer for another state. alexChess's
 * `canEnPassantInFile` and the held-out LOCUST_S's and PIT221_S's 336 fluents of one relation are
 * read so (docs/mutex.md, lazyref32). By relation name; a `true` of a variable may read any.
 */
function lazyReadsUnviewed(game: GroundGame): boolean {
  const unviewed = new Set<string>();
  for (const f of game.vocabulary.fluents) if (f.trueId < 0) unviewed.add(game.terms.symbolName(game.terms.functor(f.term)));
  if (unviewed.size === 0) return false;
  for (const rule of game.lazy?.rules ?? []) {
    for (const lit of rule.body) {
      if (lit.kind === 'distinct' || lit.atom.rel !== 'true') continue;
      const t = lit.atom.args[0];
      if (t === undefined || t.kind === 'var' || unviewed.has(t.name)) return true;
    }
  }
  return false;
}

/** The explorer over the simulator `make` gives on first use. */
function explorerOf(game: GroundGame, seed: number, make: () => Playing): Explorer<GroundState> {
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
      const info = simulator().sim.moves(state);
      return info.terminal || info.legal.some((m) => m.length === 0) ? undefined : info.legal;
    },
    successor: (state, moves) => simulator().sim.successor(state, moves),
    below: (bound) => random.below(bound),
    // Before the simulator is made, nothing was spent.
    work: () => made?.sim.work?.() ?? 0,
  };
}
