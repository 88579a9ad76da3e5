/**
 * The relaxed game as an answer-set program for clingo (the independent oracle of the
 * superset computation, and the reference time of `npm run bench -- --clingo`): negative
 * literals dropped, goal and terminal rules left out, `true` from `init` and `next`, `does`
 * from `legal`. Written from the AST alone, sharing nothing with src/reach/.
 *
 * Naming: every GDL constant becomes a quoted ASP string (`1`, `01`, `+` and `a.b` stay distinct
 * plain constants), every function and relation name becomes a mangled ASP identifier (`f_`/`p_`
 * plus the name with each character outside [a-z0-9] written as `_HEX_`), every variable an ASP
 * variable (`V_` plus the mangled name). `distinct` becomes `!=`, which compares ground terms
 * structurally, as `distinct` does.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { KEYWORDS } from '../gdl/ast.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';

/** Writes a name as the tail of an ASP identifier, injectively: `+` -> `_2b_`, `_` -> `_5f_`. */
export function mangle(name: string): string {
  let out = '';
  for (const ch of name) {
    out += /^[a-z0-9]$/.test(ch) ? ch : `_${ch.codePointAt(0)!.toString(16)}_`;
  }
  return out;
}

/** Inverse of {@link mangle}. */
export function unmangle(text: string): string {
  return text.replace(/_([0-9a-f]+)_/g, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)));
}

function aspString(name: string): string {
  return `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** ASP text of a GDL term (iterative: terms may be nested thousands deep). */
export function termToAsp(root: Term): string {
  const out: string[] = [];
  const stack: (Term | string)[] = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') out.push(item);
    else if (item.kind === 'const') out.push(aspString(item.name));
    else if (item.kind === 'var') out.push(`V_${mangle(item.name.slice(1))}`);
    else {
      out.push(`f_${mangle(item.name)}(`);
      stack.push(')');
      for (let i = item.args.length - 1; i >= 0; i--) stack.push(item.args[i]!, i > 0 ? ',' : '');
    }
  }
  return out.join('');
}

function atomToAsp(atom: Atom): string {
  const name = `p_${mangle(atom.rel)}`;
  return atom.args.length === 0 ? name : `${name}(${atom.args.map(termToAsp).join(',')})`;
}

/** ASP text of a positive or `distinct` literal; null for a negative literal (relaxed away). */
function literalToAsp(lit: Literal): string | null {
  if (lit.kind === 'neg') return null;
  if (lit.kind === 'pos') return atomToAsp(lit.atom);
  return `${termToAsp(lit.left)}!=${termToAsp(lit.right)}`;
}

function ruleToAsp(rule: NormalRule): string {
  const body = rule.body.map(literalToAsp).filter((l): l is string => l !== null);
  return body.length === 0 ? `${atomToAsp(rule.head)}.` : `${atomToAsp(rule.head)} :- ${body.join(', ')}.`;
}

/** Relations whose rules the relaxed game leaves out: they never feed the supersets. */
const LEFT_OUT: ReadonlySet<string> = new Set(['goal', 'terminal']);

/**
 * The relaxed game as an ASP program whose unique answer set is its least model: `true` from
 * `init` and `next`, `does` from `legal`, every other rule without its negative literals.
 * Only `true`, `does` and the non-keyword relations are shown.
 */
export function relaxedProgram(game: NormalGame): string {
  const lines = [
    '% relaxed game: true from init and next, does from legal',
    'p_true(F) :- p_init(F).',
    'p_true(F) :- p_next(F).',
    'p_does(R,M) :- p_legal(R,M).',
    '#show p_true/1.',
    '#show p_does/2.',
  ];
  const shown = new Set<string>();
  const show = (a: Atom): void => {
    const key = `p_${mangle(a.rel)}/${a.args.length}`;
    if (!KEYWORDS.has(a.rel) && !shown.has(key)) {
      shown.add(key);
      lines.push(`#show ${key}.`);
    }
  };
  for (const rule of game.rules) {
    show(rule.head);
    for (const l of rule.body) if (l.kind !== 'distinct') show(l.atom);
    if (!LEFT_OUT.has(rule.head.rel)) lines.push(ruleToAsp(rule));
  }
  return `${lines.join('\n')}\n`;
}


/** ASP text of a literal of the whole game: negative literals as `not`. */
function fullLiteralToAsp(lit: Literal): string {
  return lit.kind === 'neg' ? `not ${atomToAsp(lit.atom)}` : literalToAsp(lit)!;
}

/**
 * The whole game as an ASP program for gringo, the reference grounder of `npm run bench --
 * --scale`: every rule, negative literals as `not`, with `true` and `does` declared `#external`
 * over the given supersets (the relaxed game's, which instantiation joins over too), so that
 * gringo instantiates the same rules over the same domains. No rule defines `true` or `does`:
 * the externals are what their instances can be.
 */
export function groundingProgram(game: NormalGame, fluents: readonly Term[], moves: readonly { role: Term; action: Term }[]): string {
  const lines = ['% the whole game; true and does range over the supersets'];
  for (const f of fluents) lines.push(`#external p_true(${termToAsp(f)}).`);
  for (const m of moves) lines.push(`#external p_does(${termToAsp(m.role)},${termToAsp(m.action)}).`);
  for (const rule of game.rules) {
    const body = rule.body.map(fullLiteralToAsp);
    lines.push(body.length === 0 ? `${atomToAsp(rule.head)}.` : `${atomToAsp(rule.head)} :- ${body.join(', ')}.`);
  }
  return `${lines.join('\n')}\n`;
}
