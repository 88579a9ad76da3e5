/**
 * The states the mutex stage refutes its candidates on: every reachable state when a small
 * game's breadth-first search completes within its share of the stage's budget (then the stage
 * proves every candidate they leave, docs/mutex.md 2f), else random playouts as before, with the
 * first states the search found added (they are reachable: they can only refute).
 */
import type { Deadline } from '../deadline.js';
import { ruleCount } from '../ground/compact.js';
import type { GroundGame } from '../ground/types.js';
import type { MutexEnumeration } from '../mutex/index.js';
import { type HeldSample, sampleEnough } from '../mutex/sample-enough.js';
import type { GroundSimulator } from '../play/ground-sim.js';
import type { PackedStates } from '../play/packed.js';
import { reachableStates } from '../play/reachable.js';
import { sampleStates } from '../play/sample.js';

/** How states are sampled (the pipeline's `MutexSettings` without the budget). */
interface SampleSettings {
  readonly playouts: number;
  readonly seed: number;
  readonly maxSteps: number;
  /** States the search may find (default {@link MAX_STATES}; 0: not tried). */
  readonly maxStates?: number;
}

/**
 * Ground rules above which the search is not tried: compiling the fast simulator would cost
 * more than a small game's whole search (1.1 processor seconds on checkers' 46,299 rules, 25 on
 * racer4's; 0.07 on incredible's 4,041, 0.2 on nim3's 7,399), and no such game measured had a
 * reachable set the search could finish. A game with lazy axioms is measured the same way.
 */
const MAX_RULES = 20_000;

/** States the search may find (each costs about 200 bytes until the stage ends). */
const MAX_STATES = 1_000_000;

/**
 * The share of the stage's budget the search may take. Not more: holding the candidates against
 * a complete search's states costs about as much as the search (snake_2008: 512,693 states,
 * 4.8 s to find, about 4 s to refute on), and an incomplete search leaves the sampling only what
 * is left of its half (at 0.6, with sampling's half after it, snake_2008 took 19.7 processor
 * seconds of its 10.3 and ttcc4_2player's proofs ran out of budget).
 */
const SEARCH_SHARE = 0.3;

/**
 * Rule evaluations the playouts of a game above {@link MAX_RULES} may spend (steps times ground
 * rules; docs/mutex.md, held20): PROPJOE_S (213,924 rules) played 9,174 to 9,549 states in its half
 * of the budget depending on the load, about 5.9 processor seconds, and the proofs were cut under
 * load; its first 4,799 states refute the same candidates. About 4 processor seconds of the
 * ground simulator at its rate there.
 */
const SAMPLE_WORK = 1_500_000_000;

/**
 * The share of the stage's budget the playouts of a game with lazy axioms (docs/lazy.md) may take,
 * where other games' take half. Its groups were then proven by the lifted proofs alone (since sat33
 * also by a ground SAT with the lazy atoms free: find-proofs.ts), so the proofs are what its budget buys: chess's default budget of
 * about 14.6 processor seconds gave the playouts 7.3 (1,681 to 1,884 states) and the proofs 5.3,
 * where `cell` alone and `check` [0,2,3] take about 3.7 and 6 to 7. At a quarter (3.8 s, 619 states)
 * and 0.15 (2.2 s, 218 states) the budget still cut `check` [0,2,3]; at a tenth (1.5 s, 32
 * states, 0.9 of them making the simulator) it was proven, 98.9% of the observed fluents, 672
 * bits where 880. The later states refute partial claims' keys: with a budget of 40 s a tenth
 * (794 states) gave the same 660 bits as half (3,399), and finished under budget (docs/mutex.md, samp31).
 */
const LAZY_SAMPLE_SHARE = 0.1;

/**
 * States the playouts of a game with lazy axioms sample past {@link LAZY_SAMPLE_SHARE} when they
 * have fewer (within half of the budget, as other games): under a load of 16 on 2 cores making
 * chess's simulator took most of the tenth, and the three runs sampled 6, 8 and 9 states. Those
 * still proved every chosen group, but no state at all would leave no sampled worth to order the
 * checks by (find-proofs.ts `sampledWorth`). Not more: at 32, the half second they took under that
 * load cut `check` [0,2,3] again (880 bits; docs/mutex.md, samp31).
 */
const LAZY_MIN_STATES = 8;

/** Of an incomplete search, the states (the first found) added to the sampled ones. */
const MAX_EXTRA_STATES = 10_000;

/** The states for the mutex stage, and whether they are every reachable state. */
interface MutexStates {
  /** Term ids per state; a complete search's packed (src/play/packed.ts). */
  readonly states: readonly (readonly number[])[] | PackedStates;
  /** The search, when tried (absent: the game is above {@link MAX_RULES}, or the search is turned off). */
  readonly enumeration?: MutexEnumeration;
  /** What sampling's stopping test held of the first states, for the stage not to hold it again. */
  readonly held?: HeldSample;
}

/**
 * Searches the reachable states of `ground` first (within {@link SEARCH_SHARE} of the stage's
 * `seconds` of processor time and {@link MAX_STATES}); without the search (above {@link MAX_RULES}
 * rules), samples within half of `seconds` (with lazy axioms stopping past {@link LAZY_SAMPLE_SHARE} of
 * it once it has {@link LAZY_MIN_STATES} states); when the search is not complete,
 * samples random playouts (the same seeded playouts as before the search) within what is left of
 * the half of `seconds` sampling alone had, and adds the first states the search found. Sampling
 * also stops once its states stop refuting candidates (src/mutex/sample-enough.ts); what that
 * test held is returned with the states.
 */
export function mutexStates(ground: GroundGame, settings: SampleSettings, deadline: Deadline, seconds: number, simulator?: () => GroundSimulator): MutexStates {
  const maxStates = settings.maxStates ?? MAX_STATES;
  const test = sampleEnough(ground);
  if (maxStates === 0 || ruleCount(ground) > MAX_RULES) {
    // With lazy axioms, half of the budget still bounds sampling, but past its share it stops at LAZY_MIN_STATES.
    const soft = ground.lazy === undefined ? undefined : { deadline: deadline.within(seconds * LAZY_SAMPLE_SHARE), states: LAZY_MIN_STATES };
    const states = sampleStates(ground, { ...settings, deadline: deadline.within(seconds / 2), simulator, maxEvaluations: SAMPLE_WORK, readOnly: true, enough: test.enough, ...(soft === undefined ? {} : { soft }) });
    return { states, held: test.held() };
  }
  // Search and sampling share the half of the budget sampling alone had: the proofs keep the other.
  const half = deadline.within(seconds / 2);
  const share = seconds * SEARCH_SHARE;
  const found = reachableStates(ground, { maxStates, seconds: share, deadline: half.within(share), keepIncomplete: MAX_EXTRA_STATES, pack: true, readOnly: true });
  const enumeration: MutexEnumeration = { states: found.found, end: found.end, successors: found.successors };
  if (found.end === 'complete') return { states: found.packed ?? found.states, enumeration };
  const sampled = sampleStates(ground, { ...settings, deadline: half, simulator, readOnly: true, enough: test.enough });
  // The sampled states first: what the test held is the start of them.
  return { states: [...sampled, ...found.states], enumeration, held: test.held() };
}
