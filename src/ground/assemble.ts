/**
 * The one canonicalization of a ground game (the contract of {@link GroundGame}): atoms in text
 * order (code point order) and renumbered, rule bodies ascending without duplicates, rules
 * sorted and unique, so that the same game always gives the same ground game, byte for byte.
 * Instantiation ends with it ({@link assembleGame}) and pruning ends with it again
 * (reachability.ts), each handing over atoms already in text order.
 */
import { Deadline } from '../deadline.js';
import { checkDeadline, deadlineTicker } from '../gdl/diagnostics.js';
import { compareCodePoints } from '../gdl/terms.js';
import type { TermReader, TermTable } from '../datalog/terms.js';
import type { RuleDraft } from './evaluate.js';
import { usedAtoms } from './atoms.js';
import { groundVocabulary } from './vocabulary.js';
import type { GroundAtom, GroundGame, GroundRule, LazyPart } from './types.js';

const NONE: readonly number[] = Object.freeze([]);

/** Lexicographic order of two ascending id lists. */
function compareLists(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Rules by head, then positive body, then negative body. */
export function compareRules(a: GroundRule, b: GroundRule): number {
  return a.head - b.head || compareLists(a.pos, b.pos) || compareLists(a.neg, b.neg);
}

/** What {@link canonicalGame} builds from: rules and init over some atom keys. */
interface GameDraft {
  readonly file: string;
  readonly terms: TermReader;
  /** Role term ids, in description order. */
  readonly roles: readonly number[];
  /** The term ids of all atoms used, already in text order (code point order). */
  readonly atomTerms: readonly number[];
  /** The new atom id (index into `atomTerms`) of an atom key used in `init` and `rules`. */
  readonly index: (key: number) => number;
  readonly init: readonly number[];
  readonly rules: readonly RuleDraft[];
  /** The lazy part (docs/lazy.md), handed on unchanged (its ids are term ids). */
  readonly lazy?: LazyPart;
}

/** Maps keys to new ids, ascending, duplicates dropped. */
function ascending(ids: readonly number[], index: (key: number) => number): readonly number[] {
  if (ids.length === 0) return NONE;
  const out = ids.map(index).sort((x, y) => x - y);
  // Duplicates dropped in place: one new array per body, not two.
  let n = 1;
  for (let i = 1; i < out.length; i++) if (out[i] !== out[n - 1]) out[n++] = out[i]!;
  out.length = n;
  return out;
}

/**
 * The canonical ground game of a draft whose atoms are already in text order; past a limit of
 * `deadline` (looked at per atom and rule, and after the sort) it throws a limit error.
 */
export function canonicalGame(draft: GameDraft, deadline: Deadline): GroundGame {
  const { terms, index } = draft;
  const tick = deadlineTicker(deadline, draft.file, 'building the ground game');
  const atoms: GroundAtom[] = draft.atomTerms.map((term) => {
    tick();
    return { term, rel: terms.functor(term), args: terms.args(term) };
  });
  const rules: GroundRule[] = draft.rules.map((r) => {
    tick();
    return { head: index(r.head), pos: ascending(r.pos, index), neg: ascending(r.neg, index) };
  });
  rules.sort(compareRules);
  checkDeadline(deadline, draft.file, 'building the ground game');
  // Rules that became equal (negations resolved late, or dropped by pruning) are kept once.
  const unique = rules.filter((r, i) => i === 0 || compareRules(rules[i - 1]!, r) !== 0);
  // The vocabulary is made here, once, so that no reader of the game classifies its atoms again.
  const vocabulary = groundVocabulary({ terms, atoms });
  const game: GroundGame = { file: draft.file, terms, roles: draft.roles, atoms, init: ascending(draft.init, index), rules: unique, vocabulary };
  return draft.lazy === undefined ? game : { ...game, lazy: draft.lazy };
}

/**
 * Builds the ground game from internal ids: `roles` are term ids (in description order),
 * `init` atom ids of `(true F)`, `drafts` the ground rules, all over term ids of `table`.
 * Past a limit of `deadline` it throws a limit error.
 */
export function assembleGame(
  file: string,
  table: TermTable,
  roles: readonly number[],
  init: readonly number[],
  drafts: readonly RuleDraft[],
  deadline: Deadline,
  lazy?: LazyPart,
): GroundGame {
  const tick = deadlineTicker(deadline, file, 'building the ground game');
  // Term ids are dense (0 .. table.size - 1): a byte per term marks the atoms used.
  const used = usedAtoms(table.size, init, drafts);
  // The heads lazy rules may make are atoms of the game though no ground rule makes them.
  for (const h of lazy?.heads ?? []) used[h] = 1;
  const entries: { id: number; text: string }[] = [];
  for (let id = 0; id < used.length; id++) {
    if (used[id] === 0) continue;
    tick();
    entries.push({ id, text: table.text(id) });
  }
  entries.sort((x, y) => compareCodePoints(x.text, y.text));
  checkDeadline(deadline, file, 'building the ground game');
  const renumber = new Int32Array(table.size).fill(-1);
  entries.forEach((e, i) => (renumber[e.id] = i));
  const atomTerms = entries.map((e) => e.id);
  return canonicalGame({ file, terms: table, roles: [...roles], atomTerms, index: (id) => renumber[id]!, init, rules: drafts, ...(lazy === undefined ? {} : { lazy }) }, deadline);
}
