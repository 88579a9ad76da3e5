/**
 * The validator: checks a parsed game against the rules of GDL and reports every problem at
 * once, sorted by position. Documented sloppiness of real games is repaired, with a warning,
 * in the returned game (docs/validation.md lists each repair and why it keeps the meaning);
 * everything else is an error. Unbalanced parentheses and bad characters are the parser's.
 *
 * It lives in the normalize stage because three of its checks are judged on normal form
 * (helper inlining, safety, the recursion restriction); the checks on rules as written come
 * from src/gdl/. Every rule is normalized once, with the run's options, and the normal forms
 * of the repaired rules are handed on, so that normalization proper only assembles them.
 */
import type { GameDescription, Rule } from '../gdl/ast.js';
import { type Diagnostic, checkDeadline, formatDiagnostic, sortDiagnostics } from '../gdl/diagnostics.js';
import { Deadline } from '../deadline.js';
import { checkArities } from '../gdl/validate-arity.js';
import { checkKeywords, checkSeesFacts } from '../gdl/validate-keywords.js';
import { checkLenient } from '../gdl/validate-lenient.js';
import { checkStratification } from '../gdl/validate-stratification.js';
import { inlineDistinctHelpers } from './inline.js';
import { DEFAULT_NORMALIZE_OPTIONS, type NormalForm, type NormalizeOptions, freshNames, normalizeRule } from './normalize.js';
import { checkRestriction } from './restriction.js';
import { checkSafety } from './safety.js';
import type { NormalRule } from './types.js';

/** The result of validation: the (possibly repaired) game and every problem, sorted by position. */
export interface ValidationResult {
  readonly game: GameDescription;
  readonly diagnostics: readonly Diagnostic[];
  /** The normal form of each rule of `game`, in the same order (for assembleNormalGame). */
  readonly forms: readonly NormalForm[];
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

/** The normal forms of one validation run: each rule (by identity) normalized once. */
function normalFormsOf(game: GameDescription, options: NormalizeOptions, deadline: Deadline): { form: (rule: Rule) => NormalForm; split: (rule: Rule) => readonly NormalRule[] | null } {
  const file = game.file;
  // Names for split-off parts, unique over the game (only used with options.splitGround).
  const fresh = options.splitGround === true ? freshNames(game) : undefined;
  const done = new Map<Rule, NormalForm>();
  const form = (rule: Rule): NormalForm => {
    // A fact's normal form is made at once (normalizeRule); remembering it would cost more.
    if (rule.body.length === 0) return normalizeRule(rule, file, options, fresh);
    let f = done.get(rule);
    if (f === undefined) {
      if (deadline.tick()) checkDeadline(deadline, file, 'validating the game');
      f = normalizeRule(rule, file, options, fresh);
      done.set(rule, f);
    }
    return f;
  };
  const split = (rule: Rule): readonly NormalRule[] | null => {
    const f = form(rule);
    return f.kind === 'split' ? f.rules : null;
  };
  return { form, split };
}

/**
 * Validates a parsed game; repairs documented sloppiness (with a warning) in the returned game,
 * and warns about every other construct beyond strict GDL that it reads (validate-lenient.ts).
 * `complete` false says that syntax errors lost sentences of the file: then only the checks
 * whose findings stay true of the whole file run (see checkKeywords).
 * Arities are checked on the game as written; then distinct-only helper relations are inlined,
 * safety is checked (and repaired) on the result, and keyword placement, stratification and
 * the recursion restriction are checked on the repaired game, which is what later stages see.
 */
export function validateGame(game: GameDescription, options: NormalizeOptions = DEFAULT_NORMALIZE_OPTIONS, complete = true, deadline: Deadline): ValidationResult {
  // Each pass reads every rule once; on a ground game of hundreds of thousands of rules a pass
  // takes seconds, so the run's clock is read between passes.
  const clock = (): void => checkDeadline(deadline, game.file, 'validating the game');
  const { form, split } = normalFormsOf(game, options, deadline);
  const arity = [...checkArities(game.rules, game.file), ...checkSeesFacts(game.rules, game.file)];
  clock();
  const lenient = checkLenient(game.rules, game.file);
  const inlined = inlineDistinctHelpers(game.rules, game.file, split);
  clock();
  const safety = checkSafety(inlined.rules, game.file, split);
  clock();
  const repaired: GameDescription = { file: game.file, rules: safety.rules };
  const keywords = checkKeywords(repaired.rules, game.file, complete);
  clock();
  const stratification = checkStratification(repaired.rules, game.file);
  clock();
  const restriction = checkRestriction(repaired.rules, game.file, split);
  clock();
  const diagnostics = sortDiagnostics(unique([...arity, ...lenient, ...inlined.diagnostics, ...safety.diagnostics, ...keywords, ...stratification, ...restriction]));
  return { game: repaired, diagnostics, forms: repaired.rules.map(form) };
}
