/**
 * The fast simulator of a ground game, for `play` and Monte-Carlo search: the same states
 * (bitsets over the fluents, numbered as in ground-sim.ts), moves (legal-atom ids) and goal
 * values (goal-atom ids) as the ground simulator of `verify`, but evaluated by differential
 * propagation over a network compiled once (net.ts, propagate.ts). Loading a state changes
 * only the `true` atoms that differ from the state loaded before; legal moves and the next
 * state are kept up to date as atoms change, so a step costs what changes, not the game's size.
 */
import type { GroundGame } from '../../ground/types.js';
import { type GroundState, fluentsOf, groundText, holding, initialBits, perceptAtoms, roleAtoms, termsOfBits } from '../ground-sim.js';
import { compareCodePoints } from '../../gdl/terms.js';
import type { Random } from '../random.js';
import type { GameSimulator, StateInfo } from '../types.js';
import { Deadline } from '../../deadline.js';
import { type FastLazy, fastLazy, opaqueAtoms } from './lazy.js';
import { compileNet } from './net.js';
import { createPropagator } from './propagate.js';
import { outputsOf } from './outputs.js';
import { createWasmGroup } from './wasm-group.js';
import { controlCycle, controlTurns, simplifyRules, turnRules } from './specialize.js';
import { evaluateGoals, splitGoals } from './goals.js';
import { factorRules } from './factor.js';
import { mergeCopies } from './copies.js';
import { type StepSampler, changesPerStep, controlReadersPay, controlWorkPays, noopTurns, turnNetsPay } from './turns.js';
import { type Machine, type Restart, type TurnGame, chargeOneNet, chargeTurns, chooseMoves, copyIsCheaper, fluentCosts, restartInWasm, restoreInitial, watchedFluents, sameBits, saveRestart, successorInto } from './charge.js';
import { bindFrames, frameRules } from './frames.js';

/** The fast simulator: the ground simulator's interface, and depth charges without allocation. */
export type FastSimulator = GameSimulator<GroundState, number, number> & {
  /** Term ids (in the game's term table) of the fluents that hold in `state`, in text order. */
  fluentTerms(state: GroundState): number[];
  /**
   * One random playout from the initial state (a depth charge): joint moves chosen uniformly
   * by `random` until a terminal state, a role without legal moves, or `maxSteps` joint moves.
   * Returns the number of joint moves made. `visit`, when given, sees every state of the
   * playout (the initial one first; the bitset is reused, copy it to keep it).
   */
  depthCharge(random: Random, maxSteps: number, visit?: (state: GroundState) => void): number;
  /**
   * A random playout from `state`, as {@link depthCharge} plays it (the same loop, without
   * allocation but for the last state returned): for players' simulations from any state.
   */
  walk(state: GroundState, random: Random, maxSteps: number): Walk;
  /**
   * Which evaluator decides the lazy part (docs/lazy.md): `terms` (term-table) or `prolog`
   * (Tau-Prolog, after a fallback); undefined for a game without one.
   */
  lazyEngine(): 'terms' | 'prolog' | undefined;
  /** The lazy part's work so far (lazy-hybrid.ts `work`: evaluator calls, the same under any load); 0 for a game without one. */
  lazyWork(): number;
  /**
   * What the optimization passes made of the game (docs/play.md, "Specialized nets"): the
   * control fluents' texts when there is a net per control fluent (else empty), whether goals
   * are evaluated only when asked, how many atoms factoring added to the net in use, and how
   * many fluents it leaves to the frame masks (frames.ts).
   */
  nets(): { readonly control: readonly string[]; readonly goalsOnDemand: boolean; readonly factoredAtoms: number; readonly framedFluents: number };
  /**
   * {@link GameSimulator.info} without the goal values: the reachable-states search asks every
   * state's moves and never its goals, whose evaluation (goals on demand, goals.ts) was a third
   * of snake_2009's search (docs/mutex.md, snake17).
   */
  moves(state: GroundState): Omit<StateInfo<number, number>, 'goals'>;
  /**
   * {@link GameSimulator.successor} written into `into` (as many words as a state) and returned:
   * the reachable-states search makes hundreds of thousands of successors, each a new array otherwise.
   */
  successorInto(state: GroundState, moves: readonly number[], into: GroundState): GroundState;
  /** The term id of each fluent by its bit (fluent f is bit f of a state): to pack states without an array each. */
  readonly fluentTermIds: readonly number[];
};

