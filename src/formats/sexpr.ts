/**
 * S-expressions of a GDDL file (docs/gddl.md): lists in parentheses and words (any run of
 * characters other than white space, parentheses, `;` and control characters), with `;`
 * comments to the end of the line. Read by the project's one S-expression reader, the scanner of
 * KIF (`readStrict` of src/gdl/lexer.ts), strictly and keeping case; every node knows its line
 * and column.
 */
import type { Pos } from '../gdl/ast.js';
import { GdlError, diag } from '../gdl/diagnostics.js';
import { type SExpr, readStrict } from '../gdl/lexer.js';

/** A word (`sym`) or a list, with where it starts. */
export type SNode = SExpr;

/** An invalid-input error at `pos` of `file`. */
export function syntaxError(file: string, pos: Pos, message: string): GdlError {
  return new GdlError([diag('error', file, pos, message)]);
}

/** The top-level expressions of `text`; throws a positioned error at the first syntax problem. */
export function parseSexprs(text: string, file: string): SNode[] {
  const read = readStrict(text, false);
  if (read.kind === 'error') throw syntaxError(file, read.pos, read.message);
  return read.exprs;
}
