/**
 * Monte-Carlo depth charges for `gdl-ground play` (slide 4 of the instantiation lecture):
 * random playouts from the initial state for a given time, counted as playouts, states
 * (joint moves made, i.e. expansions) and average depth. The fast ground simulator plays its
 * charges without allocation; any other {@link GameSimulator} (the Prolog reasoner) is played
 * through the common interface.
 */
import type { FastSimulator } from './fast/simulator.js';
import { type Random, createRandom } from './random.js';
import type { GameSimulator, StateInfo } from './types.js';

/** Options of a measurement, resolved by the caller. */
export interface PlayoutOptions {
  /** Playing time in seconds; a playout still running when it ends is cut off and not counted. */
  readonly seconds: number;
  /** Seed of the random joint moves: the same seed plays the same playouts. */
  readonly seed: number;
  /** Joint moves per playout before it is cut off (a guard for games that never end). */
  readonly maxSteps: number;
  /** Stop after this many playouts even if time is left (Infinity for none). */
  readonly maxPlayouts: number;
  /** The clock, in milliseconds (performance.now unless a caller needs another). */
  readonly now?: () => number;
}

/** What a measurement counted. */
export interface PlayoutResult {
  /** Finished playouts. */
  readonly playouts: number;
  /** Joint moves made, in finished and cut-off playouts alike. */
  readonly states: number;
  /** Joint moves made in finished playouts (their total depth). */
  readonly depthSum: number;
  /** Wall-clock seconds the playouts took. */
  readonly elapsed: number;
  /**
   * CPU seconds (user and system) the process spent meanwhile: on a crowded machine a truer
   * measure of the work than the wall clock (the process is single-threaded while it plays).
   */
  readonly cpuSeconds: number;
  /** Finished playouts per CPU second. */
  readonly playoutsPerCpuSecond: number;
  readonly playoutsPerSecond: number;
  readonly statesPerSecond: number;
  /** Joint moves per finished playout (0 when none finished). */
  readonly averageDepth: number;
  /**
   * A game with lazy axioms (docs/lazy.md): which evaluator decided its lazy part at the end,
   * `terms` (term-table) or `prolog` (Tau-Prolog, after a fallback). Absent otherwise.
   */
  readonly lazyEngine?: 'terms' | 'prolog';
}

/** CPU microseconds (user and system) the process has used; in a browser, which has no such count, the wall clock. */
function cpuMicros(): number {
  if (typeof process === 'undefined') return performance.now() * 1000;
  const cpu = process.cpuUsage();
  return cpu.user + cpu.system;
}

function result(playouts: number, states: number, depthSum: number, elapsedMs: number, cpuStart: number): PlayoutResult {
  const elapsed = elapsedMs / 1000;
  const cpuSeconds = (cpuMicros() - cpuStart) / 1e6;
  const perSecond = (x: number): number => (elapsed > 0 ? x / elapsed : 0);
  return {
    playouts,
    states,
    depthSum,
    elapsed,
    cpuSeconds,
    playoutsPerCpuSecond: cpuSeconds > 0 ? playouts / cpuSeconds : 0,
    playoutsPerSecond: perSecond(playouts),
    statesPerSecond: perSecond(states),
    averageDepth: playouts > 0 ? depthSum / playouts : 0,
  };
}

/** The clock, the seeded generator and the time window of a measurement starting now. */
function begin(options: PlayoutOptions): { now: () => number; random: Random; start: number; end: number; cpu: number } {
  const now = options.now ?? (() => performance.now());
  const start = now();
  return { now, random: createRandom(options.seed), start, end: start + options.seconds * 1000, cpu: cpuMicros() };
}

/** Depth charges with the fast simulator; the clock is read once per playout. */
export function fastPlayouts(sim: FastSimulator, options: PlayoutOptions): PlayoutResult {
  const { now, random, start, end, cpu } = begin(options);
  let playouts = 0;
  let depthSum = 0;
  while (playouts < options.maxPlayouts && now() < end) {
    depthSum += sim.depthCharge(random, options.maxSteps);
    playouts++;
  }
  const out = result(playouts, depthSum, depthSum, now() - start, cpu);
  const lazyEngine = sim.lazyEngine();
  return lazyEngine === undefined ? out : { ...out, lazyEngine };
}

/** Where a {@link randomWalk} ended: its last state, joint moves made, and why it ended. */
interface WalkEnd<S> {
  readonly state: S;
  readonly depth: number;
  /** `terminal`; `cut` (a role without a legal move, or `maxSteps` joint moves); `stopped` (`stop` said so). */
  readonly end: 'terminal' | 'cut' | 'stopped';
}

/**
 * Uniformly random joint moves from `state` until a terminal state, a role without a legal
 * move, `maxSteps` joint moves, or `stop()` (asked before each step). `info` is the simulator's
 * own or a caller's memo of it.
 */
function randomWalk<S, M>(
  sim: { successor(state: S, moves: readonly M[]): S }, info: (state: S) => StateInfo<M, unknown>,
  state: S, random: Random, maxSteps: number, stop: () => boolean = () => false,
): WalkEnd<S> {
  for (let depth = 0; ; depth++) {
    if (stop()) return { state, depth, end: 'stopped' };
    const here = info(state);
    if (here.terminal) return { state, depth, end: 'terminal' };
    if (depth >= maxSteps || here.legal.some((moves) => moves.length === 0)) return { state, depth, end: 'cut' };
    state = sim.successor(state, here.legal.map((moves) => moves[random.below(moves.length)]!));
  }
}

/**
 * One depth charge through the common interface; returns its depth, or -(depth + 1) when the
 * time ran out before it finished.
 */
function genericCharge<S, M, V>(sim: GameSimulator<S, M, V>, random: Random, options: PlayoutOptions, end: number, now: () => number): number {
  const walk = randomWalk(sim, (s) => sim.info(s), sim.initialState(), random, options.maxSteps, () => now() >= end);
  return walk.end === 'stopped' ? -(walk.depth + 1) : walk.depth;
}

/** Depth charges through the {@link GameSimulator} interface (the Prolog reasoner); the clock is read every step. */
export function simulatorPlayouts<S, M, V>(sim: GameSimulator<S, M, V>, options: PlayoutOptions): PlayoutResult {
  const { now, random, start, end, cpu } = begin(options);
  let playouts = 0;
  let states = 0;
  let depthSum = 0;
  while (playouts < options.maxPlayouts && now() < end) {
    const depth = genericCharge(sim, random, options, end, now);
    if (depth < 0) {
      states += -depth - 1;
      break;
    }
    playouts++;
    states += depth;
    depthSum += depth;
  }
  return result(playouts, states, depthSum, now() - start, cpu);
}
