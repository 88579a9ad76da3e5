/**
 * Elimination of unused ground instances (GGP book, end of 14.4): a ground rule is needed when
 * its head is a `next`, `legal`, `goal` or `terminal` atom, or an atom some needed rule reads;
 * everything else (rules and the atoms only they mention) can go without changing play.
 */
import { Deadline } from '../deadline.js';
import { checkDeadline, deadlineTicker } from '../gdl/diagnostics.js';
import { compareRules } from '../ground/assemble.js';
import { lazyInputAtoms, usedAtoms } from '../ground/atoms.js';
import type { GroundAtom, GroundGame, GroundRule } from '../ground/types.js';
import { renumberVocabulary } from '../ground/vocabulary.js';
import { atomKind, isOutput } from './atoms.js';

const NONE: readonly number[] = Object.freeze([]);

/** Rule indices per head atom. */
export function rulesByHead(game: GroundGame): number[][] {
  const byHead: number[][] = Array.from({ length: game.atoms.length }, () => []);
  game.rules.forEach((r, i) => byHead[r.head]!.push(i));
  return byHead;
}

/**
 * The atoms whose rules play needs: the outputs, then backwards through rule bodies.
 *   needed(H) :- rule(H, _), output(H).
 *   needed(B) :- needed(H), rule(H, Body), B in Body.
 */
export function neededAtoms(game: GroundGame, deadline: Deadline): Uint8Array {
  const tick = deadlineTicker(deadline, game.file, 'dropping unused instances');
  const byHead = rulesByHead(game);
  const needed = new Uint8Array(game.atoms.length);
  const todo: number[] = [];
  for (let id = 0; id < game.atoms.length; id++) {
    if (byHead[id]!.length > 0 && isOutput(atomKind(game, id))) {
      needed[id] = 1;
      todo.push(id);
    }
  }
  const mark = (b: number): void => {
    if (needed[b] === 0) {
      needed[b] = 1;
      todo.push(b);
    }
  };
  while (todo.length > 0) {
    for (const r of byHead[todo.pop()!]!) {
      tick();
      const rule = game.rules[r]!;
      rule.pos.forEach(mark);
      rule.neg.forEach(mark);
    }
  }
  return needed;
}

/**
 * Keeps the atoms with `keep[id] === 1`, renumbered in their present order. Because a subset of
 * a sorted list is sorted, the result keeps whatever order the atoms had (by text, per the
 * GroundGame contract) and renumbering is monotone: ascending bodies stay ascending.
 */
export function restrictAtoms(atoms: readonly GroundAtom[], keep: Uint8Array): { atoms: GroundAtom[]; renumber: Int32Array } {
  const renumber = new Int32Array(atoms.length).fill(-1);
  const out: GroundAtom[] = [];
  atoms.forEach((a, id) => {
    if (keep[id] === 1) {
      renumber[id] = out.length;
      out.push(a);
    }
  });
  return { atoms: out, renumber };
}

/** Counts of what {@link removeUnused} dropped. */
export interface UnusedStats {
  readonly rulesBefore: number;
  readonly rulesAfter: number;
  readonly atomsBefore: number;
  readonly atomsAfter: number;
}

/**
 * Drops every rule whose head is not needed and every atom no remaining rule or `init`
 * mentions; pure, and the result keeps the GroundGame contract (atoms in their order, bodies
 * ascending, rules sorted by {@link compareRules}). Play is unchanged: only atoms that no
 * output depends on lose their rules. Past a limit of `deadline` it throws a limit error.
 */
export function removeUnused(game: GroundGame, deadline: Deadline): { game: GroundGame; stats: UnusedStats } {
  const needed = neededAtoms(game, deadline);
  checkDeadline(deadline, game.file, 'dropping unused instances');
  const rules = game.rules.filter((r) => needed[r.head] === 1);
  const used = usedAtoms(game.atoms.length, game.init, rules);
  // Lazy atoms and lazy rules' heads (docs/lazy.md) stay: the simulators read and make them.
  for (const id of lazyInputAtoms(game)) used[id] = 1;
  const { atoms, renumber } = restrictAtoms(game.atoms, used);
  const map = (ids: readonly number[]): readonly number[] => (ids.length === 0 ? NONE : ids.map((id) => renumber[id]!));
  const out: GroundRule[] = rules.map((r) => ({ head: renumber[r.head]!, pos: map(r.pos), neg: map(r.neg) }));
  // Already in order (monotone renumbering); sorting again states the contract, not a hope.
  out.sort(compareRules);
  checkDeadline(deadline, game.file, 'dropping unused instances');
  const stats = { rulesBefore: game.rules.length, rulesAfter: out.length, atomsBefore: game.atoms.length, atomsAfter: atoms.length };
  return { game: { ...game, atoms, init: map(game.init), rules: out, vocabulary: renumberVocabulary(game.vocabulary, renumber) }, stats };
}
