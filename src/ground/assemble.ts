/**
 * The one canonicalization of a ground game (the contract of {@link GroundGame}): atoms in text
 * order (code point order) and renumbered, rule bodies ascending without duplicates, rules
 * sorted and unique, so that the same game always gives the same ground game, byte for byte.
 * Instantiation ends with it ({@link assembleGame}), reading its rules from the compact buffer
 * it made them in (rule-buffer.ts); pruning and unused-instance removal only restrict a game
 * already canonical (restrict.ts).
 */
import { Deadline } from '../deadline.js';
import { checkDeadline, deadlineTicker } from '../gdl/diagnostics.js';
import type { TermReader, TermTable } from '../datalog/terms.js';
import type { RuleBuffer } from './rule-buffer.js';
import { vocabularyOfTerms } from './vocabulary.js';
import { sortTermsByText } from './text-order.js';
import { gameWithRules } from './compact.js';
import { canonicalFromBuffer } from './assemble-rules.js';
import type { GroundGame, LazyPart } from './types.js';

const NONE: readonly number[] = Object.freeze([]);

/** What {@link canonicalGame} builds from: rules and init over some atom keys. */
interface GameDraft {
  readonly file: string;
  readonly terms: TermReader;
  /** Role term ids, in description order. */
  readonly roles: readonly number[];
  /** The term ids of all atoms used, already in text order (code point order). */
  readonly atomTerms: readonly number[];
  /** The new atom id (index into `atomTerms`) of each term id used in `init` and `rules`. */
  readonly renumber: Int32Array;
  readonly init: readonly number[];
  readonly rules: RuleBuffer;
  /** The lazy part (docs/lazy.md), handed on unchanged (its ids are term ids). */
  readonly lazy?: LazyPart;
}

/** Maps keys to new ids, ascending, duplicates dropped. */
function ascending(ids: readonly number[], renumber: Int32Array): readonly number[] {
  if (ids.length === 0) return NONE;
  const out = ids.map((id) => renumber[id]!);
  out.sort((x, y) => x - y);
  let n = 1;
  for (let i = 1; i < out.length; i++) if (out[i] !== out[n - 1]) out[n++] = out[i]!;
  out.length = n;
  return out;
}

/** Marks (1) every atom that `init` or a rule of `buf` mentions, over `count` atoms. */
function usedInBuffer(count: number, init: readonly number[], buf: RuleBuffer): Uint8Array {
  const used = new Uint8Array(count);
  for (const id of init) used[id] = 1;
  for (let i = 0; i < buf.count; i++) used[buf.heads[i]!] = 1;
  const end = buf.starts[buf.count]!;
  for (let k = 0; k < end; k++) used[buf.lits[k]! >> 1] = 1;
  return used;
}

/**
 * The canonical ground game of a draft whose atoms are already in text order; past a limit of
 * `deadline` (looked at per atom and rule, and after the sort) it throws a limit error.
 */
function canonicalGame(draft: GameDraft, deadline: Deadline): GroundGame {
  const { terms, renumber } = draft;
  const tick = deadlineTicker(deadline, draft.file, 'building the ground game');
  // Atoms as term ids: their objects are made only if a reader asks for them (compact.ts).
  const atoms = Int32Array.from(draft.atomTerms);
  // Rules that became equal (negations resolved late) are kept once.
  const rules = canonicalFromBuffer(draft.rules, renumber, atoms.length, tick);
  checkDeadline(deadline, draft.file, 'building the ground game');
  // The vocabulary is made here, once, so that no reader of the game classifies its atoms again.
  const vocabulary = vocabularyOfTerms(terms, atoms);
  const fields = { file: draft.file, terms, roles: draft.roles, init: ascending(draft.init, renumber), vocabulary };
  return gameWithRules(draft.lazy === undefined ? fields : { ...fields, lazy: draft.lazy }, atoms, rules);
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
  drafts: RuleBuffer,
  deadline: Deadline,
  lazy?: LazyPart,
): GroundGame {
  const tick = deadlineTicker(deadline, file, 'building the ground game');
  // Term ids are dense (0 .. table.size - 1): a byte per term marks the atoms used.
  const used = usedInBuffer(table.size, init, drafts);
  // The heads lazy rules may make are atoms of the game though no ground rule makes them.
  for (const h of lazy?.heads ?? []) used[h] = 1;
  const usedIds: number[] = [];
  for (let id = 0; id < used.length; id++) {
    if (used[id] === 0) continue;
    tick();
    usedIds.push(id);
  }
  const atomTerms = sortTermsByText(table, usedIds);
  checkDeadline(deadline, file, 'building the ground game');
  const renumber = new Int32Array(table.size).fill(-1);
  for (let i = 0; i < atomTerms.length; i++) renumber[atomTerms[i]!] = i;
  return canonicalGame({ file, terms: table, roles: [...roles], atomTerms, renumber, init, rules: drafts, ...(lazy === undefined ? {} : { lazy }) }, deadline);
}
