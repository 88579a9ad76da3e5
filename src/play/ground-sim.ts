/**
 * A fast simulator for the ground game. A state is a bitset over the game's fluents (the F of
 * its `(true F)` and `(next F)` atoms, numbered in text order), a move is the id of its
 * `(legal R M)` atom and a goal value the id of its `(goal R V)` atom; the rules are compiled
 * once (ground-plan.ts) and evaluated over a byte per atom. No text is made while playing:
 * {@link SimulatorText} renders states and moves for `verify` and reports only.
 */
import { Deadline } from '../deadline.js';
import { compareCodePoints } from '../gdl/terms.js';
import { keywordSymbols, partnerAtoms } from '../ground/atoms.js';
import type { GroundGame } from '../ground/types.js';
import { compileRules, evaluateMove, evaluateState, scratchFor } from './ground-plan.js';
import { type LazyHooks, lazyHooks } from './lazy-hooks.js';
import type { GameSimulator, SimulatorText, StateInfo } from './types.js';

/** A state of the ground game: bit f set when fluent f holds. Never changed once made (the simulator remembers the last state it evaluated by identity). */
export type GroundState = Uint32Array;

/** The ground simulator: states as bitsets, moves as legal-atom ids, goal values as goal-atom ids. */
export type GroundSimulator = GameSimulator<GroundState, number, number> & {
  /** Term ids (in the game's term table) of the fluents that hold in `state`, in text order. */
  fluentTerms(state: GroundState): number[];
};

/** The fluents of a ground game and the atoms that read and make them. */
export interface Fluents {
  /** Term ids of the fluents, in text order: fluent f is `terms[f]`. */
  readonly terms: readonly number[];
  /** Atom id of `(true F)` per fluent, -1 when the game has none. */
  readonly trueAtom: Int32Array;
  /** The `(next F)` atom ids and, at the same position, their fluents. */
  readonly nextAtoms: Int32Array;
  readonly nextFluent: Int32Array;
  /** Fluent of each `(true F)` atom of the initial state. */
  readonly init: readonly number[];
}

/** Numbers the fluents by text (once, here) and links them to their atoms. */
export function fluentsOf(game: GroundGame): Fluents {
  const { terms } = game;
  const kw = keywordSymbols(terms);
  const isFluent = (rel: number, arity: number): boolean => (rel === kw.true || rel === kw.next) && arity === 1;
  const ids = new Set<number>();
  for (const a of game.atoms) if (isFluent(a.rel, a.args.length)) ids.add(a.args[0]!);
  const sorted = [...ids].sort((x, y) => compareCodePoints(terms.text(x), terms.text(y)));
  const index = new Map(sorted.map((t, f) => [t, f]));
  const trueAtom = new Int32Array(sorted.length).fill(-1);
  const next: number[] = [];
  const nextFluent: number[] = [];
  game.atoms.forEach((a, id) => {
    if (!isFluent(a.rel, a.args.length)) return;
    const f = index.get(a.args[0]!)!;
    if (a.rel === kw.true) trueAtom[f] = id;
    else next.push(id), nextFluent.push(f);
  });
  const init = game.init.filter((id) => game.atoms[id]!.rel === kw.true).map((id) => index.get(game.atoms[id]!.args[0]!)!);
  return { terms: sorted, trueAtom, nextAtoms: Int32Array.from(next), nextFluent: Int32Array.from(nextFluent), init };
}

/** Per role (by term id), the ids of the atoms of relation `rel` with that role first, ascending. */
export function byRole(game: GroundGame, rel: number): Int32Array[] {
  const out = game.roles.map((): number[] => []);
  const roleIndex = new Map(game.roles.map((r, i) => [r, i]));
  game.atoms.forEach((a, id) => {
    const i = a.rel === rel && a.args.length === 2 ? roleIndex.get(a.args[0]!) : undefined;
    if (i !== undefined) out[i]!.push(id);
  });
  return out.map((ids) => Int32Array.from(ids));
}

/** The ids in `ids` whose atom holds. */
export function holding(ids: Int32Array, val: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < ids.length; i++) if (val[ids[i]!] === 1) out.push(ids[i]!);
  return out;
}

