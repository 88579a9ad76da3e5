/**
 * A whole game normalized in one call, for tests. The pipeline normalizes each rule while it
 * validates (normalize/validate.ts memoizes `normalizeRule` per rule) and assembles the forms
 * (`assembleNormalGame`, pipeline/stages.ts); this is the same two steps without validation, for
 * tests that build games by hand (moved from src/normalize/normalize.ts in tidy32, where nothing
 * in src/ called it).
 */
import type { GameDescription } from '../../src/gdl/ast.js';
import { DEFAULT_NORMALIZE_OPTIONS, type NormalizeOptions, assembleNormalGame, freshNames, normalizeRule } from '../../src/normalize/normalize.js';
import type { NormalGame } from '../../src/normalize/types.js';

/**
 * Normalizes a (validated) game: NNF, DNF, one rule per disjunct, duplicates removed.
 * Throws GdlError naming the rule when a body's DNF would exceed `maxDisjuncts`.
 */
export function normalizeGame(game: GameDescription, options: NormalizeOptions = DEFAULT_NORMALIZE_OPTIONS): NormalGame {
  const fresh = options.splitGround === true ? freshNames(game) : undefined;
  return assembleNormalGame(game.file, game.rules.map((r) => normalizeRule(r, game.file, options, fresh)));
}
