/** Hand-made ground games for tests, written as KIF texts of atoms. */
import { TermTable } from '../../src/datalog/terms.js';
import { parseGdl } from '../../src/gdl/parser.js';
import { assembleGame } from '../../src/ground/assemble.js';
import { appendRule, createRuleBuffer } from '../../src/ground/rule-buffer.js';
import type { GroundGame } from '../../src/ground/types.js';
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