/** Where a {@link FastSimulator.walk} ended: its last state (a copy), joint moves made, whether that state is terminal, its goal atoms per role. */
interface Walk {
  readonly state: GroundState;
  readonly depth: number;
  readonly terminal: boolean;
  readonly goals: readonly (readonly number[])[];
}

/** Which net optimization passes run (docs/play.md, "Specialized nets"); all by default. Tests turn them off to compare. */
interface FastOptions {
  readonly passes?: Partial<Passes>;
  /** false: the JS interpreter on every net, not the WebAssembly propagator (propagate.ts); tests compare the two. */
  readonly wasm?: boolean;
}

/** The passes: constants simplified, nets per control fluent, goals on demand, common literals factored, frames as masks, copy atoms merged. */
interface Passes {
  readonly constants: boolean;
  readonly control: boolean;
  readonly goals: boolean;
  readonly factor: boolean;
  readonly frames: boolean;
  readonly copies: boolean;
}

/** Legal moves of a role up to which they are sorted by insertion as read (the reachable-states search reads every state's). */
const FEW_MOVES = 16;

const ALL_PASSES: Passes = { constants: true, control: true, goals: true, factor: true, frames: true, copies: true };

/** The turn whose control fluents (which of `control` hold) are those of `state`, or -1 when none is. */
function controlIndex(control: readonly number[], turns: readonly Uint8Array[], state: GroundState): number {
  return turns.findIndex((t) => control.every((f, i) => ((state[f >>> 5]! >>> (f & 31)) & 1) === t[i]));
}

/**
 * Creates the fast simulator of a ground game; the network is compiled here, once. A game with
 * a lazy part (docs/lazy.md) has its lazy atoms decided on demand (fast/lazy.ts), under `deadline`.
 * A turn-taking game (specialize.ts) gets one net per control fluent when that pays (turns.ts),
 * each simplified with its fluent true and the others false, and a general net only if a state
 * outside that shape is asked for.
 */
