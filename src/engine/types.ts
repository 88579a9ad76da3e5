/**
 * What an engine is to its callers: the {@link PrologEngine} interface, its limits and options,
 * and the errors it raises. Its own module so that tau.ts, which makes engines on Tau-Prolog,
 * holds only the code that touches Tau-Prolog's objects; tau.ts re-exports what callers use.
 */
import type { Deadline, LimitKind } from '../deadline.js';
import type { TauTerm } from './term.js';

/** Raised when a query exceeds its step budget or deadline. */
export class EngineLimitError extends Error {
  constructor(message: string, readonly reason: 'steps' | LimitKind) {
    super(message);
    this.name = 'EngineLimitError';
  }
}

/** Raised when Tau-Prolog rejects program text or a query throws a Prolog error. */
export class EngineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineError';
  }
}

/** Limits on one engine; checked while stepping. */
export interface EngineLimits {
  /** The run's deadline (time and heap), looked at every few thousand steps. */
  readonly deadline: Deadline;
}

/** A Tau-Prolog session with synchronous consult and query. */
export interface PrologEngine extends TableOperations {
  /** Loads program text; throws {@link EngineError} on a syntax error. */
  consult(text: string): void;
  /**
   * Runs `goal` (Prolog text without the final `.`) and calls `onAnswer` with the values of
   * `vars` for each answer, in Tau-Prolog's order. Returns the number of answers.
   */
  solve(goal: string, vars: readonly string[], onAnswer: (values: TauTerm[]) => void): number;
  /**
   * Runs the goal `name(X0, ..., Xn-1)` and calls `onAnswer` with the values of the n
   * variables for each answer; like {@link PrologEngine.solve} without parsing any text.
   */
  solveCall(name: string, arity: number, onAnswer: (values: TauTerm[]) => void): number;
  /** Adds the clause `head :- body` (terms from tau.ts's `makeTerm` and `makeVar`). */
  addClause(head: TauTerm, body: TauTerm): void;
  /** Adds ground facts given as Tau terms (from {@link PrologEngine.solve} or tau.ts's `makeTerm`). */
  addFacts(facts: readonly TauTerm[]): void;
  /** Number of resolution steps taken so far. */
  steps(): number;
  /** tau.ts's `tauKif`, cached per term object (answers share their arguments with table facts). */
  kif(t: TauTerm): TermText;
}

/**
 * The table operations of an engine: src/engine/own.ts implements them, and a
 * {@link PrologEngine} passes them on.
 */
export interface TableOperations {
  /**
   * Declares `name/arity` as a table of ground facts, empty (a table defined already stays as
   * it is). Tables are held in JavaScript and
   * answer a call by hash lookup on whichever arguments it binds (Tau-Prolog's own index sees
   * only the first argument, so a fully bound check would scan every fact sharing it).
   */
  defineTable(name: string, arity: number): void;
  /**
   * Adds the fact `name(args...)` (ground; with `from`, the table's arity of arguments from
   * `args[from]` on) to a table, whose storage copies them (src/engine/tables.ts).
   */
  addToTable(name: string, args: readonly TauTerm[], from?: number): void;
  /** Number of facts in a table (0 for a table not defined). */
  tableSize(name: string): number;
  /** A table's facts' arguments, fact after fact (its arity a fact), in the order added; read at once. */
  tableData(name: string): readonly TauTerm[];
  /** Removes every fact of a table. */
  clearTable(name: string): void;
  /** True when the table has a fact agreeing with every non-null argument of `pattern`. */
  probe(name: string, pattern: readonly (TauTerm | null)[]): boolean;
  /**
   * Defines table `name` (once) as the distinct projections of table `base` onto the argument
   * positions `keep`, kept up to date as `base` grows. False when there is no table `base`.
   * With `history`, each tuple enters it once over the base's life (see {@link ProjectionHistory}).
   */
  defineProjection(base: string, keep: readonly number[], name: string, history?: ProjectionHistory): boolean;
}

/**
 * A projection that holds each tuple at most once over the base table's whole life: the tuples
 * of the first `count` facts of table `table` (facts the base held earlier: a delta table's
 * full copy before the delta) count as seen, and emptying the base keeps what was seen. The
 * projection of a semi-naive delta table then holds only tuples new to the relation.
 */
export interface ProjectionHistory {
  readonly table: string;
  readonly count: number;
}

/** KIF text of a ground term and its nesting depth (1 for a constant). */
export interface TermText {
  readonly text: string;
  readonly depth: number;
}

/** How an engine steps. */
export interface EngineOptions {
  /**
   * Step calls of the engine's own predicates (own.ts: tables, `\\==`, `once`) directly (default
   * true). False sends every goal through Tau-Prolog's own step: the reference that tests
   * compare the direct steps with.
   */
  readonly directSteps?: boolean;
}
