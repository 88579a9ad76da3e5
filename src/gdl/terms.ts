/**
 * Printing and inspecting terms and atoms. Every walk here is iterative, with an explicit
 * stack, because real games contain terms nested thousands of levels deep.
 */
import type { Atom, Formula, Term } from './ast.js';
import { foldTerm } from './fold.js';

/** KIF text of a term, with single spaces: `(cell 1 2 b)`, `?x`, `step`. */
export function termToString(root: Term): string {
  const out: string[] = [];
  // The stack holds terms to print and literal strings (closing parentheses, spaces).
  const stack: (Term | string)[] = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
    } else if (item.kind !== 'fn') {
      out.push(item.name);
    } else {
      out.push('(', item.name);
      stack.push(')');
      for (let i = item.args.length - 1; i >= 0; i--) stack.push(item.args[i]!, ' ');
    }
  }
  return out.join('');
}

/** KIF text of an atom: `(legal white noop)`, `terminal`. */
export function atomToString(atom: Atom): string {
  if (atom.args.length === 0) return atom.rel;
  return `(${atom.rel} ${atom.args.map(termToString).join(' ')})`;
}

/** KIF text of a body formula. */
export function formulaToString(formula: Formula): string {
  switch (formula.kind) {
    case 'atom':
      return atomToString(formula);
    case 'distinct':
      return `(distinct ${termToString(formula.left)} ${termToString(formula.right)})`;
    case 'not':
      return `(not ${formulaToString(formula.arg)})`;
    case 'and':
    case 'or':
      return `(${formula.kind} ${formula.args.map(formulaToString).join(' ')})`;
  }
}

/** Adds the variable names of `root` to `out`, in order of first occurrence. */
export function collectVars(root: Term, out: Set<string>): Set<string> {
  const stack: Term[] = [root];
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (t.kind === 'var') out.add(t.name);
    else if (t.kind === 'fn') for (let i = t.args.length - 1; i >= 0; i--) stack.push(t.args[i]!);
  }
  return out;
}

/** The variable names of an atom's arguments. */
export function atomVars(atom: Atom, out: Set<string> = new Set()): Set<string> {
  for (const arg of atom.args) collectVars(arg, out);
  return out;
}

/** True when the term contains no variable. */
export function isGround(root: Term): boolean {
  const stack: Term[] = [root];
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (t.kind === 'var') return false;
    if (t.kind === 'fn') for (const a of t.args) stack.push(a);
  }
  return true;
}

/** Depth of a term: 1 for a constant or variable. */
export function termDepth(root: Term): number {
  let max = 0;
  const stack: [Term, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [t, d] = stack.pop()!;
    if (d > max) max = d;
    if (t.kind === 'fn') for (const a of t.args) stack.push([a, d + 1]);
  }
  return max;
}

/** Replaces variables bound in `binding`; unbound variables stay. */
export function substitute(root: Term, binding: ReadonlyMap<string, Term>): Term {
  if (root.kind === 'var') return binding.get(root.name) ?? root;
  if (root.kind === 'const') return root;
  return foldTerm<Term>(root, (t, args) => {
    if (t.kind === 'var') return binding.get(t.name) ?? t;
    return t.kind === 'fn' ? { kind: 'fn', name: t.name, args, pos: t.pos } : t;
  });
}

/** Substitutes into every argument of an atom. */
export function substituteAtom(atom: Atom, binding: ReadonlyMap<string, Term>): Atom {
  return { kind: 'atom', rel: atom.rel, args: atom.args.map((a) => substitute(a, binding)), pos: atom.pos };
}

/** Structural equality of two terms, ignoring positions. */
export function termEquals(a: Term, b: Term): boolean {
  const stack: [Term, Term][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x.kind !== y.kind || x.name !== y.name) return false;
    if (x.kind === 'fn' && y.kind === 'fn') {
      if (x.args.length !== y.args.length) return false;
      for (let i = 0; i < x.args.length; i++) stack.push([x.args[i]!, y.args[i]!]);
    }
  }
  return true;
}

/**
 * One-way matching: extends `binding` so that `pattern` with its variables replaced is
 * `target` (whose variables count as constants); false when no extension does. Iterative.
 */
export function matchTerm(pattern: Term, target: Term, binding: Map<string, Term>): boolean {
  const stack: [Term, Term][] = [[pattern, target]];
  while (stack.length > 0) {
    const [p, t] = stack.pop()!;
    if (p.kind === 'var') {
      const bound = binding.get(p.name);
      if (bound === undefined) binding.set(p.name, t);
      else if (!termEquals(bound, t)) return false;
    } else if (p.kind === 'const') {
      if (t.kind !== 'const' || t.name !== p.name) return false;
    } else {
      if (t.kind !== 'fn' || t.name !== p.name || t.args.length !== p.args.length) return false;
      for (let i = 0; i < p.args.length; i++) stack.push([p.args[i]!, t.args[i]!]);
    }
  }
  return true;
}

/** Compares strings by Unicode code point, the order of every sorted output. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  // UTF-16 order differs from code point order only when a surrogate is involved.
  return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
}

/** Code units of UTF-16 surrogates: only strings holding one can order differently by code unit. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Sorts `items` in place by code point order of `text(item)`. Without surrogates that is
 * the engine's own string order, which is far faster than a comparator walking characters.
 */
export function sortByCodePoints<T>(items: T[], text: (item: T) => string): T[] {
  if (items.some((x) => SURROGATE.test(text(x)))) return items.sort((a, b) => compareCodePoints(text(a), text(b)));
  // The texts sorted by the engine's default order, without a comparator call per comparison;
  // then the items put back in that order (equal texts keep their relative order).
  const byText = new Map<string, T[]>();
  for (const item of items) {
    const t = text(item);
    const same = byText.get(t);
    if (same === undefined) byText.set(t, [item]);
    else same.push(item);
  }
  const texts = [...byText.keys()].sort();
  let i = 0;
  for (const t of texts) for (const item of byText.get(t)!) items[i++] = item;
  return items;
}

/** Replaces variables in every term of a formula (formulas are shallow; terms may be deep). */
export function substituteFormula(f: Formula, binding: ReadonlyMap<string, Term>): Formula {
  switch (f.kind) {
    case 'atom':
      return { ...f, args: f.args.map((a) => substitute(a, binding)) };
    case 'distinct':
      return { ...f, left: substitute(f.left, binding), right: substitute(f.right, binding) };
    case 'not':
      return { ...f, arg: substituteFormula(f.arg, binding) };
    case 'and':
    case 'or':
      return { ...f, args: f.args.map((a) => substituteFormula(a, binding)) };
  }
}
