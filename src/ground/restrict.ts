/**
 * Restricting a ground game to a subset of its rules (pruning, unused-instance removal): the
 * atoms no kept rule, `init` or lazy input mentions go, the rest are renumbered in their order.
 * A subset of a sorted atom list is sorted, so renumbering is monotone: bodies stay ascending
 * and the game keeps its contract (types.ts) without a new canonicalization. Rules are only
 * sorted again when a caller changed a body (then checked in one pass, sorted only if needed),
 * and when nothing is dropped the game's own atoms, rules and vocabulary are reused: no second
 * copy of a game of millions of rules is made to say the same thing. Rules are read and made
 * compactly (compact.ts).
 */
import { Deadline } from '../deadline.js';
import { checkDeadline, deadlineTicker } from '../gdl/diagnostics.js';
import { lazyInputAtoms } from './atoms.js';
import { type CompactRules, atomTerms, canonicalRules, gameFields, gameWithRules } from './compact.js';
import { renumberVocabulary } from './vocabulary.js';
import type { GroundGame } from './types.js';

const NONE: readonly number[] = Object.freeze([]);

/** Maps ascending ids through a monotone renumbering (they stay ascending and distinct). */
function mapIds(ids: readonly number[], renumber: Int32Array): readonly number[] {
  if (ids.length === 0) return NONE;
  const out = new Array<number>(ids.length);
  for (let i = 0; i < ids.length; i++) out[i] = renumber[ids[i]!]!;
  return out;
}

/** Marks (1) every atom that `init` or a rule of `rules` mentions, over `count` atoms. */
function usedAtoms(count: number, init: readonly number[], rules: CompactRules, tick: () => void): Uint8Array {
  const used = new Uint8Array(count);
  for (const id of init) used[id] = 1;
  for (let i = 0; i < rules.count; i++) {
    tick();
    used[rules.heads[i]!] = 1;
  }
  const end = rules.starts[rules.count]!;
  for (let k = 0; k < end; k++) {
    tick();
    used[rules.lits[k]!] = 1;
  }
  return used;
}

/** `rules` with every atom id mapped through a monotone renumbering (order and bodies stay canonical). */
function renumberRules(rules: CompactRules, renumber: Int32Array, tick: () => void): CompactRules {
  const heads = new Int32Array(rules.count);
  for (let i = 0; i < rules.count; i++) {
    tick();
    heads[i] = renumber[rules.heads[i]!]!;
  }
  const lits = new Int32Array(rules.starts[rules.count]!);
  for (let k = 0; k < lits.length; k++) lits[k] = renumber[rules.lits[k]!]!;
  return { count: rules.count, heads, starts: rules.starts, negAt: rules.negAt, lits };
}

/**
 * The game restricted to `rules` (a subsequence of the game's rules in their order, in the
 * game's atom ids; a rule may have lost negative literals, then `changed` must be true) and the
 * atoms they, `init` and the lazy part mention, renumbered in order. Past a limit of `deadline`
 * it throws a limit error. The result has the other fields of `game` as they are.
 */
export function restrictGame(game: GroundGame, rules: CompactRules, changed: boolean, deadline: Deadline, what: string): GroundGame {
  const tick = deadlineTicker(deadline, game.file, what);
  const terms = atomTerms(game);
  const n = terms.length;
  const used = usedAtoms(n, game.init, rules, tick);
  // Lazy atoms and lazy rules' heads (docs/lazy.md) stay: the simulators read and make them.
  for (const id of lazyInputAtoms(game)) used[id] = 1;
  const renumber = new Int32Array(n).fill(-1);
  let count = 0;
  for (let id = 0; id < n; id++) {
    tick();
    if (used[id] === 0) continue;
    renumber[id] = count++;
  }
  const identity = count === n;
  let out = identity ? rules : renumberRules(rules, renumber, tick);
  if (changed) out = canonicalRules(out, count, tick);
  checkDeadline(deadline, game.file, what);
  const fields = gameFields(game);
  if (identity) return gameWithRules(fields, terms, out);
  const atoms = new Int32Array(count);
  for (let id = 0; id < n; id++) if (renumber[id]! >= 0) atoms[renumber[id]!] = terms[id]!;
  return gameWithRules({ ...fields, init: mapIds(game.init, renumber), vocabulary: renumberVocabulary(game.vocabulary, renumber) }, atoms, out);
}
