/**
 * Every reachable state of a ground game, by breadth-first search from the initial state: each
 * non-terminal state is expanded under every joint move (the product of every role's legal
 * moves, `random` included), states deduplicated. A terminal state is a state of the game but
 * has no successors; neither has a state where some role has no legal move (no joint move is
 * legal there). When the search ends with nothing left to expand, the states it holds are
 * exactly the reachable states: the mutex stage proves every candidate group none of them
 * violates (docs/mutex.md, 2f). Stopped early (its state cap, its budget, or its forecasts that
 * the budget cannot suffice: reachable-growth.ts), its states are still reachable ones, and only
 * that is claimed.
 */
import { type Deadline, cpuMs } from '../deadline.js';
import type { GroundGame } from '../ground/types.js';
import { createFastSimulator } from './fast/simulator.js';
import { type ExpansionKinds, FORECAST_AFTER_SECONDS, kindsRecorder, outlasts } from './forecast.js';
import { type GroundState, termsOfBits } from './ground-sim.js';
import type { PackedStates } from './packed.js';
import { growthForecast } from './reachable-growth.js';
import { StateSet } from './state-set.js';
import { readFluentTerms, statePacker } from './read-fluents.js';

/** Limits of one search. */
interface ReachableOptions {
  /** The search stops once it has found more states than this (the initial state included). */
  readonly maxStates: number;
  /**
   * The search's budget (a sub-deadline of the run's), and its length in seconds of the same
   * clock (processor time where the runtime reports it): the search also stops as soon as the
   * states found but not yet expanded (or, on a plateau of its layers, more: forecast.ts) would,
   * at the cost per expansion so far (by kind of expansion: forecast.ts), outlast it, or its growth is bound to pass `maxStates` and
   * could not reach it within it (reachable-growth.ts).
   */
  readonly deadline: Deadline;
  readonly seconds: number;
  /**
   * A search whose states come to more term ids than this in all (default {@link MAX_FLUENT_IDS})
   * counts as stopped at its cap: they are handed on as arrays of term ids, and the whole set of
   * factoringImpossibleTurtleBrain's 149,749 states took 12 GB when they were all converted.
   */
  readonly maxFluents?: number;
  /** Of an incomplete search, the states (the first found) returned (default all). */
  readonly keepIncomplete?: number;
  /**
   * A complete search's states returned packed (`packed`, `states` empty), up to
   * {@link MAX_PACKED_IDS} term ids in all: 4 bytes an id instead of about 8 and a pointer per state.
   */
  readonly pack?: boolean;
  /**
   * Only the fluents some rule reads kept in the states (read-fluents.ts; not for a game with
   * lazy axioms, whose lazy part reads fluents the ground rules do not): states that differ in the
   * others alone are one state then. The search is then over those states: the successors of a
   * state so cut are the cuts of the successors of every state it stands for, since no legal
   * move, next fluent or terminal reads what was cut, so it finds exactly the cuts of the
   * reachable states. factoringImpossibleTurtleBrain: about 7,300 fluents a state, 547 read.
   */
  readonly readOnly?: boolean;
}

/** How a search ended. */
type ReachableEnd = 'complete' | 'states' | 'budget' | 'forecast';

/** The states found, each as the term ids of its fluents, and whether they are all the reachable ones. */
interface ReachableStates {
  /** In the order found (breadth first), the initial state first; none when the budget passed before it. */
  readonly states: number[][];
  /**
   * `complete`: every state found was expanded, so `states` is exactly the reachable set;
   * otherwise why it stopped: more states than the cap, the budget passed, or the forecast.
   */
  readonly end: ReachableEnd;
  /** Successors made (joint moves played). */
  readonly successors: number;
  /** States the search found (all of them, whether or not `states` holds them all). */
  readonly found: number;
  /** With {@link ReachableOptions.pack}, a complete search's states as term ids (then `states` is empty). */
  readonly packed?: PackedStates;
}

/**
 * Default cap of packed term ids (256 MB): snake_2008's 512,693 states hold about 35 million,
 * above {@link MAX_FLUENT_IDS}, which stopped its complete search as capped.
 */
const MAX_PACKED_IDS = 64_000_000;

