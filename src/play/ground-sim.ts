/**
 * A fast simulator for the ground game. A state is a bitset over the game's fluents (the F of
 * its `(true F)` and `(next F)` atoms, numbered in text order), a move is the id of its
 * `(legal R M)` atom and a goal value the id of its `(goal R V)` atom; the rules are compiled
 * once (ground-plan.ts) and evaluated over a byte per atom. No text is made while playing:
 * {@link SimulatorText} renders states and moves for `verify` and reports only.
 */
import { Deadline } from '../deadline.js';
import { SEES } from '../gdl/keywords.js';
import { compareCodePoints } from '../gdl/terms.js';
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
interface Fluents {
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

/** Numbers the fluents as the game's vocabulary orders them (by text) and links them to their atoms. */
export function fluentsOf(game: GroundGame): Fluents {
  const entries = game.vocabulary.fluents;
  const trueAtom = Int32Array.from(entries, (f) => f.trueId);
  const next: number[] = [];
  const nextFluent: number[] = [];
  const fluentOfTrue = new Int32Array(game.atoms.length).fill(-1);
  entries.forEach((f, i) => {
    if (f.nextId >= 0) next.push(f.nextId), nextFluent.push(i);
    if (f.trueId >= 0) fluentOfTrue[f.trueId] = i;
  });
  const init = game.init.filter((id) => fluentOfTrue[id]! >= 0).map((id) => fluentOfTrue[id]!);
  return { terms: entries.map((f) => f.term), trueAtom, nextAtoms: Int32Array.from(next), nextFluent: Int32Array.from(nextFluent), init };
}

/** The atoms the simulators read per role, and the does atom of each legal atom, from the game's vocabulary. */
interface RoleAtoms {
  /** Per role (in role order), the ids of its `(legal R M)` atoms, ascending. */
  readonly legal: Int32Array[];
  /** Per role, the ids of its `(goal R V)` atoms, ascending. */
  readonly goals: Int32Array[];
  /** Per atom, the `(does R M)` atom of a `(legal R M)` atom; -1 for others and when absent. */
  readonly doesOf: Int32Array;
  /** Id of the `terminal` atom, -1 when the game has none. */
  readonly terminal: number;
}

/** The {@link RoleAtoms} of a ground game: atoms of roles not in `game.roles` are left out. */
export function roleAtoms(game: GroundGame): RoleAtoms {
  const { moves, goals, terminal } = game.vocabulary;
  const roleIndex = new Map(game.roles.map((r, i) => [r, i]));
  const perRole = (entries: readonly { role: number; id: number }[]): Int32Array[] => {
    const out = game.roles.map((): number[] => []);
    for (const e of entries) {
      const i = e.id >= 0 ? roleIndex.get(e.role) : undefined;
      if (i !== undefined) out[i]!.push(e.id);
    }
    return out.map((ids) => Int32Array.from(ids.sort((x, y) => x - y)));
  };
  const doesOf = new Int32Array(game.atoms.length).fill(-1);
  for (const m of moves) if (m.legalId >= 0) doesOf[m.legalId] = m.doesId;
  return { legal: perRole(moves.map((m) => ({ role: m.role, id: m.legalId }))), goals: perRole(goals), doesOf, terminal };
}

/** The ids of the `(sees R P)` atoms (GDL-II) of each role of `game`, in role order, ascending. */
export function perceptAtoms(game: GroundGame): Int32Array[] {
  const sees = game.terms.findSymbol(SEES);
  const roleIndex = new Map(game.roles.map((r, i) => [r, i]));
  const out = game.roles.map((): number[] => []);
  game.atoms.forEach((a, id) => {
    const i = a.rel === sees && a.args.length === 2 ? roleIndex.get(a.args[0]!) : undefined;
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
  const rules = compileRules(game, deadline);
  const scratch = scratchFor(rules);
  const val = new Uint8Array(game.atoms.length);
  const fluents = fluentsOf(game);
  const words = (fluents.terms.length + 31) >>> 5;
  // A move is its legal atom; the joint move sets the matching does atoms.
  const { legal, goals, doesOf, terminal } = roleAtoms(game);
  // Lazy axioms (docs/lazy.md): absent for other games, which then run exactly as before.
  const lazy: LazyHooks | undefined = game.lazy === undefined ? undefined : lazyHooks(game, fluents, val, deadline);

  // The simulator holds one state at a time; `current` avoids re-evaluating it for successor().
  let current: GroundState | undefined;
  const doesSet: number[] = [];
  // The true atoms of the state loaded: the state rules filed under them are the ones evaluated.
  const held = new Int32Array(fluents.terms.length);
  const load = (state: GroundState): void => {
    if (current === state) return;
    val.fill(0);
    doesSet.length = 0;
    let count = 0;
    for (let w = 0; w < words; w++) {
      for (let bits = state[w]!; bits !== 0; bits &= bits - 1) {
        const atom = fluents.trueAtom[(w << 5) | (31 - Math.clz32(bits & -bits))]!;
        if (atom >= 0) (val[atom] = 1), (held[count++] = atom);
      }
    }
    lazy?.loadState(state);
    evaluateState(rules, held, count, val, scratch, lazy?.resolve);
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

  // Loads `state`, sets the does atoms of the joint move `moves` and evaluates what follows.
  const play = (state: GroundState, moves: readonly number[]): void => {
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
  };

  const successor = (state: GroundState, moves: readonly number[]): GroundState => {
    play(state, moves);
    const next = new Uint32Array(words);
    const { nextAtoms, nextFluent } = fluents;
    for (let i = 0; i < nextAtoms.length; i++) {
      if (val[nextAtoms[i]!] === 1) next[nextFluent[i]! >>> 5]! |= 1 << (nextFluent[i]! & 31);
    }
    // The state the lazy part holds is this one's; the next load sets it again.
    return next;
  };

  const initialState = (): GroundState => initialBits(fluents);

  const seesIds = perceptAtoms(game);
  const percepts = (state: GroundState, moves: readonly number[]): string[][] => {
    play(state, moves);
    return seesIds.map((ids) => holding(ids, val).map((id) => terms.text(game.atoms[id]!.args[1]!)).sort(compareCodePoints));
  };

  return { roles: game.roles.map((r) => terms.text(r)), initialState, info, successor, percepts, ...groundText(game, fluents) };
}

/** The initial state as a bitset over the fluents. */
export function initialBits(fluents: Fluents): GroundState {
  const state = new Uint32Array((fluents.terms.length + 31) >>> 5);
  for (const f of fluents.init) state[f >>> 5]! |= 1 << (f & 31);
  return state;
}

/**
 * The term ids of the set bits of `state` (bit f: `termOf[f]`), lowest first, so in fluent order:
 * set bits only, as a state holds few of a game's fluents.
 */
export function termsOfBits(state: GroundState, termOf: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let w = 0; w < state.length; w++) {
    for (let b = state[w]!; b !== 0; b &= b - 1) out.push(termOf[(w << 5) | (31 - Math.clz32(b & -b))]!);
  }
  return out;
}

/** The term ids of a bitset state's fluents, and the text of states, moves and values, for a ground game's simulators. */
export function groundText(game: GroundGame, fluents: Fluents): { fluentTerms(state: GroundState): number[]; text: SimulatorText<GroundState, number, number> } {
  const { terms } = game;
  const fluentTerms = (state: GroundState): number[] => termsOfBits(state, fluents.terms);
  const text: SimulatorText<GroundState, number, number> = {
    state: (state) => fluentTerms(state).map((t) => terms.text(t)),
    move: (move) => terms.text(game.atoms[move]!.args[1]!),
    value: (value) => terms.text(game.atoms[value]!.args[1]!),
  };
  return { fluentTerms, text };
}
