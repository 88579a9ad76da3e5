/**
 * The last step of instantiation: turn internal atom ids into the {@link GroundGame} contract —
 * atoms sorted by text (code point order) and renumbered, rule bodies ascending, rules sorted —
 * so that the same game always gives the same ground game, byte for byte.
 */
import type { Term } from '../gdl/ast.js';
import { compareCodePoints, termToString } from '../gdl/terms.js';
import type { RuleDraft } from './evaluate.js';
import type { TermTable } from '../datalog/terms.js';
import type { GroundAtom, GroundGame, GroundRule } from './types.js';

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

/**
 * Builds the ground game from internal ids: `roles` are term ids (in description order),
 * `init` atom ids of `(true F)`, `drafts` the ground rules.
 */
export function assembleGame(
  file: string,
  table: TermTable,
  roles: readonly number[],
  init: readonly number[],
  drafts: readonly RuleDraft[],
): GroundGame {
  const used = new Set<number>(init);
  for (const r of drafts) {
    used.add(r.head);
    for (const p of r.pos) used.add(p);
    for (const n of r.neg) used.add(n);
  }
  const entries = [...used].map((id) => {
    const term = table.toTerm(id);
    return { id, term, text: termToString(term) };
  });
  entries.sort((x, y) => compareCodePoints(x.text, y.text));
  const renumber = new Map<number, number>();
  entries.forEach((e, i) => renumber.set(e.id, i));
  const atoms: GroundAtom[] = entries.map(({ term, text }) => ({
    text,
    rel: term.name,
    args: term.kind === 'fn' ? term.args : [],
  }));
  const map = (ids: readonly number[]): readonly number[] =>
    ids.length === 0 ? NONE : ids.map((id) => renumber.get(id)!).sort((x, y) => x - y);
  const rules: GroundRule[] = drafts.map((r) => ({ head: renumber.get(r.head)!, pos: map(r.pos), neg: map(r.neg) }));
  rules.sort(compareRules);
  // Rules that became equal when negations were resolved late are kept once.
  const unique = rules.filter((r, i) => i === 0 || compareRules(rules[i - 1]!, r) !== 0);
  const roleTerms: Term[] = roles.map((id) => table.toTerm(id));
  return { file, roles: roleTerms, atoms, init: map([...new Set(init)]), rules: unique };
}
