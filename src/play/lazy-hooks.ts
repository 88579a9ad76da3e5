/**
 * How the ground simulator (ground-sim.ts) plays a game with a lazy part (docs/lazy.md): per
 * state, lazy atoms start unknown and are decided on demand by the evaluator (sim/lazy.ts);
 * the legal, goal and terminal atoms lazy rules make are set before the ground rules run, and
 * the next atoms they make after the joint move's ground rules.
 */
import type { OutputKeyword } from '../gdl/keywords.js';
import { Deadline } from '../deadline.js';
import { keywordSymbols, lazyInputAtoms } from '../ground/atoms.js';
import type { GroundGame } from '../ground/types.js';
import { UNKNOWN, type Resolve } from './ground-plan.js';
import { createLazyEvaluator } from './lazy.js';

/** The fluents part of ground-sim's `Fluents` these hooks read. */
interface FluentTerms {
  readonly terms: readonly number[];
}

/** What the ground simulator calls at each step. */
export interface LazyHooks {
  /** After the state's true atoms are set in `val`: lazy atoms unknown, lazy legal/goal/terminal heads set. */
  loadState(state: Uint32Array): void;
  /**
   * After the joint move's does atoms are set; `moves` are its legal atoms (ids), since a
   * does atom only lazy rules read is no atom of the ground game.
   */
  loadMoves(moves: readonly number[]): void;
  /** After the joint move's ground rules: sets the next atoms lazy rules make. */
  nextHeads(): void;
  /** Decides an unknown lazy atom. */
  readonly resolve: Resolve;
}

/** The hooks for `game` (with a lazy part), over the simulator's valuation `val`. */
export function lazyHooks(game: GroundGame, fluents: FluentTerms, val: Uint8Array, deadline: Deadline): LazyHooks {
  const evaluator = createLazyEvaluator(game, deadline);
  const kw = keywordSymbols(game.terms);
  const atomOf = new Map(game.atoms.map((a, i) => [a.term, i]));
  const heads = new Set(game.lazy!.heads);
  // Lazy atoms proper (not heads): unknown until asked.
  const opaque = lazyInputAtoms(game).filter((id) => !heads.has(game.atoms[id]!.term));
  const nextHeadAtoms = game.lazy!.heads.filter((t) => game.terms.functor(t) === kw.next).map((t) => atomOf.get(t)!);
  const setHeads = (rel: OutputKeyword): void => {
    for (const t of evaluator.heads(rel)) {
      const id = atomOf.get(t);
      if (id !== undefined) val[id] = 1;
    }
  };
  const forget = (): void => {
    for (const id of opaque) val[id] = UNKNOWN;
  };
  return {
    loadState: (state) => {
      const held: number[] = [];
      for (let f = 0; f < fluents.terms.length; f++) if ((state[f >>> 5]! >>> (f & 31)) & 1) held.push(fluents.terms[f]!);
      evaluator.setState(held);
      forget();
      setHeads('legal');
      setHeads('goal');
      setHeads('terminal');
    },
    loadMoves: (moves) => {
      evaluator.setMoves(moves.map((m) => {
        const args = game.atoms[m]!.args;
        return [args[0]!, args[1]!] as const;
      }));
      forget();
      for (const id of nextHeadAtoms) val[id] = 0;
    },
    nextHeads: () => setHeads('next'),
    resolve: (atom) => {
      const v = evaluator.holds(game.atoms[atom]!.term) ? 1 : 0;
      val[atom] = v;
      return v;
    },
  };
}