export function createFastSimulator(game: GroundGame, deadline: Deadline, options: FastOptions = {}): FastSimulator {
  const passes = { ...ALL_PASSES, ...options.passes };
  const fluents = fluentsOf(game);
  const words = (fluents.terms.length + 31) >>> 5;
  const { legal, goals, doesOf, terminal } = roleAtoms(game);
  const roles = legal.length;
  // Lazy axioms: absent for other games, whose net and steps are exactly as without them.
  const opaque = game.lazy === undefined ? undefined : opaqueAtoms(game);
  let lazy: FastLazy | undefined;
  const init = initialBits(fluents);
  /** A net's rules through the passes, compiled, before its propagator is made. */
  const prepare = (all: GroundGame['rules']) => {
    // The lazy part's evaluator reads the ground rules as they are: its games keep them all in the net.
    const merged = opaque === undefined && passes.copies ? mergeCopies(game, all) : all;
    const goalPart = opaque === undefined && passes.goals ? splitGoals(game, merged) : undefined;
    const kept = goalPart?.kept ?? merged;
    const factored = opaque === undefined && passes.factor ? { ...game, ...factorRules(game, kept) } : kept === game.rules ? game : { ...game, rules: kept };
    const framed = opaque === undefined && passes.frames ? frameRules(factored, factored.rules, fluents, goalPart?.rules ?? []) : undefined;
    const netGame = framed === undefined ? factored : { ...factored, rules: framed.rules };
    const out = outputsOf(netGame, legal, fluents.nextAtoms, fluents.nextFluent, words);
    const compiled = compileNet(netGame, opaque);
    // The lazy part's evaluator may read any true atom: its games set them all.
    const watched = opaque === undefined ? watchedFluents(compiled, fluents.trueAtom, goalPart?.rules ?? []) : new Uint32Array(words).fill(~0);
    return { goalPart, frames: framed?.frames, out, compiled, watched, fluentCost: fluentCosts(compiled, fluents.trueAtom) };
  };
  /**
   * The machines of a net per rule set, in WebAssembly where they compile, as one group (one
   * module and memory, wasm-group.ts: a turn's successor loaded into the next net inside it); the
   * lazy part's evaluator adds support from outside (addSupport): the JS interpreter's.
   */
  const machines = (ruleSets: readonly GroundGame['rules'][]): Machine[] => {
    const prepared = ruleSets.map(prepare);
    const tables = (p: (typeof prepared)[number]) => ({ roles, terminal, doesOf, trueAtom: fluents.trueAtom, watched: p.watched, frames: p.frames, init, fluentCost: p.fluentCost });
    const group = opaque === undefined && options.wasm !== false ? createWasmGroup(prepared.map((p) => ({ net: p.compiled, out: p.out, tables: tables(p) }))) : undefined;
    return prepared.map(({ goalPart, frames, out, compiled, watched, fluentCost }, i): Machine => {
      const wasm = group?.[i];
      // The stack order where WebAssembly would use it (no lazy part): the same games with either.
      const net = wasm ?? createPropagator(compiled, out, opaque === undefined);
      if (frames !== undefined) bindFrames(frames, net.val);
      if (opaque !== undefined) lazy = fastLazy(game, compiled, net, opaque, deadline);
      return { net, out: net.out, loaded: wasm?.step.loaded ?? new Uint32Array(words), doesOn: wasm?.step.doesOn ?? new Int32Array(roles), doesCount: 0, wasm: wasm?.step, goals: goalPart, compiled, fluentCost, frames, watched };
    });
  };
  const machine = (all: GroundGame['rules']): Machine => machines([all])[0]!;
  /** Term ids of the fluents set in `bits` (for the lazy part's evaluator). */
  // `loaded` (WebAssembly's view or not) is `words` long, as nextBits is (wasm-propagate.ts arraysOf).
  const fluentIds = (bits: Uint32Array): number[] => termsOfBits(bits, fluents.terms);

  /** Makes `state` the loaded one of machine `into` (changing only the true atoms that differ) with no does atom set, and settles its net. */
  let changed = true;
  const loadInto = (into: Machine, state: GroundState): void => {
    const { net, loaded } = into;
    net.unfire();
    for (let i = 0; i < into.doesCount; i++) net.setInput(into.doesOn[i]!, 0);
    into.doesCount = 0;
    for (let w = 0; w < words; w++) {
      const now = state[w]!;
      if (lazy !== undefined && loaded[w] !== now) changed = true;
      for (let diff = (loaded[w]! ^ now) & into.watched[w]!; diff !== 0; diff &= diff - 1) {
        const b = 31 - Math.clz32(diff & -diff);
        const atom = fluents.trueAtom[(w << 5) | b]!;
        if (atom >= 0) net.setInput(atom, (now >>> b) & 1);
      }
      loaded[w] = now;
    }
    if (lazy !== undefined) {
      lazy.loadState(fluentIds(loaded), changed);
      changed = false;
    } else net.propagate();
  };
  /** Sets the does atoms of the joint move (legal-atom ids) in machine `into` and settles its net: nextBits is the successor. */
  const playIn = (into: Machine, moves: ArrayLike<number>): void => {
    const { net } = into;
    const val = net.val;
    for (let i = 0; i < moves.length; i++) {
      const d = doesOf[moves[i]!] ?? -1;
      // Each does atom once, even when a move is given twice.
      if (d >= 0 && val[d] === 0) net.setInput(d, 1), (into.doesOn[into.doesCount++] = d);
    }
    // The triggered rules read the whole joint move, so they are looked at once it is all set.
    for (let i = 0; i < into.doesCount; i++) net.fire(into.doesOn[i]!);
    net.propagate();
    lazy?.loadMoves(moves);
  };

  /** The legal moves of role r in machine `into`'s loaded state, ascending. */
  const legalIn = (into: Machine, r: number): number[] => {
    const { out } = into;
    const base = out.legalBase[r]!;
    const count = out.legalCount[r]!;
    // A few moves (most states of most games) sorted in place as read: no view, no comparator calls.
    if (count > FEW_MOVES) return Array.from(out.legalList.subarray(base, base + count)).sort((x, y) => x - y);
    const moves: number[] = [];
    for (let i = 0; i < count; i++) {
      const move = out.legalList[base + i]!;
      let k = i;
      for (; k > 0 && moves[k - 1]! > move; k--) moves[k] = moves[k - 1]!;
      moves[k] = move;
    }
    return moves;
  };

  /** Whether machine `into`'s loaded state is terminal. */
  const terminalIn = (into: Machine): boolean => terminal >= 0 && into.net.val[terminal] === 1;

  /** Plays the joint move in machine `into` (its state loaded) and returns the successor state. */
  const successorIn = (into: Machine, moves: ArrayLike<number>): GroundState => {
    playIn(into, moves);
    const next = new Uint32Array(words);
    successorInto(into, next);
    return next;
  };

  /** The step of machine `on` from any state, for turns.ts's sample of how often fluents change. */
  const sampler = (on: Machine): StepSampler => ({
    initialState: () => initialBits(fluents),
    moves: (state) => {
      loadInto(on, state);
      return terminalIn(on) ? undefined : legal.map((_, r) => legalIn(on, r));
    },
    successor: (state, moves) => {
      loadInto(on, state);
      return successorIn(on, moves);
    },
  });

  let general: Machine | undefined = machine(opaque === undefined && passes.constants ? simplifyRules(game, new Map()) : game.rules);
  /** The nets per control fluent when they pay (turns.ts), else none. */
  const perTurn = (generalMachine: Machine): { control: number[]; turns: Uint8Array[]; specialized: Machine[] } => {
    const none = { control: [], turns: [], specialized: [] };
    const cycle = controlCycle(game, fluents);
    if (cycle === undefined) return none;
    const generalNet = generalMachine.compiled;
    const turns = controlTurns(cycle, fluents.init);
    const { rules, net: netOf } = turnRules(game, cycle, turns, fluents);
    const perTurnOf = (nets: Machine[]): Machine[] => netOf.map((i) => nets[i]!);
    const workPays = (): boolean => {
      const changes = changesPerStep(game, generalNet, sampler(generalMachine));
      return changes !== undefined && controlWorkPays(generalNet, cycle, fluents.trueAtom, changes);
    };
    if (controlReadersPay(generalNet, cycle, fluents.trueAtom) || workPays()) return { control: cycle, turns, specialized: perTurnOf(machines(rules)) };
    if (!noopTurns(game, generalNet, rules)) return none;
    const nets = machines(rules);
    return turnNetsPay(generalNet, nets.map((n) => n.compiled), cycle, fluents.trueAtom) ? { control: cycle, turns, specialized: perTurnOf(nets) } : none;
  };
  const { control, turns: controlTurnsOf, specialized } = passes.control ? perTurn(general) : { control: [], turns: [], specialized: [] };
  if (control.length > 0) general = undefined;
  // The turn of the state loaded (its net is specialized[turn]), -1 on the general net: turns may share a net.
  let turn = -1;
  const pick = (state: GroundState): Machine => {
    turn = controlIndex(control, controlTurnsOf, state);
    return turn >= 0 ? specialized[turn]! : (general ??= machine(simplifyRules(game, new Map())));
  };
  let m = pick(init);
  const scratch = new Uint32Array(words);

  /** Makes `state` the loaded one of its machine. */
  const load = (state: GroundState): void => {
    m = pick(state);
    loadInto(m, state);
  };
  const play = (moves: ArrayLike<number>): void => playIn(m, moves);
  const legalOf = (r: number): number[] => legalIn(m, r);

  /** The goal atoms holding in the loaded state, per role. */
  const goalsHere = (): number[][] => {
    const val = m.net.val;
    const goalVal = m.goals === undefined ? val : evaluateGoals(m.goals, val);
    return goals.map((ids) => holding(ids, goalVal));
  };

  const movesOf = (state: GroundState): Omit<StateInfo<number, number>, 'goals'> => {
    load(state);
    return { legal: legal.map((_, r) => legalOf(r)), terminal: terminalIn(m) };
  };

  // The goals read after movesOf's load, so on the same state.
  const info = (state: GroundState): StateInfo<number, number> => ({ ...movesOf(state), goals: goalsHere() });

  const successorOf = (state: GroundState, moves: readonly number[], into: GroundState): GroundState => {
    load(state);
    playIn(m, moves);
    successorInto(m, into);
    return into;
  };
  const successor = (state: GroundState, moves: readonly number[]): GroundState => successorOf(state, moves, new Uint32Array(words));

  // GDL-II percepts (docs/gdl2.md): the sees atoms that hold once the joint move is played.
  const seesIds = perceptAtoms(game);
  const percepts = (state: GroundState, moves: readonly number[]): string[][] => {
    load(state);
    play(moves);
    return seesIds.map((ids) => holding(ids, m.net.val).map((id) => game.terms.text(game.atoms[id]!.args[1]!)).sort(compareCodePoints));
  };

  const chosen = new Int32Array(roles);
  const oneNet = { roles, terminal, doesOf, trueAtom: fluents.trueAtom, chosen, scratch };
  const turns: TurnGame = { ...oneNet, machines: specialized, turn: 0 };
  /** Random joint moves from the loaded state until a terminal state, a role without moves, or `maxSteps`; returns the joint moves made. */
  const charge = (random: Random, maxSteps: number, visit?: (state: GroundState) => void): number => {
    if (lazy === undefined) {
      if (control.length === 0) return chargeOneNet(m, oneNet, random, maxSteps, visit);
      turns.turn = turn;
      if (turns.turn >= 0) {
        const depth = chargeTurns(turns, random, maxSteps, visit);
        turn = turns.turn;
        m = specialized[turn]!;
        return depth;
      }
    }
    let depth = 0;
    for (;;) {
      if (visit !== undefined) visit(m.loaded);
      if (depth >= maxSteps || terminalIn(m)) return depth;
      const out = m.out;
      if (!chooseMoves(out, roles, random, chosen)) return depth;
      play(chosen);
      successorInto(m, scratch);
      load(scratch);
      depth++;
    }
  };

  // Every net restarts from the initial state's values (the nets per control fluent too, each
  // then loading the first state of its turn by differences from it), by copying them when that
  // is cheaper than undoing a playout's changes; not for a game with a lazy part, whose
  // evaluator keeps values of its own.
  let restarts: Restart[] | undefined;
  const toInitial = (): void => {
    if (lazy !== undefined) return load(init);
    if (restarts === undefined) {
      restarts = (control.length > 0 ? [...new Set(specialized)] : [m]).map((each) => {
        loadInto(each, init);
        return saveRestart(each);
      });
    } else {
      for (const restart of restarts) {
        if (copyIsCheaper(restart, init)) restoreInitial(restart, init);
        else loadInto(restart.machine, init);
      }
    }
    m = pick(init);
  };

  // The charge from the initial state in one WebAssembly call, restart included, once the restarts are saved.
  let inWasm: ReturnType<typeof restartInWasm> | null = null;
  const depthCharge = (random: Random, maxSteps: number, visit?: (state: GroundState) => void): number => {
    if (visit === undefined && restarts !== undefined && lazy === undefined) {
      if (inWasm === null) inWasm = restartInWasm(restarts, control.length > 0 ? specialized : restarts.map((r) => r.machine), restarts.findIndex((r) => r.machine === pick(init)));
      if (inWasm !== undefined) {
        const depth = inWasm.charge(random, maxSteps);
        if (control.length > 0) turn = inWasm.turn();
        m = restarts[inWasm.turn()]!.machine;
        return depth;
      }
    }
    toInitial();
    return charge(random, maxSteps, visit);
  };

  const walk = (state: GroundState, random: Random, maxSteps: number): Walk => {
    // A search's simulations mostly start at the same few states; the initial one restarts by copying.
    if (sameBits(state, init)) toInitial();
    else load(state);
    const depth = charge(random, maxSteps);
    return { state: m.loaded.slice(), depth, terminal: terminalIn(m), goals: goalsHere() };
  };

  return {
    roles: game.roles.map((r) => game.terms.text(r)),
    initialState: () => init.slice(),
    info,
    moves: movesOf,
    fluentTermIds: fluents.terms,
    successor,
    successorInto: successorOf,
    percepts,
    depthCharge,
    walk,
    lazyEngine: () => lazy?.evaluator.engine(),
    lazyWork: () => lazy?.evaluator.work() ?? 0,
    nets: () => ({ control: control.map((f) => game.terms.text(fluents.terms[f]!)), goalsOnDemand: m.goals !== undefined, factoredAtoms: m.compiled.atoms - game.atoms.length, framedFluents: m.frames?.fluents ?? 0 }),
    ...groundText(game, fluents),
  };
}
