/**
 * Reads KIF text into S-expressions, one top-level sentence at a time. Line ends may be CR, LF
 * or CRLF; `;` starts a comment that runs to the end of the line. The loop is iterative, so
 * nesting depth is bounded only by memory.
 *
 * Each sentence is handed to the caller as soon as it closes and is not kept: a ground game or a
 * file of facts can be tens of megabytes, and a tree of S-expressions for all of it (about 45
 * bytes of heap per byte of text) made the garbage collector the larger part of reading it.
 * Symbols are interned, so the many repeats of a name share one string.
 */
import type { Pos } from './ast.js';
import { type Diagnostic, checkDeadline, diag } from './diagnostics.js';
import type { Deadline } from '../deadline.js';
import { HASH_START, type SymbolTable, hashStep, internWord, newSymbolTable } from './symbol-table.js';

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

/**
 * Turns one complete top-level sentence into the caller's value (undefined: nothing to keep);
 * problems it finds go into `problems`.
 */
type SentenceReader<T> = (e: SExpr, problems: Diagnostic[]) => T | undefined;

/** What {@link readSentences} gives: the values of the sentences read, and every problem. */
interface SentencesRead<T> {
  readonly items: T[];
  /** The reader's own problems (parentheses, characters), then the sentence reader's, each in file order. */
  readonly diagnostics: Diagnostic[];
}

/** Stop reporting after this many lexical errors: binary garbage would otherwise flood. */
const MAX_LEX_ERRORS = 20;

/** Warn about this many top-level words at most, for the same reason. */
const MAX_WORD_WARNINGS = 20;

/** What the scanner found last. */
type TokenKind = '(' | ')' | 'sym' | 'bad' | 'space' | 'end';

/** The scanner's position in the text, and the token it found last (one per read, never shared). */
interface Cursor {
  readonly text: string;
  i: number;
  line: number;
  lineStart: number;
  kind: TokenKind;
  /** Where the token starts: its line and column. */
  tokLine: number;
  tokCol: number;
  /** The token's text (symbols: folded and interned; bad and space: the character). */
  tokText: string;
  readonly symbols: SymbolTable;
  /** KIF folds symbols to lower case; the planner formats keep them as written. */
  readonly fold: boolean;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff;
}

/** Control characters, DEL and U+FFFD (the mark of bytes that were not UTF-8) are not GDL. */
function isBad(c: number): boolean {
  return c < 32 || c === 127 || c === 0xfffd;
}

/** Ends a symbol: white space, a parenthesis, `;`, or a character that is not text. */
function endsSymbol(c: number): boolean {
  return isSpace(c) || c === 40 || c === 41 || c === 59 || isBad(c);
}

/** Skips line ends, ASCII white space and comments; true when the text has more. */
function skipBlank(cur: Cursor): boolean {
  const { text } = cur;
  const n = text.length;
  while (cur.i < n) {
    const c = text.charCodeAt(cur.i);
    if (c === 10 || c === 13) {
      // CRLF counts as one line end.
      cur.i += c === 13 && text.charCodeAt(cur.i + 1) === 10 ? 2 : 1;
      cur.line++;
      cur.lineStart = cur.i;
    } else if (c === 59) {
      while (cur.i < n && text.charCodeAt(cur.i) !== 10 && text.charCodeAt(cur.i) !== 13) cur.i++;
    } else if (isSpace(c) && !((c === 0xa0 || c === 0xfeff) && cur.i > 0)) {
      // A byte-order mark at the very start is how editors mark UTF-8, not sloppiness.
      cur.i++;
    } else {
      return true;
    }
  }
  return false;
}

/** The symbol starting at the cursor, folded to lower case (in KIF) and interned; moves past it. */
function readSymbol(cur: Cursor): string {
  const { text } = cur;
  const start = cur.i;
  let nonAscii = false;
  let h = HASH_START;
  while (cur.i < text.length) {
    const c = text.charCodeAt(cur.i);
    if (endsSymbol(c)) break;
    if (c > 127) nonAscii = true;
    // ASCII upper case folded here, as the table compares folded characters.
    h = hashStep(h, cur.fold && c >= 65 && c <= 90 ? c + 32 : c);
    cur.i++;
  }
  if (!nonAscii || !cur.fold) return internWord(cur.symbols, text, start, cur.i, h, cur.fold);
  // Non-ASCII text folds by Unicode's rules, which may change its length: hashed once folded.
  const word = text.slice(start, cur.i).toLowerCase();
  let hw = HASH_START;
  for (let k = 0; k < word.length; k++) hw = hashStep(hw, word.charCodeAt(k));
  return internWord(cur.symbols, word, 0, word.length, hw, false);
}

