/**
 * Plays a GDDL game read back (docs/gddl.md, "Semantics") through the {@link GameSimulator}
 * interface, so that `verify` can hold it against the original game's reasoner. A state is the
 * set of fluents that hold (one byte per fluent). In a state, derived predicates are computed
 * stratum by stratum (least fixpoint per stratum); the legal moves of a role are the moves it
 * plays in the multi-actions whose global precondition holds; the successor after a joint
 * move holds exactly the effects whose precondition held before. Texts are the KIF terms the
 * names were flattened from.
 */
import { nameToKif } from './names.js';
import { compareCodePoints } from '../../gdl/terms.js';
import type { GameSimulator, StateInfo } from '../../play/types.js';
import { evaluate } from './read-formula.js';
import type { GddlGame } from './read.js';

/** A state of a GDDL game: 1 for each fluent (by index) that holds. */
type GddlState = Uint8Array;

/** An error while playing: a joint move no multi-action describes, or one not applicable. */
export class GddlPlayError extends Error {}

/** The KIF text of a name, or the name itself when it is not a flattened term. */
const kif = (name: string): string => nameToKif(name) ?? name;

/** A simulator of `game`; moves and goal values are GDDL names. */
export function createGddlSimulator(game: GddlGame): GameSimulator<GddlState, string, string> {
  const nf = game.fluents.length;
  const size = nf + game.derived.length;
  const strata = [...new Set(game.derived.map((d) => d.stratum))].sort((a, b) => a - b)
    .map((s) => game.derived.flatMap((d, i) => (d.stratum === s ? [i] : [])));
  const byMoves = new Map<string, number>();
  game.actions.forEach((a, i) => byMoves.set(a.moves.join(' '), i));
  const fluentText = game.fluents.map(kif);
  const stack = new Uint8Array(1 << 16);
  const holds = (program: Int32Array, values: Uint8Array): boolean => evaluate(program, values, program.length <= stack.length ? stack : new Uint8Array(program.length));
  // Values of fluents and derived predicates per state (states are never changed once made).
  const cache = new WeakMap<GddlState, Uint8Array>();

  const values = (state: GddlState): Uint8Array => {
    let v = cache.get(state);
    if (v !== undefined) return v;
    v = new Uint8Array(size);
    v.set(state);
    for (const members of strata) {
      // Least fixpoint of one stratum: its predicates occur only positively in it.
      for (let changed = true; changed;) {
        changed = false;
        for (const d of members) {
          if (v[nf + d] === 1 || !holds(game.derived[d]!.condition, v)) continue;
          v[nf + d] = 1;
          changed = true;
        }
      }
    }
    cache.set(state, v);
    return v;
  };

  const info = (state: GddlState): StateInfo<string, string> => {
    const v = values(state);
    const legal = game.roles.map(() => new Set<string>());
    for (const a of game.actions) {
      if (!holds(a.precondition, v)) continue;
      a.moves.forEach((m, r) => legal[r]!.add(m));
    }
    const goals = game.roles.map(() => [] as string[]);
    for (const r of game.rewards) if (holds(r.condition, v)) goals[r.role]!.push(r.value);
    return { legal: legal.map((s) => [...s]), terminal: holds(game.terminal, v), goals };
  };

  const successor = (state: GddlState, moves: readonly string[]): GddlState => {
    const i = byMoves.get(moves.join(' '));
    if (i === undefined) throw new GddlPlayError(`no multi-action for the joint move ${moves.join(' ')}`);
    const action = game.actions[i]!;
    const v = values(state);
    if (!holds(action.precondition, v)) throw new GddlPlayError(`the multi-action ${moves.join(' ')} is not applicable`);
    const next = new Uint8Array(nf);
    for (const e of action.effects) if (next[e.fluent] === 0 && holds(e.condition, v)) next[e.fluent] = 1;
    return next;
  };

  return {
    roles: game.roles.map(kif),
    initialState: () => {
      const s = new Uint8Array(nf);
      for (const f of game.init) s[f] = 1;
      return s;
    },
    info,
    successor,
    text: {
      state: (state) => fluentText.filter((_, i) => state[i] === 1).sort(compareCodePoints),
      move: kif,
      value: kif,
    },
  };
}
