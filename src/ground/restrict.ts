/**
 * Restricting a ground game to a subset of its rules (pruning, unused-instance removal): the
 * atoms no kept rule, `init` or lazy input mentions go, the rest are renumbered in their order.
 * A subset of a sorted atom list is sorted, so renumbering is monotone: bodies stay ascending
 * and the game keeps its contract (types.ts) without a new canonicalization. Rules are only
 * sorted again when a caller changed a body (then checked in one pass, sorted only if needed),
 * and when nothing is dropped the game's own atoms, rules and vocabulary are reused: no second
 * copy of a game of millions of rules is made to say the same thing.
 */
import { Deadline } from '../deadline.js';
import { checkDeadline, deadlineTicker } from '../gdl/diagnostics.js';
import { compareRules } from './assemble.js';
import { lazyInputAtoms, usedAtoms } from './atoms.js';
import { renumberVocabulary } from './vocabulary.js';
import type { GroundAtom, GroundGame, GroundRule } from './types.js';

const NONE: readonly number[] = Object.freeze([]);

/** Maps ascending ids through a monotone renumbering (they stay ascending and distinct). */
function mapIds(ids: readonly number[], renumber: Int32Array): readonly number[] {
  if (ids.length === 0) return NONE;
  const out = new Array<number>(ids.length);
  for (let i = 0; i < ids.length; i++) out[i] = renumber[ids[i]!]!;
  return out;
}

/** `rules` sorted by {@link compareRules} without duplicates: one pass when already so, a sort otherwise. */
function sortedUnique(given: readonly GroundRule[]): readonly GroundRule[] {
  let sorted = true;
  for (let i = 1; i < given.length && sorted; i++) sorted = compareRules(given[i - 1]!, given[i]!) < 0;
  if (sorted) return given;
  const rules = [...given].sort(compareRules);
  // Rules that became equal (negations dropped by pruning) are kept once.
  let n = 0;
  for (let i = 0; i < rules.length; i++) if (n === 0 || compareRules(rules[n - 1]!, rules[i]!) !== 0) rules[n++] = rules[i]!;
  rules.length = n;
  return rules;
}

/**
 * The game restricted to `rules` (a subsequence of `game.rules` in its order, in the game's atom
 * ids; a rule may have lost negative literals, then `changed` must be true) and the atoms they,
 * `init` and the lazy part mention, renumbered in order. Past a limit of `deadline` it throws
 * a limit error. The result has the other fields of `game` as they are.
 */
export function restrictGame(game: GroundGame, rules: readonly GroundRule[], changed: boolean, deadline: Deadline, what: string): GroundGame {
  const tick = deadlineTicker(deadline, game.file, what);
  const n = game.atoms.length;
  const used = usedAtoms(n, game.init, rules, tick);
  // Lazy atoms and lazy rules' heads (docs/lazy.md) stay: the simulators read and make them.
  for (const id of lazyInputAtoms(game)) used[id] = 1;
  const renumber = new Int32Array(n).fill(-1);
  const atoms: GroundAtom[] = [];
  for (let id = 0; id < n; id++) {
    tick();
    if (used[id] === 0) continue;
    renumber[id] = atoms.length;
    atoms.push(game.atoms[id]!);
  }
  const identity = atoms.length === n;
  let out = rules;
  if (!identity) {
    const mapped = new Array<GroundRule>(rules.length);
    for (let i = 0; i < rules.length; i++) {
      tick();
      const r = rules[i]!;
      mapped[i] = { head: renumber[r.head]!, pos: mapIds(r.pos, renumber), neg: mapIds(r.neg, renumber) };
    }
    out = mapped;
  }
  if (changed) out = sortedUnique(out);
  checkDeadline(deadline, game.file, what);
  return {
    ...game,
    atoms: identity ? game.atoms : atoms,
    init: identity ? game.init : mapIds(game.init, renumber),
    rules: out,
    vocabulary: identity ? game.vocabulary : renumberVocabulary(game.vocabulary, renumber),
  };
}
