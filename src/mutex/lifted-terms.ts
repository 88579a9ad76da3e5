/**
 * Terms under variable bindings for the lifted proofs (docs/mutex.md, 2a): following bindings,
 * canonical texts, unification (optionally binding only some variables) and renaming rules apart.
 */
import type { Atom, Term } from '../gdl/ast.js';
import type { Literal, NormalRule } from '../normalize/types.js';
/** Variable bindings of one pair check (or one branch of lifted-alo.ts). */
export type Subst = Map<string, Term>;

/** Follows variable bindings to the term a variable stands for. */
export function walk(t: Term, s: Subst): Term {
  let u = t;
  while (u.kind === 'var') {
    const b = s.get(u.name);
    if (b === undefined) return u;
    u = b;
  }
  return u;
}

/** Canonical text of a term under `s`; identical texts mean identical terms. */
export function key(t: Term, s: Subst): string {
  const u = walk(t, s);
  if (u.kind === 'var') return u.name;
  if (u.kind === 'const') return u.name;
  return `(${u.name} ${u.args.map((a) => key(a, s)).join(' ')})`;
}

/**
 * Whether `a` and `b` under `s` have the same {@link key}, without making the texts: the same
 * variable or constant name (a name never holds a parenthesis, so a compound's text is no name),
 * or compounds of one name and arity whose arguments do. The lifted proofs' forcing compares
 * arguments this way in every step of every case (chess: about a fifth of a rule pair's time went
 * to making and comparing texts).
 */
export function sameKey(a: Term, b: Term, s: Subst): boolean {
  const stack: Term[] = [a, b];
  while (stack.length > 0) {
    const y = walk(stack.pop()!, s);
    const x = walk(stack.pop()!, s);
    if (x === y) continue;
    if (x.name !== y.name || (x.kind === 'fn') !== (y.kind === 'fn')) return false;
    if (x.kind !== 'fn' || y.kind !== 'fn') continue;
    if (x.args.length !== y.args.length) return false;
    for (let i = 0; i < x.args.length; i++) stack.push(x.args[i]!, y.args[i]!);
  }
  return true;
}

/** Whether `t` under `s` has no variable. */
export function ground(t: Term, s: Subst): boolean {
  const u = walk(t, s);
  return u.kind === 'const' || (u.kind === 'fn' && u.args.every((a) => ground(a, s)));
}

/** An atom's text under `s` (variables by name): equal texts, the same atom under `s`. */
export const atomKey = (a: Atom, s: Subst): string => `${a.rel} ${a.args.map((t) => key(t, s)).join(' ')}`;

/** Whether `t` under `s` still holds a variable that `bindable` says is a rule's (lifted-alo.ts, lifted-entail.ts). */
export function hasRuleVar(t: Term, s: Subst, bindable: (name: string) => boolean): boolean {
  const u = walk(t, s);
  if (u.kind === 'var') return bindable(u.name);
  return u.kind === 'fn' && u.args.some((a) => hasRuleVar(a, s, bindable));
}

/** Whether variable `v` occurs in `t` under `s`. */
function occurs(v: string, t: Term, s: Subst): boolean {
  const u = walk(t, s);
  if (u.kind === 'var') return u.name === v;
  return u.kind === 'fn' && u.args.some((a) => occurs(v, a, s));
}

/** Every variable may be bound. */
const ANY_VAR = (): boolean => true;

/**
 * Unifies a and b, extending `s`; false when they cannot be made equal (s is then spoiled).
 * Only variables `bindable` accepts are bound (default all): the exactly-one proof matches a
 * rule against a claim whose own variables must stay as they are.
 */
export function unify(a: Term, b: Term, s: Subst, bindable: (name: string) => boolean = ANY_VAR): boolean {
  const stack: [Term, Term][] = [[a, b]];
  while (stack.length > 0) {
    const [x0, y0] = stack.pop()!;
    const x = walk(x0, s);
    const y = walk(y0, s);
    if (x.kind === 'var' && y.kind === 'var' && x.name === y.name) continue;
    const v = x.kind === 'var' && bindable(x.name) ? x : y.kind === 'var' && bindable(y.name) ? y : undefined;
    if (v !== undefined) {
      const t = v === x ? y : x;
      if (occurs(v.name, t, s)) return false;
      s.set(v.name, t);
      continue;
    }
    if (x.kind === 'var' || y.kind === 'var' || x.kind !== y.kind || x.name !== y.name) return false;
    if (x.kind === 'fn' && y.kind === 'fn') {
      if (x.args.length !== y.args.length) return false;
      x.args.forEach((xa, i) => stack.push([xa, y.args[i]!]));
    }
  }
  return true;
}

/** The term with every variable renamed apart by `tag`. */
function renameTerm(t: Term, tag: string): Term {
  if (t.kind === 'var') return { ...t, name: `${t.name}#${tag}` };
  if (t.kind === 'const') return t;
  return { ...t, args: t.args.map((a) => renameTerm(a, tag)) };
}

function renameAtom(a: Atom, tag: string): Atom {
  return { ...a, args: a.args.map((t) => renameTerm(t, tag)) };
}

/** The rule with every variable renamed apart by `tag`. */
export function renameRule(r: NormalRule, tag: string): NormalRule {
  const body = r.body.map((l): Literal => (l.kind === 'distinct' ? { ...l, left: renameTerm(l.left, tag), right: renameTerm(l.right, tag) } : { ...l, atom: renameAtom(l.atom, tag) }));
  return { head: renameAtom(r.head, tag), body, pos: r.pos };
}
