/**
 * S-expressions of a GDDL file (docs/gddl.md): lists in parentheses and words (any run of
 * characters other than white space, parentheses and `;`), with `;` comments to the end of the
 * line. Parsed with an explicit stack (formulas nest deep); every node knows its line and column.
 */
import type { Pos } from '../gdl/ast.js';
import { GdlError, diag } from '../gdl/diagnostics.js';

/** A word or a list, with where it starts. */
export type SNode =
  | { readonly kind: 'word'; readonly text: string; readonly pos: Pos }
  | { readonly kind: 'list'; readonly items: readonly SNode[]; readonly pos: Pos };

/** An invalid-input error at `pos` of `file`. */
export function syntaxError(file: string, pos: Pos, message: string): GdlError {
  return new GdlError([diag('error', file, pos, message)]);
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** The top-level expressions of `text`; throws a positioned error on unbalanced parentheses. */
export function parseSexprs(text: string, file: string): SNode[] {
  const top: SNode[] = [];
  const open: { items: SNode[]; pos: Pos }[] = [];
  let line = 1;
  let col = 1;
  let i = 0;
  const add = (n: SNode): void => {
    (open.length > 0 ? open[open.length - 1]!.items : top).push(n);
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      col = 1;
      i++;
    } else if (isSpace(c)) {
      col++;
      i++;
    } else if (c === ';') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '(') {
      open.push({ items: [], pos: { line, col } });
      col++;
      i++;
    } else if (c === ')') {
      const list = open.pop();
      if (list === undefined) throw syntaxError(file, { line, col }, "unexpected ')'");
      add({ kind: 'list', items: list.items, pos: list.pos });
      col++;
      i++;
    } else {
      const start = i;
      const pos = { line, col };
      while (i < text.length && !isSpace(text[i]!) && text[i] !== '(' && text[i] !== ')' && text[i] !== ';') i++;
      col += i - start;
      add({ kind: 'word', text: text.slice(start, i), pos });
    }
  }
  if (open.length > 0) throw syntaxError(file, open[open.length - 1]!.pos, "'(' is never closed");
  return top;
}