/**
 * The states of `found` packed as term ids (`termOf[f]` for bit f), or undefined past
 * {@link MAX_PACKED_IDS}: counted first and written from the bits, without an array per state.
 */
function packTerms(found: StateSet, termOf: readonly number[]): PackedStates | undefined {
  const offsets = new Int32Array(found.size + 1);
  for (let i = 0; i < found.size; i++) {
    const state = found.state(i);
    let n = 0;
    for (let w = 0; w < state.length; w++) for (let b = state[w]!; b !== 0; b &= b - 1) n++;
    if (offsets[i]! + n > MAX_PACKED_IDS) return undefined;
    offsets[i + 1] = offsets[i]! + n;
  }
  const ids = new Int32Array(offsets[found.size]!);
  for (let i = 0, k = 0; i < found.size; i++) {
    const state = found.state(i);
    for (let w = 0; w < state.length; w++) {
      for (let b = state[w]!; b !== 0; b &= b - 1) ids[k++] = termOf[(w << 5) | (31 - Math.clz32(b & -b))]!;
    }
  }
  return { kind: 'packed', ids, offsets, count: found.size };
}

/**
 * The states as term ids, in the order found: all of a complete search unless they hold more than
 * `maxFluents` term ids in all (then the search counts as stopped at its cap), else the first
 * `keepIncomplete`.
 */
function asTerms(found: StateSet, termsOf: (s: GroundState) => number[], end: ReachableEnd, options: ReachableOptions): { states: number[][]; end: ReachableEnd } {
  const maxFluents = options.maxFluents ?? MAX_FLUENT_IDS;
  const keepIncomplete = options.keepIncomplete ?? Infinity;
  const states: number[][] = [];
  let total = 0;
  for (let i = 0; i < found.size && (end === 'complete' || i < keepIncomplete); i++) {
    const terms = termsOf(found.state(i));
    total += terms.length;
    if (total > maxFluents) {
      end = 'states';
      break;
    }
    states.push(terms);
  }
  if (states.length > keepIncomplete && end !== 'complete') states.length = keepIncomplete;
  return { states, end };
}

/** Default {@link ReachableOptions.maxFluents}: about 200 MB as term ids, held twice by the mutex stage. */
const MAX_FLUENT_IDS = 24_000_000;

/** Successors made between two looks at the clock (one look costs about a microsecond). */
const SUCCESSORS_PER_LOOK = 1024;

/** Seconds of the search's clock (processor time where reported, else wall-clock time). */
function now(): number {
  return (cpuMs() ?? Date.now()) / 1000;
}

/**
 * Calls `visit` with each joint move of `legal` (one move per role, in role order), the last
 * role's move varying fastest, until it returns false. The array passed is reused (`one`, of one
 * entry, for a game of one role).
 */
function eachJointMove(legal: readonly (readonly number[])[], visit: (moves: readonly number[]) => boolean, one: number[]): void {
  // One role (snake_2009: a move or two per state, 630,423 states): no odometer made per state.
  if (legal.length === 1) {
    for (const move of legal[0]!) {
      one[0] = move;
      if (!visit(one)) return;
    }
    return;
  }
  if (legal.some((moves) => moves.length === 0)) return;
  const pick = legal.map(() => 0);
  const moves = legal.map((m) => m[0]!);
  for (;;) {
    if (!visit(moves)) return;
    // Advance the odometer: the last role first.
    let r = legal.length - 1;
    for (; r >= 0; r--) {
      if (++pick[r]! < legal[r]!.length) break;
      pick[r] = 0;
    }
    if (r < 0) return;
    for (let q = r; q < legal.length; q++) moves[q] = legal[q]![pick[q]!]!;
  }
}

/**
 * Breadth-first search over the reachable states of `game`, within `options`' cap and budget,
 * with the fast simulator (src/play/fast/, the states of the ground simulator: it plays the
 * game's rules exactly, a lazy part included).
 */