/** Creates a simulator for a ground game; the rules are compiled here, once (a lazy part's evaluator runs under `deadline`). */
export function createGroundSimulator(game: GroundGame, deadline: Deadline): GroundSimulator {
  const { terms } = game;
  const rules = compileRules(game);
  const scratch = scratchFor(rules);
  const val = new Uint8Array(game.atoms.length);
  const fluents = fluentsOf(game);
  const words = (fluents.terms.length + 31) >>> 5;
  const kw = keywordSymbols(terms);
  const legal = byRole(game, kw.legal);
  const goals = byRole(game, kw.goal);
  // A move is its legal atom; the joint move sets the matching does atoms.
  const doesOf = partnerAtoms(game, [[kw.legal, kw.does]]);
  const terminal = game.atoms.findIndex((a) => a.rel === kw.terminal && a.args.length === 0);
  // Lazy axioms (docs/lazy.md): absent for other games, which then run exactly as before.
  const lazy: LazyHooks | undefined = game.lazy === undefined ? undefined : lazyHooks(game, fluents, val, deadline);

  // The simulator holds one state at a time; `current` avoids re-evaluating it for successor().
  let current: GroundState | undefined;
  const doesSet: number[] = [];
  const load = (state: GroundState): void => {
    if (current === state) return;
    val.fill(0);
    doesSet.length = 0;
    for (let w = 0; w < words; w++) {
      for (let bits = state[w]!; bits !== 0; bits &= bits - 1) {
        const atom = fluents.trueAtom[(w << 5) | (31 - Math.clz32(bits & -bits))]!;
        if (atom >= 0) val[atom] = 1;
      }
    }
    lazy?.loadState(state);
    evaluateState(rules, val, scratch, lazy?.resolve);
    current = state;
  };

  const info = (state: GroundState): StateInfo<number, number> => {
    load(state);
    return {
      legal: legal.map((ids) => holding(ids, val)),
      terminal: terminal >= 0 && val[terminal] === 1,
      goals: goals.map((ids) => holding(ids, val)),
    };
  };

  const successor = (state: GroundState, moves: readonly number[]): GroundState => {
    load(state);
    for (const h of rules.moveHeads) val[h] = 0;
    for (const d of doesSet) val[d] = 0;
    doesSet.length = 0;
    for (const m of moves) {
      const d = doesOf[m] ?? -1;
      // Each does atom once, even when a move is given twice.
      if (d >= 0 && val[d] === 0) (val[d] = 1), doesSet.push(d);
    }
    lazy?.loadMoves(moves);
    evaluateMove(rules, doesSet, val, scratch, lazy?.resolve);
    lazy?.nextHeads();
    const next = new Uint32Array(words);
    const { nextAtoms, nextFluent } = fluents;
    for (let i = 0; i < nextAtoms.length; i++) {
      if (val[nextAtoms[i]!] === 1) next[nextFluent[i]! >>> 5]! |= 1 << (nextFluent[i]! & 31);
    }
    // The state the lazy part holds is this one's; the next load sets it again.
    return next;
  };

  const initialState = (): GroundState => initialBits(fluents);

  return { roles: game.roles.map((r) => terms.text(r)), initialState, info, successor, ...groundText(game, fluents) };
}

/** The initial state as a bitset over the fluents. */
export function initialBits(fluents: Fluents): GroundState {
  const state = new Uint32Array((fluents.terms.length + 31) >>> 5);
  for (const f of fluents.init) state[f >>> 5]! |= 1 << (f & 31);
  return state;
}

/** The term ids of a bitset state's fluents, and the text of states, moves and values, for a ground game's simulators. */
export function groundText(game: GroundGame, fluents: Fluents): { fluentTerms(state: GroundState): number[]; text: SimulatorText<GroundState, number, number> } {
  const { terms } = game;
  const fluentTerms = (state: GroundState): number[] => {
    const out: number[] = [];
    for (let f = 0; f < fluents.terms.length; f++) if ((state[f >>> 5]! >>> (f & 31)) & 1) out.push(fluents.terms[f]!);
    return out;
  };
  const text: SimulatorText<GroundState, number, number> = {
    state: (state) => fluentTerms(state).map((t) => terms.text(t)),
    move: (move) => terms.text(game.atoms[move]!.args[1]!),
    value: (value) => terms.text(game.atoms[value]!.args[1]!),
  };
  return { fluentTerms, text };
}