/** Moves to the next token and records it in the cursor. */
function nextToken(cur: Cursor): void {
  if (!skipBlank(cur)) {
    cur.kind = 'end';
    return;
  }
  const c = cur.text.charCodeAt(cur.i);
  cur.tokLine = cur.line;
  cur.tokCol = cur.i - cur.lineStart + 1;
  if (c === 40 || c === 41) {
    cur.kind = c === 40 ? '(' : ')';
    cur.i++;
  } else if (isBad(c) || isSpace(c)) {
    // isSpace here: a non-breaking space, or a byte-order mark inside the text (read as a space).
    cur.kind = isBad(c) ? 'bad' : 'space';
    cur.tokText = cur.text[cur.i]!;
    cur.i++;
  } else {
    cur.kind = 'sym';
    cur.tokText = readSymbol(cur);
  }
}

function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code === 0xfffd) return 'bytes that are not UTF-8 text';
  return `character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Reads every top-level S-expression and hands each complete one to `read`; unbalanced
 * parentheses and bad characters become errors. The reader recovers at the next top-level
 * sentence, so that the sentences that were read completely can still be checked for meaning:
 * when the file ends with parentheses open, it is read again, and there a `(` in column 1 while
 * a sentence is open starts a new sentence (the open one is reported and dropped: real games
 * begin every sentence in column 1 and indent the rest). A sentence holding a bad character is
 * dropped too: its meaning is not defined.
 */
export function readSentences<T>(text: string, file: string, deadline: Deadline, read: SentenceReader<T>): SentencesRead<T> {
  const first = readOnce(text, file, false, deadline, read);
  return first.unclosed ? readOnce(text, file, true, deadline, read) : first;
}

/** The state of one pass over the text. */
interface Pass<T> {
  readonly file: string;
  readonly diagnostics: Diagnostic[];
  readonly problems: Diagnostic[];
  readonly items: T[];
  open: { pos: Pos; items: SExpr[] }[];
  badCount: number;
  /** Top-level words (symbols outside parentheses) seen so far. */
  words: number;
  /** Whether the open top-level sentence holds a bad character (then it is dropped when closed). */
  tainted: boolean;
  oddSpace: boolean;
}

function readOnce<T>(text: string, file: string, recover: boolean, deadline: Deadline, read: SentenceReader<T>): SentencesRead<T> & { unclosed: boolean } {
  const pass: Pass<T> = { file, diagnostics: [], problems: [], items: [], open: [], badCount: 0, words: 0, tainted: false, oddSpace: false };
  const add = (e: SExpr): void => {
    const { open } = pass;
    if (open.length > 0) {
      open[open.length - 1]!.items.push(e);
      return;
    }
    if (e.kind === 'sym') topLevelWord(pass, e);
    if (!pass.tainted) {
      const item = read(e, pass.problems);
      if (item !== undefined) pass.items.push(item);
    }
    pass.tainted = false;
  };
  const cur: Cursor = { text, i: 0, line: 1, lineStart: 0, kind: 'end', tokLine: 1, tokCol: 1, tokText: '', symbols: newSymbolTable(), fold: true };
  for (nextToken(cur); cur.kind !== 'end'; nextToken(cur)) {
    // A ground game written by `ground` can be tens of megabytes: the run's clock is read as it goes.
    if (deadline.tick()) checkDeadline(deadline, file, 'reading the game');
    token(pass, cur, recover, add);
  }
  return finish(pass);
}

/**
 * Warns about a word outside parentheses. KIF reads it as a 0-ary fact, but no game in the
 * corpus writes one: it is far more often text that is not GDL at all (a log saved as .kif),
 * which would otherwise pass as valid. `<=` alone is the parser's error already.
 */
function topLevelWord<T>(pass: Pass<T>, e: SymNode): void {
  if (e.text === '<=') return;
  if (pass.words++ < MAX_WORD_WARNINGS) {
    pass.diagnostics.push(diag('warning', pass.file, e.pos, `top-level word '${e.text}' is not a sentence in parentheses; read as the fact (${e.text})`));
  }
}

/** Takes the cursor's token into the pass. */
function token<T>(pass: Pass<T>, cur: Cursor, recover: boolean, add: (e: SExpr) => void): void {
  const { file, diagnostics } = pass;
  if (cur.kind === 'sym') {
    add({ kind: 'sym', text: cur.tokText, pos: { line: cur.tokLine, col: cur.tokCol } });
  } else if (cur.kind === '(') {
    if (recover && pass.open.length > 0 && cur.tokCol === 1) {
      diagnostics.push(diag('error', file, pass.open[0]!.pos, `unbalanced '(': not closed before the next sentence at ${cur.tokLine}:${cur.tokCol}`));
      pass.open = [];
      pass.tainted = false;
    }
    pass.open.push({ pos: { line: cur.tokLine, col: cur.tokCol }, items: [] });
  } else if (cur.kind === ')') {
    const frame = pass.open.pop();
    if (frame === undefined) diagnostics.push(diag('error', file, { line: cur.tokLine, col: cur.tokCol }, "unbalanced ')': no '(' is open here"));
    else add({ kind: 'list', items: frame.items, pos: frame.pos });
  } else if (cur.kind === 'space') {
    // Lenient: KIF's white space is ASCII; warn once, at the first.
    const what = cur.tokText === '\u00a0' ? 'non-breaking space' : 'byte-order mark';
    if (!pass.oddSpace) diagnostics.push(diag('warning', file, { line: cur.tokLine, col: cur.tokCol }, `${what} read as a space (KIF white space is ASCII)`));
    pass.oddSpace = true;
  } else if (cur.kind === 'bad') {
    pass.tainted = pass.open.length > 0;
    if (pass.badCount++ < MAX_LEX_ERRORS) {
      diagnostics.push(diag('error', file, { line: cur.tokLine, col: cur.tokCol }, `unexpected ${describeChar(cur.tokText)}`));
    }
  }
}

/** The pass's closing reports: the count of bad characters, the outermost unclosed `(`. */
function finish<T>(pass: Pass<T>): SentencesRead<T> & { unclosed: boolean } {
  const { file, diagnostics, open } = pass;
  if (pass.badCount > MAX_LEX_ERRORS) {
    diagnostics.push(diag('error', file, { line: 1, col: 1 }, `${pass.badCount} unexpected characters in all: is this a text file?`));
  }
  if (pass.words > MAX_WORD_WARNINGS) {
    diagnostics.push(diag('warning', file, { line: 1, col: 1 }, `${pass.words} top-level words in all: is this a game description?`));
  }
  // The outermost unclosed '(' is where the reader lost its way; the inner ones add nothing.
  if (open.length > 0) {
    const more = open.length > 1 ? ` (${open.length} parentheses are open at the end)` : '';
    diagnostics.push(diag('error', file, open[0]!.pos, `unbalanced '(': not closed before the end of the file${more}`));
  }
  return { items: pass.items, diagnostics: [...diagnostics, ...pass.problems], unclosed: open.length > 0 };
}

/** Where a strict read stopped: the first unbalanced parenthesis or character that is not text. */
interface StrictError {
  readonly kind: 'error';
  readonly pos: Pos;
  readonly message: string;
}

/**
 * Reads every top-level S-expression of `text` with the scanner KIF is read with (the one
 * S-expression reader of the project), strictly, for the planner formats (GDDL): the first
 * problem ends the read, and symbols keep their case unless `foldCase`. Iterative, like KIF's.
 */
export function readStrict(text: string, foldCase: boolean): { readonly kind: 'ok'; readonly exprs: SExpr[] } | StrictError {
  const cur: Cursor = { text, i: 0, line: 1, lineStart: 0, kind: 'end', tokLine: 1, tokCol: 1, tokText: '', symbols: newSymbolTable(), fold: foldCase };
  const top: SExpr[] = [];
  const open: { pos: Pos; items: SExpr[] }[] = [];
  const add = (e: SExpr): void => {
    (open.length > 0 ? open[open.length - 1]!.items : top).push(e);
  };
  for (nextToken(cur); cur.kind !== 'end'; nextToken(cur)) {
    const pos = { line: cur.tokLine, col: cur.tokCol };
    if (cur.kind === 'sym') add({ kind: 'sym', text: cur.tokText, pos });
    else if (cur.kind === '(') open.push({ pos, items: [] });
    else if (cur.kind === 'bad') return { kind: 'error', pos, message: `unexpected ${describeChar(cur.tokText)}` };
    else if (cur.kind === ')') {
      const frame = open.pop();
      if (frame === undefined) return { kind: 'error', pos, message: "unbalanced ')': no '(' is open here" };
      add({ kind: 'list', items: frame.items, pos: frame.pos });
    }
    // 'space' (a non-breaking space or a byte-order mark) separates words, as in KIF.
  }
  if (open.length > 0) return { kind: 'error', pos: open[0]!.pos, message: "unbalanced '(': not closed before the end of the file" };
  return { kind: 'ok', exprs: top };
}
