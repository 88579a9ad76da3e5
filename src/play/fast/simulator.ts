/**
 * The fast simulator of a ground game, for `play` and Monte-Carlo search: the same states
 * (bitsets over the fluents, numbered as in ground-sim.ts), moves (legal-atom ids) and goal
 * values (goal-atom ids) as the ground simulator of `verify`, but evaluated by differential
 * propagation over a network compiled once (net.ts, propagate.ts). Loading a state changes
 * only the `true` atoms that differ from the state loaded before; legal moves and the next
 * state are kept up to date as atoms change, so a step costs what changes, not the game's size.
 */
import type { GroundGame } from '../../ground/types.js';
import { type GroundState, fluentsOf, groundText, holding, initialBits, perceptAtoms, roleAtoms } from '../ground-sim.js';
import { compareCodePoints } from '../../gdl/terms.js';
import type { Random } from '../random.js';
import type { GameSimulator, StateInfo } from '../types.js';
import { Deadline } from '../../deadline.js';
import { type FastLazy, fastLazy, opaqueAtoms } from './lazy.js';
import { compileNet } from './net.js';
import { type Outputs, createPropagator } from './propagate.js';

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
   * Which evaluator decides the lazy part (docs/lazy.md): `terms` (term-table) or `prolog`
   * (Tau-Prolog, after a fallback); undefined for a game without one.
   */
  lazyEngine(): 'terms' | 'prolog' | undefined;
};

/** The watched atoms of `game`: legal atoms by role, next atoms by fluent. */
function outputsOf(game: GroundGame, legal: readonly Int32Array[], nextAtoms: Int32Array, nextFluent: Int32Array, words: number): Outputs {
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

/**
 * Creates the fast simulator of a ground game; the network is compiled here, once. A game with
 * a lazy part (docs/lazy.md) has its lazy atoms decided on demand (fast/lazy.ts), under `deadline`.
 */
export function createFastSimulator(game: GroundGame, deadline: Deadline): FastSimulator {
  const fluents = fluentsOf(game);
  const words = (fluents.terms.length + 31) >>> 5;
  const { legal, goals, doesOf, terminal } = roleAtoms(game);
  const out = outputsOf(game, legal, fluents.nextAtoms, fluents.nextFluent, words);
  // Lazy axioms: absent for other games, whose net and steps are exactly as without them.
  const opaque = game.lazy === undefined ? undefined : opaqueAtoms(game);
  const compiled = compileNet(game, opaque);
  const net = createPropagator(compiled, out);
  const lazy: FastLazy | undefined = opaque === undefined ? undefined : fastLazy(game, compiled, net, opaque, deadline);
  const { val } = net;
  const init = initialBits(fluents);
  const roles = legal.length;

  // The state whose true atoms are set, the does atoms set, and room for a successor.
  const loaded = new Uint32Array(words);
  const doesOn = new Int32Array(roles);
  let doesCount = 0;
  const scratch = new Uint32Array(words);

  /** Makes `state` the loaded one (changing only the true atoms that differ) with no does atom set, and settles the net. */
  let changed = true;
  const load = (state: GroundState): void => {
    net.unfire();
    for (let i = 0; i < doesCount; i++) net.setInput(doesOn[i]!, 0);
    doesCount = 0;
    for (let w = 0; w < words; w++) {
      const now = state[w]!;
      if (lazy !== undefined && loaded[w] !== now) changed = true;
      for (let diff = loaded[w]! ^ now; diff !== 0; diff &= diff - 1) {
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

  /** Sets the does atoms of the joint move (legal-atom ids) and settles the net: nextBits is the successor. */
  const play = (moves: ArrayLike<number>): void => {
    for (let i = 0; i < moves.length; i++) {
      const d = doesOf[moves[i]!] ?? -1;
      // Each does atom once, even when a move is given twice.
      if (d >= 0 && val[d] === 0) net.setInput(d, 1), (doesOn[doesCount++] = d);
    }
    // The triggered rules read the whole joint move, so they are looked at once it is all set.
    for (let i = 0; i < doesCount; i++) net.fire(doesOn[i]!);
    net.propagate();
    lazy?.loadMoves(moves);
  };

  const legalOf = (r: number): number[] => {
    const base = out.legalBase[r]!;
    return Array.from(out.legalList.subarray(base, base + out.legalCount[r]!)).sort((x, y) => x - y);
  };

  const info = (state: GroundState): StateInfo<number, number> => {
    load(state);
    return {
      legal: legal.map((_, r) => legalOf(r)),
      terminal: terminal >= 0 && val[terminal] === 1,
      goals: goals.map((ids) => holding(ids, val)),
    };
  };

  const successor = (state: GroundState, moves: readonly number[]): GroundState => {
    load(state);
    play(moves);
    return out.nextBits.slice();
  };

  /** Term ids of the fluents set in `bits` (for the lazy part's evaluator). */
  const fluentIds = (bits: Uint32Array): number[] => {
    const ids: number[] = [];
    for (let w = 0; w < words; w++) {
      for (let b = bits[w]!; b !== 0; b &= b - 1) ids.push(fluents.terms[(w << 5) | (31 - Math.clz32(b & -b))]!);
    }
    return ids;
  };

  // GDL-II percepts (docs/gdl2.md): the sees atoms that hold once the joint move is played.
  const seesIds = perceptAtoms(game);
  const percepts = (state: GroundState, moves: readonly number[]): string[][] => {
    load(state);
    play(moves);
    return seesIds.map((ids) => holding(ids, val).map((id) => game.terms.text(game.atoms[id]!.args[1]!)).sort(compareCodePoints));
  };

  const chosen = new Int32Array(roles);
  const depthCharge = (random: Random, maxSteps: number, visit?: (state: GroundState) => void): number => {
    load(init);
    let depth = 0;
    for (;;) {
      if (visit !== undefined) visit(loaded);
      if (depth >= maxSteps || (terminal >= 0 && val[terminal] === 1)) break;
      for (let r = 0; r < roles; r++) {
        const count = out.legalCount[r]!;
        if (count === 0) return depth;
        chosen[r] = out.legalList[out.legalBase[r]! + random.below(count)]!;
      }
      play(chosen);
      scratch.set(out.nextBits);
      load(scratch);
      depth++;
    }
    return depth;
  };

  return {
    roles: game.roles.map((r) => game.terms.text(r)),
    initialState: () => init.slice(),
    info,
    successor,
    percepts,
    depthCharge,
    lazyEngine: () => lazy?.evaluator.engine(),
    ...groundText(game, fluents),
  };
}
