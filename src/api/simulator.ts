/**
 * A simulator for players over a grounding: the fast simulator of `gdl-ground play`
 * (src/play/fast/, docs/play.md; lazy parts included), with roles, moves and fluents as KIF
 * texts, as a game manager sends and expects them, and states as opaque immutable values.
 */
import { Deadline } from '../deadline.js';
import { createFastSimulator, type FastSimulator } from '../play/fast/simulator.js';
import { type GroundState, roleAtoms } from '../play/ground-sim.js';
import { type PlayoutResult, fastPlayouts } from '../play/playouts.js';
import { createRandom } from '../play/random.js';
import type { StateInfo } from '../play/types.js';
import type { Grounding } from './ground.js';
import type { RunControl } from './settings.js';

/** A state of a game: opaque and immutable; only the simulator that made it reads it. */
export interface State {
  readonly kind: 'state';
}

/** How random playouts run: all optional. */
export interface PlayoutOptions {
  /** Playouts to play (default 100, unless `seconds` is given: then as many as fit). */
  readonly count?: number;
  /** Seconds to play for at most (default: no limit). */
  readonly seconds?: number;
  /** Joint moves per playout before it is cut off (default 10,000, as `gdl-ground play`). */
  readonly maxDepth?: number;
  /** Seed of the random moves: the same seed plays the same playouts (default 1). */
  readonly seed?: number;
}

/** Where a random playout from a state ended: its last state, its depth and the goal values there. */
export interface PlayoutEnd {
  readonly state: State;
  /** Joint moves made. */
  readonly depth: number;
  /** False when cut off at `maxDepth` or when a role had no legal move. */
  readonly terminal: boolean;
  /** {@link Simulator.goals} of the last state. */
  readonly goals: readonly (number | undefined)[];
}

/** The simulator of a ground game, as a player uses it. */
export interface Simulator {
  /** The roles as KIF texts, in the order of the description (the order of joint moves). */
  readonly roles: readonly string[];
  initialState(): State;
  /** The legal moves of `role` (its KIF text or its index) in `state`, as KIF texts, each once. */
  legalMoves(state: State, role: string | number): readonly string[];
  isTerminal(state: State): boolean;
  /** The goal value of each role in `state` (role order); undefined for a role with none. */
  goals(state: State): readonly (number | undefined)[];
  /**
   * The state after the joint move `moves` (one KIF text per role, in role order; spaces inside
   * a move may differ from the simulator's). Throws an `Error` naming the move when one is not
   * legal for its role in `state`.
   */
  nextState(state: State, moves: readonly string[]): State;
  /** GDL-II (docs/gdl2.md): what each role sees, `(sees R P)`, after `moves` in `state`: the texts of P per role. */
  percepts(state: State, moves: readonly string[]): readonly (readonly string[])[];
  /** The fluents that hold in `state`, as KIF texts, sorted. */
  fluents(state: State): readonly string[];
  /** A string equal for equal states and different for different ones (for tables of states). */
  stateKey(state: State): string;
  /**
   * One random playout from `state` (uniform joint moves), until a terminal state, a role
   * without a legal move, or `maxDepth` (default 10,000); played by the depth charges' loop, as
   * fast per step as {@link Simulator.playouts}.
   */
  playout(state: State, options?: { readonly maxDepth?: number; readonly seed?: number }): PlayoutEnd;
  /** Random playouts from the initial state, counted and timed: `gdl-ground play`'s depth charges. */
  playouts(options?: PlayoutOptions): PlayoutResult;
}

/** How the simulator is made: an abort signal, read where the lazy part (docs/lazy.md) of a game is queried. */
export type SimulatorOptions = Pick<RunControl, 'signal'>;

/** Spaces as the simulator writes terms: one between arguments, none inside parentheses. */
function canonical(move: string): string {
  return move.trim().replace(/\s+/g, ' ').replace(/\(\s/g, '(').replace(/\s\)/g, ')');
}

/**
 * Makes the simulator of a grounding (its network is compiled here, once). Its speed is the
 * fast simulator's: {@link Simulator.playouts} runs `gdl-ground play`'s depth charges themselves.
 */
