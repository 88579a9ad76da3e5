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
import { compareCodePoints } from '../gdl/terms.js';
import type { TermReader, TermTable } from '../datalog/terms.js';
import type { RuleBuffer } from './rule-buffer.js';
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
  readonly rules: RuleBuffer;
  /** The lazy part (docs/lazy.md), handed on unchanged (its ids are term ids). */
  readonly lazy?: LazyPart;
}

/** Maps keys to new ids, ascending, duplicates dropped. */
function ascending(ids: readonly number[], index: (key: number) => number): readonly number[] {
  if (ids.length === 0) return NONE;
  return ascendingInPlace(ids.map(index));
}

/** `out` sorted ascending with duplicates dropped, in place (one array per body, not two). */
function ascendingInPlace(out: number[]): readonly number[] {
  if (out.length === 0) return NONE;
  out.sort((x, y) => x - y);
  // Duplicates dropped in place: one new array per body, not two.
  let n = 1;
  for (let i = 1; i < out.length; i++) if (out[i] !== out[n - 1]) out[n++] = out[i]!;
  out.length = n;
  return out;
}

/** The rules of `buf` as ground rules over new ids (`index`), bodies ascending. */
function groundRules(buf: RuleBuffer, index: (key: number) => number, tick: () => void): GroundRule[] {
  const { heads, starts, lits } = buf;
  const rules = new Array<GroundRule>(buf.count);
  for (let i = 0; i < buf.count; i++) {
    tick();
    const pos: number[] = [];
    const neg: number[] = [];
    for (let k = starts[i]!; k < starts[i + 1]!; k++) (lits[k]! & 1 ? neg : pos).push(index(lits[k]! >> 1));
    rules[i] = { head: index(heads[i]!), pos: ascendingInPlace(pos), neg: ascendingInPlace(neg) };
  }
  return rules;
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
  const { terms, index } = draft;
  const tick = deadlineTicker(deadline, draft.file, 'building the ground game');
  const atoms: GroundAtom[] = draft.atomTerms.map((term) => {
    tick();
    return { term, rel: terms.functor(term), args: terms.args(term) };
  });
  const rules = groundRules(draft.rules, index, tick);
  // The clock is read inside the sort too: sorting 2.6×10⁶ rules (amazonsTorus) takes a second.
  rules.sort((a, b) => {
    tick();
    return compareRules(a, b);
  });
  checkDeadline(deadline, draft.file, 'building the ground game');
  // Rules that became equal (negations resolved late, or dropped by pruning) are kept once.
  const unique = rules.filter((r, i) => {
    tick();
    return i === 0 || compareRules(rules[i - 1]!, r) !== 0;
  });
  // The vocabulary is made here, once, so that no reader of the game classifies its atoms again.
  const vocabulary = groundVocabulary({ terms, atoms });
  checkDeadline(deadline, draft.file, 'building the ground game');
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
  drafts: RuleBuffer,
  deadline: Deadline,
  lazy?: LazyPart,
): GroundGame {
  const tick = deadlineTicker(deadline, file, 'building the ground game');
  // Term ids are dense (0 .. table.size - 1): a byte per term marks the atoms used.
  const used = usedInBuffer(table.size, init, drafts);
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
