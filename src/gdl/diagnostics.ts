/** Problems found in a game description, reported as `FILE:LINE:COL: severity: message`. */
import type { Pos } from './ast.js';

/** One problem, at a position of the file. */
export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
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
  return `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message}`;
}

/** True when the list holds at least one error. */
export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error');
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
  ) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'GdlError';
  }
}
