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
