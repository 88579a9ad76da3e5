/**
 * Which turn-taking games the fast simulator plays on one net per control fluent (docs/play.md,
 * "Specialized nets"). Each per-turn net takes in the changes of a whole round, so what does not
 * depend on the turn is propagated once per net; what is saved is the work on the control atoms
 * (every rule reading them touched at every turn) and, when the roles not to move have only a
 * noop, everything their moves and legal rules cost: in a per-turn net their legal atoms are
 * facts, their other moves never played, and the mover's frame rules can be complemented
 * (complement.ts), which a role with a noop that has no does atom prevents in the general net.
 */
import type { GroundGame, GroundRule } from '../../ground/types.js';
import type { GroundState } from '../ground-sim.js';
import { createRandom } from '../random.js';
import type { Net } from './net.js';

/**
 * The per-turn nets of a noop game are compiled to be weighed only when the general net has at
 * most this many readers: compiling them costs about what the general net cost, wasted when
 * they do not pay (reversi's and quarto's would triple the time to make the simulator).
 */
const MAX_WEIGHED_READERS = 20_000;

/** Readers in `net` of the true atoms of `fluents` (fluent indices; -1 atoms have none). */
function readersOf(net: Net, trueAtom: Int32Array, fluents: Iterable<number>): number {
  let readers = 0;
  for (const f of fluents) {
    const a = trueAtom[f]!;
    if (a >= 0 && a < net.atoms) readers += net.readStart[a + 1]! - net.readStart[a]!;
  }
  return readers;
}

/**
 * Whether the control atoms' readers are at least a tenth of the general net's: then the
 * per-turn nets pay whatever the roles' moves (measured on the corpus: breakthrough 16 %,
 * speedChess 17 %, ticTacToe 13 % since factoring.ts factors rules with a does literal, pay;
 * connectFour 2 %, reversi 0.5 % do not by this alone).
 */
export function controlReadersPay(general: Net, control: readonly number[], trueAtom: Int32Array): boolean {
  return readersOf(general, trueAtom, control) * 10 >= general.readers.length;
}

/** Steps of the one seeded playout {@link changesPerStep} samples. */
const SAMPLED_STEPS = 32;

/**
 * What {@link changesPerStep} plays: the fast simulator's general net, already compiled (making a
 * ground simulator only for the sample took platformjumpers from 0.4 to 0.7 s to make the
 * simulator). `moves` loads a state and gives its legal moves per role in ascending order, or
 * undefined when it is terminal; `successor` the state after a joint move.
 */
export interface StepSampler {
  initialState(): GroundState;
  moves(state: GroundState): readonly (readonly number[])[] | undefined;
  successor(state: GroundState, moves: readonly number[]): GroundState;
}

/**
 * How often each fluent changes per step (fluent index to changes / steps) in one seeded random
 * playout of at most {@link SAMPLED_STEPS} steps on `sampler` (the general net): deterministic,
 * and the same playout as on the ground simulator of `verify` (the same legal moves in the same
 * ascending order, the same random numbers), so the decision does not depend on which simulator
 * sampled. Undefined for a game with a lazy part (its evaluator is not sampled), a general net of
 * more than {@link MAX_WEIGHED_READERS} readers (the only place the cap is checked for
 * {@link controlWorkPays}), or a game whose initial state is terminal.
 */
export function changesPerStep(game: GroundGame, general: Net, sampler: StepSampler): Float64Array | undefined {
  if (game.lazy !== undefined || general.readers.length > MAX_WEIGHED_READERS) return undefined;
  const random = createRandom(1);
  let state = sampler.initialState();
  const counts = new Float64Array(state.length * 32);
  let steps = 0;
  for (; steps < SAMPLED_STEPS; steps++) {
    const legal = sampler.moves(state);
    if (legal === undefined || legal.some((ms) => ms.length === 0)) break;
    const next = sampler.successor(state, legal.map((ms) => ms[random.below(ms.length)]!));
    for (let w = 0; w < state.length; w++) {
      for (let diff = state[w]! ^ next[w]!; diff !== 0; diff &= diff - 1) counts[(w << 5) | (31 - Math.clz32(diff & -diff))]!++;
    }
    state = next;
  }
  if (steps === 0) return undefined;
  return counts.map((c) => c / steps);
}

/**
 * Whether the control atoms do at least three quarters of the counter updates of a step, each fluent's
 * readers weighed by how often it changes (`changes`, {@link changesPerStep}, which is undefined
 * for a net over {@link MAX_WEIGHED_READERS} readers: per-turn nets of a large net double the time
 * to make the simulator, hex 4.5 -> 9 s, and were slower): what a per-turn
 * net saves is that work, and the control fluents change at every step while most others
 * rarely do, so their share of the readers understates it (platformjumpers, held out: 8.5 % of
 * the readers, about two thirds of the updates).
 */
export function controlWorkPays(general: Net, control: readonly number[], trueAtom: Int32Array, changes: Float64Array): boolean {
  let controlWork = 0;
  let all = 0;
  for (let f = 0; f < trueAtom.length && f < changes.length; f++) {
    const work = readersOf(general, trueAtom, [f]) * changes[f]!;
    all += work;
    if (control.includes(f)) controlWork += work;
  }
  return all > 0 && controlWork * 4 >= all * 3;
}

/**
 * Whether, in the rules of every turn (one rule set per control fluent, simplified with it
 * true), every role but one has a single legal move and that move is a fact: the roles not to
 * move play a noop. Only then, and for a general net of at most {@link MAX_WEIGHED_READERS}
 * readers, are the per-turn nets worth compiling to be weighed.
 */
export function noopTurns(game: GroundGame, general: Net, turns: readonly (readonly GroundRule[])[]): boolean {
  if (general.readers.length > MAX_WEIGHED_READERS) return false;
  const roleOf = new Map(game.roles.map((r, i) => [r, i]));
  return turns.every((rules) => {
    const derived = new Set<number>();
    const facts = new Set<number>();
    for (const r of rules) {
      derived.add(r.head);
      if (r.pos.length === 0 && r.neg.length === 0) facts.add(r.head);
    }
    const legal = game.roles.map(() => 0);
    const fixed = game.roles.map(() => 0);
    for (const m of game.vocabulary.moves) {
      const r = roleOf.get(m.role);
      if (r === undefined || m.legalId < 0 || !derived.has(m.legalId)) continue;
      legal[r]!++;
      if (facts.has(m.legalId)) fixed[r]!++;
    }
    return legal.filter((n, r) => !(n === 1 && fixed[r] === 1)).length <= 1;
  });
}

/**
 * Whether the per-turn nets together read the fluents other than the control ones at most half
 * as often as the general net does: each per-turn net sees every change of a round, so their
 * readers add up, and the round trip (a state loaded into each net in turn) costs about as much
 * again. chomp: 706 readers in its two per-turn nets against 4,426 in the general net (its
 * frame rules complemented), so it pays; ticTacToe 204 against 255 does not (measured slower).
 */
export function turnNetsPay(general: Net, nets: readonly Net[], control: readonly number[], trueAtom: Int32Array): boolean {
  const others: number[] = [];
  for (let f = 0; f < trueAtom.length; f++) if (!control.includes(f)) others.push(f);
  const split = nets.reduce((sum, net) => sum + readersOf(net, trueAtom, others), 0);
  return split * 2 <= readersOf(general, trueAtom, others);
}
