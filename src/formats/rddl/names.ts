/**
 * RDDL identifiers for ground GDL atoms: collision-free and reversible (docs/rddl.md, "Names").
 * A name is a kind prefix followed by the escaped KIF text of the fluent, move or axiom
 * (without the outer parentheses of a compound). Letters and digits stay, a space becomes `-`,
 * and everything else is `_` and one letter:
 *
 *   ' ' -> -   '(' -> _o   ')' -> _c   '_' -> _u   '-' -> _d   other -> _x + 6 hex digits
 *
 * so `(cell 1 1 x)` is the state fluent `f-cell-1-1-x`. The escapes form a prefix code, so
 * decoding is unique, and the prefixes `f-`, `a-`, `d-` and the reserved `gdl_` names never
 * meet. Every name matches RDDL's identifier syntax (a letter first, letters, digits, `_` and
 * `-` after it, a letter or digit last), is no RDDL keyword, and never holds `__`: pyRDDLGym
 * refuses it in a name (it separates the objects of its own grounded names), and here a `_` is
 * always followed by a letter, after a prefix that ends in `-`.
 */

/** What a name stands for: a state fluent, an action (move), or a derived fluent (axiom). */
type NameKind = 'fluent' | 'action' | 'derived';

const PREFIX: Readonly<Record<NameKind, string>> = { fluent: 'f-', action: 'a-', derived: 'd-' };

/** State fluent: set once GDL's terminal state has been left by the terminal action. */
export const TERMINAL_STATE = 'gdl_terminal_state';
/** The one action allowed in a terminal state. */
export const TERMINAL_ACTION = 'gdl_terminal_action';

const ESCAPES: Readonly<Record<string, string>> = { ' ': '-', '(': '_o', ')': '_c', _: '_u', '-': '_d' };
const UNESCAPES: Readonly<Record<string, string>> = { o: '(', c: ')', u: '_', d: '-' };

/** `text` with every character but ASCII letters and digits escaped. */
export function escapeText(text: string): string {
  let out = '';
  for (const ch of text) {
    if (/^[A-Za-z0-9]$/.test(ch)) out += ch;
    else out += ESCAPES[ch] ?? `_x${ch.codePointAt(0)!.toString(16).padStart(6, '0')}`;
  }
  return out;
}

/** The inverse of {@link escapeText}; null when `name` is not an escaped text. */
export function unescapeText(name: string): string | null {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const ch = name[i]!;
    if (ch === '-') {
      out += ' ';
      continue;
    }
    if (ch !== '_') {
      out += ch;
      continue;
    }
    const code = name[i + 1];
    if (code === 'x') {
      const hex = name.slice(i + 2, i + 8);
      if (!/^[0-9a-f]{6}$/.test(hex)) return null;
      out += String.fromCodePoint(parseInt(hex, 16));
      i += 7;
    } else if (code !== undefined && UNESCAPES[code] !== undefined) {
      out += UNESCAPES[code];
      i += 1;
    } else return null;
  }
  return out;
}

/** The RDDL name of the ground term with KIF text `text` (single spaces) as a `kind`. */
export function rddlName(kind: NameKind, text: string): string {
  const inner = text.startsWith('(') ? text.slice(1, -1) : text;
  return PREFIX[kind] + escapeText(inner);
}

/** The kind and KIF text a name stands for; null for the reserved names and foreign names. */
export function parseRddlName(name: string): { kind: NameKind; text: string } | null {
  for (const kind of Object.keys(PREFIX) as NameKind[]) {
    if (!name.startsWith(PREFIX[kind])) continue;
    const inner = unescapeText(name.slice(PREFIX[kind].length));
    if (inner === null || inner.length === 0) return null;
    return { kind, text: inner.includes(' ') ? `(${inner})` : inner };
  }
  return null;
}

/** An RDDL identifier for a domain or instance made from a file's base name. */
export function rddlIdentifier(base: string): string {
  return `g-${escapeText(base)}`;
}
