/**
 * Reads KIF text into S-expressions. Line ends may be CR, LF or CRLF; `;` starts a comment
 * that runs to the end of the line. Both loops here are iterative, so nesting depth is bounded
 * only by memory.
 */
import type { Pos } from './ast.js';
import { type Diagnostic, checkDeadline, diag } from './diagnostics.js';
import { Deadline } from '../deadline.js';

/** A symbol, with its text folded to lower case. */
export interface SymNode {
  readonly kind: 'sym';
  readonly text: string;
  readonly pos: Pos;
}

/** A parenthesized list. */
export interface ListNode {
  readonly kind: 'list';
  readonly items: readonly SExpr[];
  readonly pos: Pos;
}

/** An S-expression of KIF. */
export type SExpr = SymNode | ListNode;

/** Stop reporting after this many lexical errors: binary garbage would otherwise flood. */
const MAX_LEX_ERRORS = 20;

interface Token {
  /** `space` is a non-breaking space or a byte-order mark inside the text, read as a space. */
  readonly kind: '(' | ')' | 'sym' | 'bad' | 'space';
  readonly text: string;
  readonly pos: Pos;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff;
}

function isDelimiter(c: number): boolean {
  return isSpace(c) || c === 40 || c === 41 || c === 59;
}

/** Control characters, DEL and U+FFFD (the mark of bytes that were not UTF-8) are not GDL. */
function isBad(c: number): boolean {
  return c < 32 || c === 127 || c === 0xfffd;
}

function* tokens(text: string): Generator<Token> {
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      // CRLF counts as one line end.
      i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      line++;
      lineStart = i;
    } else if (isSpace(c)) {
      // A byte-order mark at the very start is how editors mark UTF-8, not sloppiness.
      if ((c === 0xa0 || c === 0xfeff) && i > 0) yield { kind: 'space', text: text[i]!, pos: { line, col: i - lineStart + 1 } };
      i++;
    } else if (c === 59) {
      while (i < n && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
    } else {
      const pos = { line, col: i - lineStart + 1 };
      if (c === 40 || c === 41) {
        yield { kind: c === 40 ? '(' : ')', text: text[i]!, pos };
        i++;
      } else if (isBad(c)) {
        yield { kind: 'bad', text: text[i]!, pos };
        i++;
      } else {
        const start = i;
        while (i < n && !isDelimiter(text.charCodeAt(i)) && !isBad(text.charCodeAt(i))) i++;
        yield { kind: 'sym', text: text.slice(start, i).toLowerCase(), pos };
      }
    }
  }
}

function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code === 0xfffd) return 'bytes that are not UTF-8 text';
  return `character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Reads every top-level S-expression; unbalanced parentheses and bad characters become errors.
 * The reader recovers at the next top-level sentence, so that the sentences that were read
 * completely can still be checked for meaning: when the file ends with parentheses open, it is
 * read again, and there a `(` in column 1 while a sentence is open starts a new sentence (the
 * open one is reported and dropped: real games begin every sentence in column 1 and indent
 * the rest). A sentence holding a bad character is dropped too: its meaning is not defined.
 */
export function readSExprs(text: string, file: string, deadline: Deadline): { exprs: SExpr[]; diagnostics: Diagnostic[] } {
  const first = readOnce(text, file, false, deadline);
  return first.unclosed ? readOnce(text, file, true, deadline) : first;
}

function readOnce(text: string, file: string, recover: boolean, deadline: Deadline): { exprs: SExpr[]; diagnostics: Diagnostic[]; unclosed: boolean } {
  const diagnostics: Diagnostic[] = [];
  const exprs: SExpr[] = [];
  let open: { pos: Pos; items: SExpr[] }[] = [];
  let badCount = 0;
  // Whether the open top-level sentence holds a bad character (then it is dropped when closed).
  let tainted = false;
  const add = (e: SExpr): void => {
    if (open.length > 0) open[open.length - 1]!.items.push(e);
    else if (!tainted) exprs.push(e);
    if (open.length === 0) tainted = false;
  };
  let oddSpace = false;
  for (const tok of tokens(text)) {
    // A ground game written by `ground` can be tens of megabytes: the run's clock is read as it goes.
    if (deadline.tick()) checkDeadline(deadline, file, 'reading the game');
    if (tok.kind === 'space') {
      // Lenient: KIF's white space is ASCII; warn once, at the first.
      if (!oddSpace) diagnostics.push(diag('warning', file, tok.pos, `${tok.text === '\u00a0' ? 'non-breaking space' : 'byte-order mark'} read as a space (KIF white space is ASCII)`));
      oddSpace = true;
    } else if (tok.kind === 'bad') {
      tainted = open.length > 0;
      if (badCount++ < MAX_LEX_ERRORS) {
        diagnostics.push(diag('error', file, tok.pos, `unexpected ${describeChar(tok.text)}`));
      }
    } else if (tok.kind === 'sym') {
      add({ kind: 'sym', text: tok.text, pos: tok.pos });
    } else if (tok.kind === '(') {
      if (recover && open.length > 0 && tok.pos.col === 1) {
        diagnostics.push(diag('error', file, open[0]!.pos, `unbalanced '(': not closed before the next sentence at ${tok.pos.line}:${tok.pos.col}`));
        open = [];
        tainted = false;
      }
      open.push({ pos: tok.pos, items: [] });
    } else if (open.length === 0) {
      diagnostics.push(diag('error', file, tok.pos, "unbalanced ')': no '(' is open here"));
    } else {
      const frame = open.pop()!;
      add({ kind: 'list', items: frame.items, pos: frame.pos });
    }
  }
  if (badCount > MAX_LEX_ERRORS) {
    diagnostics.push(diag('error', file, { line: 1, col: 1 }, `${badCount} unexpected characters in all: is this a text file?`));
  }
  // The outermost unclosed '(' is where the reader lost its way; the inner ones add nothing.
  if (open.length > 0) {
    const more = open.length > 1 ? ` (${open.length} parentheses are open at the end)` : '';
    diagnostics.push(diag('error', file, open[0]!.pos, `unbalanced '(': not closed before the end of the file${more}`));
  }
  return { exprs, diagnostics, unclosed: open.length > 0 };
}
