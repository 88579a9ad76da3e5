/**
 * The validator: checks a parsed game against the rules of GDL and reports every problem at
 * once, sorted by position. Documented sloppiness of real games is repaired, with a warning,
 * in the returned game (docs/validation.md lists each repair and why it keeps the meaning);
 * everything else is an error. Unbalanced parentheses and bad characters are the parser's.
 */
import type { GameDescription } from './ast.js';
import { type Diagnostic, sortDiagnostics } from './diagnostics.js';
import { formatDiagnostic } from './diagnostics.js';
import { checkArities } from './validate-arity.js';
import { inlineDistinctHelpers } from './validate-inline.js';
import { checkKeywords } from './validate-keywords.js';
import { checkRecursion } from './validate-recursion.js';
import { checkSafety } from './validate-safety.js';

/** The result of validation: the (possibly repaired) game and every problem, sorted by position. */
export interface ValidationResult {
  readonly game: GameDescription;
  readonly diagnostics: readonly Diagnostic[];
}

/** Drops exact repeats, which arise when several disjuncts of one rule share a problem. */
function unique(list: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = formatDiagnostic(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Validates a parsed game; repairs documented sloppiness (with a warning) in the returned game.
 * Arities are checked on the game as written; then distinct-only helper relations are inlined,
 * safety is checked (and repaired) on the result, and keyword placement, stratification and
 * the recursion restriction are checked on the repaired game, which is what later stages see.
 */
export function validateGame(game: GameDescription): ValidationResult {
  const arity = checkArities(game.rules, game.file);
  const inlined = inlineDistinctHelpers(game.rules, game.file);
  const safety = checkSafety(inlined.rules, game.file);
  const repaired: GameDescription = { file: game.file, rules: safety.rules };
  const keywords = checkKeywords(repaired.rules, game.file);
  const recursion = checkRecursion(repaired.rules, game.file);
  const diagnostics = sortDiagnostics(unique([...arity, ...inlined.diagnostics, ...safety.diagnostics, ...keywords, ...recursion]));
  return { game: repaired, diagnostics };
}
