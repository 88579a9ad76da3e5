/** Problems found in a game description, reported as `FILE:LINE:COL: severity: message`. */
import type { Deadline, LimitKind } from '../deadline.js';
import { NO_POS, type Pos } from './ast.js';

/** One problem, at a position of the file. */
export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  /**
   * For a limit error: the relation (name without arity) whose size passed the limit, or the
   * head of the rule whose instantiation did; the diagnostic's position is that rule (or the
   * relation's first rule). Data for the lazy rounds, so they never parse the message.
   */
  readonly relation?: string;
  /**
   * For a warning that repaired a rule (docs/validation.md, repairs 1-5): which repair. The
   * game later stages use is the repaired one, and `verify` says so.
   */
  readonly repair?: RepairKind;
}

/** The repairs of docs/validation.md, in its order. */
export type RepairKind = 'role-variable' | 'distinct-only' | 'distinct-inline' | 'unsafe-head' | 'free-negation';

/** `d` marked as the warning of repair `kind`. */
export function asRepair(d: Diagnostic, kind: RepairKind): Diagnostic {
  return { ...d, repair: kind };
}

/** Makes a diagnostic at `pos` of `file`. */
export function diag(severity: Diagnostic['severity'], file: string, pos: Pos, message: string): Diagnostic {
  return { severity, file, line: pos.line, col: pos.col, message };
}

/** Sorts by position, then errors before warnings, then by message: the order of every report. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      a.line - b.line ||
      a.col - b.col ||
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

/** One line of a report: `game.kif:3:7: error: unbalanced ')'`. */
export function formatDiagnostic(d: Diagnostic): string {
  // Line 0 is "no position" (a limit reached between rules, a whole-game property): `file:0:0`
  // would send an editor to a line that does not exist, so the file alone is named.
  const where = d.line === 0 ? d.file : `${d.file}:${d.line}:${d.col}`;
  return `${where}: ${d.severity}: ${d.message}`;
}

/** True when the list holds at least one error. */
export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error');
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** A large count as people write it: 4.4×10⁸ (plain digits below a million). */
export function formatEstimate(n: number): string {
  if (n < 1e6) return String(Math.round(n));
  const exp = Math.floor(Math.log10(n));
  const mant = (n / 10 ** exp).toFixed(1);
  return `${mant}×10${[...String(exp)].map((d) => SUPERSCRIPT[Number(d)]).join('')}`;
}

/**
 * Which limit stopped a run, as data beside the message, so that callers (the lazy rounds, the
 * demand fallback, the corpus runner's rows) classify a limit error without reading its words:
 * the deadline's clock or heap (`time`, `memory`), or a size limit of a stage: `atoms` (the
 * superset computation's atom budget), `ground-atoms`, `rules`, `literals` (instantiation),
 * `depth` (terms nested too deep), `body` (too many body literals), `terms` (a domain of the
 * dependency graph), `steps` (the Prolog engine's), `output` (a text too large to write),
 * `search` (GDDL's search for joint moves), `lazy` (a rule left non-ground by lazy axioms).
 */
export type LimitCause = LimitKind | 'atoms' | 'ground-atoms' | 'rules' | 'literals' | 'depth' | 'body' | 'terms' | 'steps' | 'output' | 'search' | 'lazy';

/** The data of a limit error: its cause and, when the message names one, the estimated size ("about 3.9×10⁸"). */
export interface LimitInfo {
  readonly kind: LimitCause;
  readonly estimate?: number;
}

/**
 * A limit error (exit 3) at `pos` whose message names `relation` (a name without arity, or the
 * head of the rule at `pos`): the relation is also carried as data, in the diagnostic.
 */
export function relationLimitError(file: string, pos: Pos, relation: string, message: string, limit: LimitInfo): GdlError {
  return new GdlError([{ ...diag('error', file, pos, message), relation }], 'limit', limit);
}

/** The limit info of a stop by `deadline` (which limit it reached; the clock's when it cannot tell). */
export function deadlineLimit(deadline: Deadline, estimate?: number): LimitInfo {
  const kind = deadline.exceeded() ?? 'time';
  return estimate === undefined ? { kind } : { kind, estimate };
}

/**
 * An error that carries diagnostics; the library throws it instead of exiting, and the CLI
 * prints the diagnostics and picks the exit code.
 */
export class GdlError extends Error {
  constructor(
    readonly diagnostics: readonly Diagnostic[],
    /** Which kind of failure: invalid input (exit 1) or a resource limit (exit 3). */
    readonly code: 'invalid' | 'limit' = 'invalid',
    /** For a limit error: which limit, as data (every limit error made in `src/` sets it). */
    readonly limit?: LimitInfo,
  ) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'GdlError';
  }
}

/**
 * The limit error (exit 3) of a stage that finds a limit of the run's `deadline` reached: the
 * message says where (`what`, e.g. "pruning") and which limit, in the deadline's own words
 * ("time limit reached", "memory limit of 512 MB reached"), so every stage words it alike.
 */
export function deadlineError(deadline: Deadline, file: string, pos: Pos, what: string): GdlError {
  return new GdlError([diag('error', file, pos, `${what}: ${deadline.describe()}`)], 'limit', deadlineLimit(deadline));
}

/**
 * Items per call of a {@link strideTicker}'s function, less one (a mask): loops over every rule
 * or atom of a large ground game call it when `(i & TICK_MASK) === 0`. A call per item is a
 * closure and a method call, and these loops mostly run unoptimized (once per game): about 5 ms
 * per million items.
 */
export const TICK_MASK = 63;

/**
 * {@link deadlineTicker} for a loop that calls it once per `TICK_MASK + 1` items: each call
 * counts that many units, so the clock is read as often per item as with a tick per item.
 */
export function strideTicker(deadline: Deadline, file: string, what: string): () => void {
  return () => {
    if (deadline.tickMany(TICK_MASK + 1)) throw deadlineError(deadline, file, NO_POS, what);
  };
}

/**
 * A function to call once per unit of work of a stage: it counts a tick of `deadline` and
 * throws {@link deadlineError} (about `what`, in `file`) once a limit is reached.
 */
export function deadlineTicker(deadline: Deadline, file: string, what: string): () => void {
  return () => {
    if (deadline.tick()) throw deadlineError(deadline, file, NO_POS, what);
  };
}

/** Throws {@link deadlineError} (about `what`) when a limit of `deadline` is reached now (reads the clock). */
export function checkDeadline(deadline: Deadline, file: string, what: string): void {
  if (deadline.passed()) throw deadlineError(deadline, file, NO_POS, what);
}
