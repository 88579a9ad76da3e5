/**
 * The summary `gdl-ground check` prints for a valid game: its roles, how many relations, rules
 * and facts it has before and after normalization, and which relations are fluents, moves,
 * static relations and axioms (src/gdl/relations.ts decides the classes). It reads the normal form, so it
 * lives in the normalize stage.
 */
import type { GameDescription } from '../gdl/ast.js';
import { classifyRelations, relationGraph } from '../gdl/relations.js';
import { termToString } from '../gdl/terms.js';
import { asRule, type NormalGame } from './types.js';

/** What `check` reports about a valid game; every list is sorted, except roles (file order). */
export interface GameSummary {
  readonly file: string;
  /** The roles, in the order of their facts (the order GDL gives the players). */
  readonly roles: readonly string[];
  /** Number of relation constants, keywords included. */
  readonly relations: number;
  /** Rules with a body, as written (after validation's repairs). */
  readonly rules: number;
  /** Rules with a body after normalization (one per disjunct, duplicates removed). */
  readonly normalizedRules: number;
  /** Facts (rules without a body). */
  readonly facts: number;
  readonly fluents: readonly string[];
  readonly moves: readonly string[];
  readonly staticRelations: readonly string[];
  readonly axioms: readonly string[];
}

/** Summarizes a validated game and its normalization. */
export function summarizeGame(game: GameDescription, normal: NormalGame): GameSummary {
  const roles: string[] = [];
  for (const r of game.rules) {
    const arg = r.head.args[0];
    if (r.head.rel === 'role' && r.body.length === 0 && arg !== undefined) {
      const name = termToString(arg);
      if (!roles.includes(name)) roles.push(name);
    }
  }
  const normalRules = normal.rules.map(asRule);
  const classes = classifyRelations(normalRules);
  return {
    file: game.file,
    roles,
    relations: relationGraph(game.rules).relations.length,
    rules: game.rules.filter((r) => r.body.length > 0).length,
    normalizedRules: normal.rules.filter((r) => r.body.length > 0).length,
    facts: normal.rules.filter((r) => r.body.length === 0).length,
    fluents: classes.fluents,
    moves: classes.moves,
    staticRelations: classes.staticRelations,
    axioms: classes.axioms,
  };
}

/** The summary as short human-readable text, one item per line. */
export function formatSummary(s: GameSummary): string {
  const list = (xs: readonly string[]): string => (xs.length === 0 ? '(none)' : xs.join(' '));
  return [
    `${s.file}: valid GDL`,
    `roles: ${list(s.roles)}`,
    `relations: ${s.relations}`,
    `rules: ${s.rules} as written, ${s.normalizedRules} after normalization`,
    `facts: ${s.facts}`,
    `fluents: ${list(s.fluents)}`,
    `moves: ${list(s.moves)}`,
    `static relations: ${list(s.staticRelations)}`,
    `axioms: ${list(s.axioms)}`,
  ].join('\n') + '\n';
}
