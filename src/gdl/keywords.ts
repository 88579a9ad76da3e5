/**
 * The GDL keywords, listed once: every module that asks whether a relation is a keyword, or
 * which keywords a game's rules define for the players, reads these lists.
 */

/** The relation constants with a fixed meaning in GDL. */
const KEYWORD_LIST = ['role', 'init', 'true', 'next', 'legal', 'does', 'goal', 'terminal', 'base', 'input', 'distinct', 'sees'] as const;

/** {@link KEYWORD_LIST} as a set, for membership tests by name. */
export const KEYWORDS: ReadonlySet<string> = new Set(KEYWORD_LIST);

/**
 * The output keywords: what the rules tell the players about a state (`legal`, `goal`,
 * `terminal`), the state that follows (`next`) and, in GDL-II, what each role perceives of a
 * joint move (`sees`, docs/gdl2.md). Their rules are the ones play needs.
 */
export const OUTPUT_KEYWORDS = ['next', 'legal', 'goal', 'terminal', 'sees'] as const;

/** The GDL-II keyword (docs/gdl2.md): `(sees R P)`, role R perceives P after a joint move. */
export const SEES = 'sees';

/** The reserved GDL-II role whose moves are chosen uniformly at random (docs/gdl2.md). */
export const RANDOM_ROLE = 'random';

/** An output keyword. */
export type OutputKeyword = (typeof OUTPUT_KEYWORDS)[number];

/** {@link OUTPUT_KEYWORDS} as a set. */
export const OUTPUT_KEYWORD_SET: ReadonlySet<string> = new Set(OUTPUT_KEYWORDS);

/**
 * The output keywords a rule body may read, which the state decides: all but `next` (`true` and
 * `does`, the inputs, are read by every program).
 */
export const READ_KEYWORDS: ReadonlySet<string> = new Set(['legal', 'goal', 'terminal']);

/** The keywords that are a ground atom's kind in play: the inputs `true` and `does`, and the outputs. */
export const PLAY_KEYWORDS: ReadonlySet<string> = new Set(['true', 'does', ...OUTPUT_KEYWORDS]);

/** Whether `rel` is an output keyword. */
export function isOutputKeyword(rel: string): rel is OutputKeyword {
  return OUTPUT_KEYWORD_SET.has(rel);
}