export function reachableStates(game: GroundGame, options: ReachableOptions): ReachableStates {
  const { deadline, maxStates, seconds } = options;
  let start = 0;
  let found: StateSet | undefined;
  let successors = 0;
  let end: ReachableEnd = 'complete';
  // The layer under expansion (breadth first: the states from layerStart to layerEnd) and the one before.
  let layerStart = 0;
  let layerEnd = 1;
  let previousSize = 0;
  // States expanded (the one under expansion counted) when a new state was last found.
  let lastNew = 0;
  // Expansions of the layer under expansion that inserted a new state; the kinds of the layer before (forecast.ts).
  let inserting = 0;
  let previousKinds: ExpansionKinds | undefined;
  const kinds = kindsRecorder();
  // The forecasts: the states ahead, at the cost per expansion so far (or, in a layer that seldom
  // inserts a new state, at that of its expansions that found only old ones), outlast the budget
  // (forecast.ts); or the search's growth is bound to pass its cap, which it could not reach
  // within the budget (reachable-growth.ts).
  const growth = growthForecast(maxStates, seconds);
  const hopeless = (expanded: number): boolean => {
    const spent = now() - start;
    const layerKinds = kinds.look(spent, expanded - layerStart, inserting);
    const progress = { spent, expanded, found: found!.size, layerStart, layerSize: layerEnd - layerStart, previousSize, lastNew, layerKinds, previousKinds };
    // Every look is recorded: the growth is read over the halves of the expansions so far.
    const grows = growth(progress.spent, expanded, progress.found);
    return (grows && progress.spent >= FORECAST_AFTER_SECONDS) || outlasts(progress, seconds);
  };
  try {
    // Its compilation (a tenth of a second on the games tried, docs/mutex.md 2f) counts against the budget.
    const sim = createFastSimulator(game, deadline);
    // Stored packed, the unread fluents dropped (read-fluents.ts), and spread back to be played.
    const packer = options.readOnly === true && game.lazy === undefined ? statePacker(sim.fluentTermIds, readFluentTerms(game)) : undefined;
    const store = (state: GroundState): GroundState => packer?.pack(state) ?? state;
    const whole = new Uint32Array(sim.initialState().length);
    const termOf = packer?.termOf ?? sim.fluentTermIds;
    // The forecast counts the search's time from here: compiling the simulator is paid once.
    start = now();
    found = new StateSet(store(sim.initialState()));
    const set = found;
    // The state expanded, copied out of the set (not a view per state), and a successor's words.
    const current = new Uint32Array(packer === undefined ? whole.length : packer.words);
    const next = new Uint32Array(whole.length);
    let state: GroundState = whole;
    const one = [0];
    let head = 0;
    // One visitor for every state (not a closure each): adds the successor under `moves`.
    const visit = (moves: readonly number[]): boolean => {
      if (++successors % SUCCESSORS_PER_LOOK === 0) {
        if (deadline.passed()) end = 'budget';
        else if (hopeless(head + 1)) end = 'forecast';
        if (end !== 'complete') return false;
      }
      if (!set.add(store(sim.successorInto(state, moves, next)))) return true;
      // The first new state of this expansion: an inserting one.
      if (lastNew !== head + 1) inserting++;
      lastNew = head + 1;
      if (set.size <= maxStates) return true;
      end = 'states';
      return false;
    };
    for (; head < set.size && end === 'complete'; head++) {
      if (head === layerEnd) {
        previousSize = layerEnd - layerStart;
        previousKinds = kinds.close(previousSize, inserting);
        inserting = 0;
        layerStart = head;
        layerEnd = set.size;
      }
      state = packer === undefined ? set.copyState(head, current) : packer.unpack(set.copyState(head, current), whole);
      const info = sim.moves(state);
      if (!info.terminal) eachJointMove(info.legal, visit, one);
    }
    const packed = end === 'complete' && options.pack === true ? packTerms(found, termOf) : undefined;
    if (packed !== undefined) return { states: [], end, successors, found: found.size, packed };
    // Past the packed cap, as past maxFluents: capped, with the first states kept as arrays.
    const ended = options.pack === true && end === 'complete' ? 'states' : end;
    return { ...asTerms(found, (s) => termsOfBits(s, termOf), ended, options), successors, found: found.size };
  } catch (err) {
    // A lazy part's evaluation stops with a limit error once the budget passes inside a step:
    // then the search ends with the states it has, as sampling does.
    if (!deadline.passed()) throw err;
    return { states: [], end: 'budget', successors, found: found?.size ?? 0 };
  }
}
