/**
 * The game without axioms: the ground game's roles, atoms and initial state, with rules whose
 * bodies are formulas; and the options and statistics of the stage that makes it.
 */
import type { GroundGame } from '../ground/types.js';
import type { Formula } from './formula.js';

/** A rule `(<= head body...)`: the head holds when every formula of the body holds (none: a fact). */
export interface FormulaRule {
  readonly head: number;
  readonly body: readonly Formula[];
}

/**
 * A ground game whose rule bodies are formulas over its atoms. Atoms follow the GroundGame
 * contract (only those mentioned, in GroundGame order); rules are sorted by head, then in the
 * order the stage made them (deterministic).
 */
export interface FormulaGame extends Omit<GroundGame, 'rules'> {
  readonly rules: readonly FormulaRule[];
}

/** Options of axiom removal, resolved once by the caller. */
export interface AxiomOptions {
  /**
   * Largest formula (in {@link Formula.size} nodes) a substitution may create: an axiom whose
   * definition would be larger, or whose substitution would make a rule body larger, stays a rule.
   */
  readonly maxFormula: number;
  /**
   * Budget for the whole game: the largest total body size (sum of the rule body sizes, in
   * nodes) the substitutions may bring the output to; an axiom whose substitution would push
   * the estimated total over it stays a rule (reason `growth`). Undefined: the default of
   * {@link defaultGrowthBudget}, relative to the input.
   */
  readonly maxTotal?: number;
}

/**
 * Default: 2,000 nodes per formula and the total budget of {@link defaultGrowthBudget}.
 * Tic-tac-toe's `line` is 33 nodes and connect four's about 350; a formula of 2,000 nodes is
 * some 30 KB of text, and it is repeated in every rule that uses it.
 */
export const DEFAULT_AXIOM_OPTIONS: AxiomOptions = { maxFormula: 2000 };

/** The default growth budget is this many times the input's total body size... */
export const GROWTH_FACTOR = 4;
/**
 * ...but at least this many nodes (some 3.5 MB of text at about 17 bytes a node), so that small
 * games (tic-tac-toe grows 1.4 times, connect four 4.2 times) lose none of their axioms.
 */
export const GROWTH_FLOOR = 200_000;

/** The default total body size budget for an input of total body size `sizeBefore`. */
export function defaultGrowthBudget(sizeBefore: number): number {
  return Math.max(GROWTH_FACTOR * sizeBefore, GROWTH_FLOOR);
}

/** Formulas nested deeper than this are not made: this project's parser refuses depth 500. */
export const MAX_FORMULA_DEPTH = 200;

/** Why an axiom stayed a rule. */
export type KeptReason = 'recursive' | 'size' | 'growth';

/** An axiom that stayed a rule. */
interface KeptAxiom {
  /** KIF text of the ground atom. */
  readonly atom: string;
  readonly reason: KeptReason;
}

/** What axiom removal did, for `--stats`. */
export interface AxiomStats {
  /** Ground axiom atoms defined by rules in the input. */
  readonly axioms: number;
  /** Axioms replaced by their definition everywhere, their rules dropped. */
  readonly removed: number;
  /** Axioms kept as rules, per reason. */
  readonly keptByReason: Readonly<Record<KeptReason, number>>;
  /** Axioms kept as rules, sorted by text. */
  readonly kept: readonly KeptAxiom[];
  readonly rulesBefore: number;
  readonly rulesAfter: number;
  /** Sum of the rule body sizes before and after (a body is a conjunction of its literals). */
  readonly sizeBefore: number;
  readonly sizeAfter: number;
  /** Largest rule body before and after. */
  readonly largestBefore: number;
  readonly largestAfter: number;
  /** The total body size budget the run used (the option, or its default). */
  readonly budget: number;
}

/** The result of axiom removal. */
export interface AxiomResult {
  readonly game: FormulaGame;
  readonly stats: AxiomStats;
  /** One line per reason axioms were kept (for the caller to print as warnings). */
  readonly warnings: readonly string[];
}
