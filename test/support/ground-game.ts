/** Hand-made ground games for tests, written as KIF texts of atoms. */
import { TermTable } from '../../src/datalog/terms.js';
import { parseGdl } from '../../src/gdl/parser.js';
import { assembleGame } from '../../src/ground/assemble.js';
import { appendRule, createRuleBuffer } from '../../src/ground/rule-buffer.js';
import type { GroundGame, GroundRule } from '../../src/ground/types.js';
import { Deadline } from '../../src/deadline.js';

/** A ground rule as [head, positive body, negative body] atom texts. */
export type RuleTexts = readonly [string, readonly string[], readonly string[]];

/** The term id of an atom written as KIF text, such as `(true (cell 1 b))` or `terminal`. */
export function atomId(table: TermTable, text: string): number {
  const atom = parseGdl(text, undefined, Deadline.never()).game.rules[0]!.head;
  return table.compound(atom.rel, atom.args.map((a) => table.fromTerm(a)));
}

/**
 * A canonical ground game (atoms in text order, renumbered) with the given roles, initial
 * fluents F (as `(true F)` atoms) and rules.
 */
export function handMadeGame(roles: readonly string[], init: readonly string[], rules: readonly RuleTexts[], file = 'hand-made'): GroundGame {
  const table = new TermTable();
  const id = (t: string): number => atomId(table, t);
  const roleIds = roles.map((r) => table.constant(r));
  const initIds = init.map((f) => id(`(true ${f})`));
  const drafts = createRuleBuffer();
  for (const [h, p, n] of rules) appendRule(drafts, id(h), p.map(id), n.map(id));
  return assembleGame(file, table, roleIds, initIds, drafts, Deadline.never());
}

/** The id in `game` of the atom with KIF text `text`, -1 when absent. */
export function findAtom(game: GroundGame, text: string): number {
  return game.atoms.findIndex((a) => game.terms.text(a.term) === text);
}

/** Lexicographic order of two ascending id lists. */
function compareLists(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The rule order of a canonical ground game (types.ts' contract): by head, then positive body,
 * then negative body. Written here, apart from the canonicalization (assemble-rules.ts sorts
 * compact rules by keys), so that tests check its order independently (moved from
 * ground/assemble.ts in tidy32, where nothing in src/ called it).
 */
export function compareRules(a: GroundRule, b: GroundRule): number {
  return a.head - b.head || compareLists(a.pos, b.pos) || compareLists(a.neg, b.neg);
}