export function createSimulator(grounding: Grounding, options: SimulatorOptions = {}): Simulator {
  const sim = createFastSimulator(grounding.game, new Deadline(Infinity, Infinity, options.signal));
  const states = stateTable();
  const info = lastInfo(sim);
  const moves = moveTable(grounding, sim);
  let random = createRandom(1);
  const roleIndex = (role: string | number): number => {
    const r = typeof role === 'number' ? role : sim.roles.indexOf(canonical(role));
    if (!(r >= 0 && r < sim.roles.length)) throw new Error(`no role ${String(role)} in this game (roles: ${sim.roles.join(' ')})`);
    return r;
  };
  const jointMove = (bits: GroundState, texts: readonly string[]): number[] => {
    if (texts.length !== sim.roles.length) throw new Error(`a joint move has one move per role (${sim.roles.length}), not ${texts.length}`);
    const legal = info(bits).legal;
    return texts.map((text, r) => {
      const id = moves.id(r, canonical(text));
      if (id === undefined || !legal[r]!.includes(id)) throw new Error(`the move ${text} is not legal for ${sim.roles[r]} in this state`);
      return id;
    });
  };
  const goalValues = (atoms: readonly (readonly number[])[]): (number | undefined)[] => atoms.map((ids) => (ids.length === 0 ? undefined : Number(sim.text.value(ids[0]!))));
  const goalsOf = (bits: GroundState): (number | undefined)[] => goalValues(info(bits).goals);
  const playout = (state: State, opts: { readonly maxDepth?: number; readonly seed?: number } = {}): PlayoutEnd => {
    if (opts.seed !== undefined) random = createRandom(opts.seed);
    // The depth charges' own loop (no allocation per step), from the given state.
    const end = sim.walk(states.bits(state), random, opts.maxDepth ?? 10_000);
    return { state: states.wrap(end.state), depth: end.depth, terminal: end.terminal, goals: goalValues(end.goals) };
  };
  return {
    roles: sim.roles,
    initialState: () => states.wrap(sim.initialState()),
    legalMoves: (state, role) => info(states.bits(state)).legal[roleIndex(role)]!.map((id) => moves.text(id)),
    isTerminal: (state) => info(states.bits(state)).terminal,
    goals: (state) => goalsOf(states.bits(state)),
    nextState: (state, joint) => {
      const bits = states.bits(state);
      return states.wrap(sim.successor(bits, jointMove(bits, joint)));
    },
    percepts: (state, joint) => {
      const bits = states.bits(state);
      return sim.percepts!(bits, jointMove(bits, joint));
    },
    fluents: (state) => sim.text.state(states.bits(state)),
    stateKey: (state) => Array.from(states.bits(state), (w) => w.toString(36)).join('.'),
    playout,
    playouts: (opts = {}) => fastPlayouts(sim, {
      seconds: opts.seconds ?? Infinity, seed: opts.seed ?? 1, maxSteps: opts.maxDepth ?? 10_000,
      maxPlayouts: opts.count ?? (opts.seconds === undefined ? 100 : Infinity),
    }),
  };
}

/** Where a {@link State} keeps its bitset and the simulator that made it (not exported from the index). */
const BITS: unique symbol = Symbol('state bits');
const OWNER: unique symbol = Symbol('state owner');

/** A state as the simulator made it: frozen, its bitset under a symbol the API does not export. */
interface StateBox extends State {
  readonly [BITS]: GroundState;
  readonly [OWNER]: object;
}

/**
 * The states of one simulator: frozen boxes, each marked with this simulator's token, so a state
 * of another simulator is refused (a WeakMap from states to bitsets made every step cost the
 * garbage collector more as a match went on).
 */
function stateTable(): { wrap(bits: GroundState): State; bits(state: State): GroundState } {
  const owner = Object.freeze({});
  return {
    wrap: (bits) => Object.freeze({ kind: 'state' as const, [BITS]: bits, [OWNER]: owner }),
    bits: (state) => {
      const box = state as Partial<StateBox>;
      if (box[OWNER] !== owner || box[BITS] === undefined) throw new Error('not a state of this simulator');
      return box[BITS];
    },
  };
}

/** The fast simulator's `info`, remembered for the last state asked about (players ask about one state several times). */
function lastInfo(sim: FastSimulator): (bits: GroundState) => StateInfo<number, number> {
  let last: GroundState | undefined;
  let known: StateInfo<number, number> | undefined;
  return (bits) => {
    if (bits !== last || known === undefined) {
      known = sim.info(bits);
      last = bits;
    }
    return known;
  };
}

/** Move texts by legal-atom id, and ids by role and text, made on first use. */
function moveTable(grounding: Grounding, sim: FastSimulator): { text(id: number): string; id(role: number, text: string): number | undefined } {
  const texts = new Map<number, string>();
  let byRole: Map<string, number>[] | undefined;
  const text = (id: number): string => {
    let t = texts.get(id);
    if (t === undefined) texts.set(id, (t = sim.text.move(id)));
    return t;
  };
  return {
    text,
    id: (role, move) => {
      byRole ??= roleAtoms(grounding.game).legal.map((ids) => new Map(Array.from(ids, (id) => [text(id), id] as const)));
      return byRole[role]!.get(move);
    },
  };
}
