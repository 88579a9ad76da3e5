/**
 * Tokens of RDDL text, as pyRDDLGym's lexer reads them (the subset of the language the reader
 * handles): identifiers (`[A-Za-z]([A-Za-z0-9_-]*[A-Za-z0-9])?`, optionally primed), numbers,
 * `?`-variables, operators and punctuation; `//` comments to the end of the line.
 */
import type { Pos } from '../../gdl/ast.js';
import { GdlError, diag } from '../../gdl/diagnostics.js';

/** One token with its position (1-based line and column). */
export interface Token {
  readonly kind: 'ident' | 'number' | 'var' | 'op' | 'eof';
  readonly text: string;
  readonly pos: Pos;
}

/** Operators and punctuation, longest first so that `<=>` wins over `<=`. */
const OPS = ['<=>', '=>', '==', '~=', '<=', '>=', '{', '}', '(', ')', '[', ']', ';', ',', ':', '=', '^', '&', '|', '~', '+', '-', '*', '/', '<', '>', "'"];

const IDENT = /[A-Za-z](?:[A-Za-z0-9_-]*[A-Za-z0-9])?'?/y;
const NUMBER = /[0-9]*\.[0-9]+|[0-9]+/y;
const VARIABLE = /\?[A-Za-z0-9_-]*[A-Za-z0-9]/y;

/** The tokens of `text`; an unknown character is an error at its position. */
export function tokenize(text: string, file: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const at = (k: number): Pos => ({ line, col: k - lineStart + 1 });
  const sticky = (re: RegExp): string | null => {
    re.lastIndex = i;
    const m = re.exec(text);
    return m === null ? null : m[0];
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\n') {
      line++;
      lineStart = ++i;
      continue;
    }
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    const pos = at(i);
    const ident = sticky(IDENT);
    if (ident !== null) {
      out.push({ kind: 'ident', text: ident, pos });
      i += ident.length;
      continue;
    }
    const num = sticky(NUMBER);
    if (num !== null) {
      out.push({ kind: 'number', text: num, pos });
      i += num.length;
      continue;
    }
    const v = sticky(VARIABLE);
    if (v !== null) {
      out.push({ kind: 'var', text: v, pos });
      i += v.length;
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (op === undefined) throw new GdlError([diag('error', file, pos, `unexpected character '${ch}' in RDDL text`)]);
    out.push({ kind: 'op', text: op, pos });
    i += op.length;
  }
  out.push({ kind: 'eof', text: '<end of file>', pos: at(i) });
  return out;
}
