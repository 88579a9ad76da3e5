/** Syntactic unification of terms, used to remove `(not (distinct s t))`, which is `s = t`. */
import type { Term } from '../gdl/ast.js';
import { collectVars, substitute } from '../gdl/terms.js';

/**
 * Extends `binding` to a most general unifier of `a` and `b`, or returns null when none exists.
 * The binding is kept idempotent: every bound variable maps to a term free of bound variables.
 */
export function unify(a: Term, b: Term, binding: ReadonlyMap<string, Term>): Map<string, Term> | null {
  const result = new Map(binding);
  const stack: [Term, Term][] = [[substitute(a, result), substitute(b, result)]];
  while (stack.length > 0) {
    const [x0, y0] = stack.pop()!;
    const x = substitute(x0, result);
    const y = substitute(y0, result);
    if (x.kind === 'var' || y.kind === 'var') {
      const [v, t] = x.kind === 'var' ? [x, y] : [y as Extract<Term, { kind: 'var' }>, x];
      if (t.kind === 'var' && t.name === v.name) continue;
      if (collectVars(t, new Set()).has(v.name)) return null; // occurs check
      const one = new Map([[v.name, t]]);
      for (const [k, val] of result) result.set(k, substitute(val, one));
      result.set(v.name, t);
    } else if (x.kind === 'const' || y.kind === 'const') {
      if (x.kind !== y.kind || x.name !== y.name) return null;
    } else {
      if (x.name !== y.name || x.args.length !== y.args.length) return null;
      for (let i = 0; i < x.args.length; i++) stack.push([x.args[i]!, y.args[i]!]);
    }
  }
  return result;
}
