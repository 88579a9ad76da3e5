/**
 * GDDL names of ground terms (docs/gddl.md, "Names"): a ground term is flattened to one name,
 * its symbols joined by `-` as on Kissmann's slides (`(cell 1 1 x)` -> `cell-1-1-x`). The
 * flattening is collision-free and reversible because every symbol is escaped first, so that
 * its escaped form holds only `a-z`, `0-9` and `_`, and never a `-`:
 *
 *   a-z, 0-9      themselves            `_`   `__`
 *   `-`           `_d`                  A-Z   `_u` and the letter in lower case (`X` -> `_ux`)
 *   anything else `_x`, its code point in lower-case hex, `_` (`.` -> `_x2e_`)
 *
 * A compound argument is opened by the token `_o` and closed by `_c`:
 * `(cell (pos 1 2) x)` -> `cell-_o-pos-1-2-_c-x`. Tokens that start with `_` followed by
 * anything but `_`, `d`, `u` or `x` are never the escape of a symbol, so the reserved names
 * below (`_true`, the prefix `_ax`) can be taken by no game term.
 */
import type { TermReader } from '../../datalog/terms.js';

/** The always-true predicate (slide 46 calls it `foo`): true in every state, never a fluent. */
export const TRUE_NAME = '_true';

/** First token of the name of a derived predicate (an axiom kept as a rule): `_ax-reach-a-b`. */
export const DERIVED_PREFIX = '_ax';

const OPEN = '_o';
const CLOSE = '_c';

/** The escaped form of one symbol: only `a-z`, `0-9` and `_`. */
export function escapeSymbol(symbol: string): string {
  let out = '';
  for (const ch of symbol) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) out += ch;
    else if (ch === '_') out += '__';
    else if (ch === '-') out += '_d';
    else if (ch >= 'A' && ch <= 'Z') out += `_u${ch.toLowerCase()}`;
    else out += `_x${ch.codePointAt(0)!.toString(16)}_`;
  }
  return out;
}

/** The symbol of an escaped token; undefined when `token` is not the escape of any symbol. */
export function unescapeSymbol(token: string): string | undefined {
  let out = '';
  let i = 0;
  while (i < token.length) {
    const ch = token[i]!;
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
      out += ch;
      i++;
      continue;
    }
    if (ch !== '_' || i + 1 >= token.length) return undefined;
    const kind = token[i + 1]!;
    if (kind === '_') out += '_';
    else if (kind === 'd') out += '-';
    else if (kind === 'u') {
      const letter = token[i + 2];
      if (letter === undefined || letter < 'a' || letter > 'z') return undefined;
      out += letter.toUpperCase();
      i++;
    } else if (kind === 'x') {
      const end = token.indexOf('_', i + 2);
      const hex = end < 0 ? '' : token.slice(i + 2, end);
      if (!/^[0-9a-f]+$/.test(hex)) return undefined;
      out += String.fromCodePoint(Number.parseInt(hex, 16));
      i = end - 1;
    } else return undefined;
    i += 2;
  }
  return out.length === 0 ? undefined : out;
}

/** The GDDL name of ground term `id` of `terms`; a walk with a stack (terms nest deep). */
export function termName(terms: TermReader, id: number): string {
  const tokens: string[] = [escapeSymbol(terms.name(id))];
  // Pending items: a term id to write, or a close marker (-1).
  const stack: number[] = [];
  for (let i = terms.arity(id) - 1; i >= 0; i--) stack.push(terms.arg(id, i));
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (t < 0) {
      tokens.push(CLOSE);
      continue;
    }
    const n = terms.arity(t);
    if (n === 0) {
      tokens.push(escapeSymbol(terms.name(t)));
      continue;
    }
    tokens.push(OPEN, escapeSymbol(terms.name(t)));
    stack.push(-1);
    for (let i = n - 1; i >= 0; i--) stack.push(terms.arg(t, i));
  }
  return tokens.join('-');
}

/**
 * The KIF text of the term a name was flattened from (`cell-1-1-x` -> `(cell 1 1 x)`,
 * `noop` -> `noop`); undefined when `name` is not such a name (a reserved one included).
 */
export function nameToKif(name: string): string | undefined {
  const tokens = name.split('-');
  const head = unescapeSymbol(tokens[0]!);
  if (head === undefined) return undefined;
  if (tokens.length === 1) return head;
  // Each open compound: its parts so far; the outermost is the whole term.
  const open: string[][] = [[head]];
  for (let i = 1; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok === OPEN) {
      const f = unescapeSymbol(tokens[++i] ?? '');
      if (f === undefined) return undefined;
      open.push([f]);
    } else if (tok === CLOSE) {
      if (open.length < 2) return undefined;
      const parts = open.pop()!;
      if (parts.length < 2) return undefined;
      open[open.length - 1]!.push(`(${parts.join(' ')})`);
    } else {
      const s = unescapeSymbol(tok);
      if (s === undefined) return undefined;
      open[open.length - 1]!.push(s);
    }
  }
  if (open.length !== 1) return undefined;
  return `(${open[0]!.join(' ')})`;
}
