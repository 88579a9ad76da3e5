/**
 * Prolog text of GDL terms: what the generated programs (the superset stage's clauses, the
 * Prolog reasoner's program) are written in. Pure text, apart from src/engine/tau.ts so that
 * the one module that loads tau-prolog stays about the engine itself.
 */
import type { Term } from '../gdl/ast.js';

/** Quotes a GDL symbol as a Prolog atom, so `1`, `+` and `A` all stay plain constants. */
export function quoteAtom(name: string): string {
  return `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * Prolog text of a GDL term: constants quoted, variables named through `vars`, new ones
 * `${varPrefix}0`, `${varPrefix}1`, ... (added to `vars`). Iterative: terms may be deep.
 */
export function prologText(root: Term, vars: Map<string, string>, varPrefix: string): string {
  const out: string[] = [];
  const stack: (Term | string)[] = [root];
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (typeof t === 'string') out.push(t);
    else if (t.kind === 'var') {
      if (!vars.has(t.name)) vars.set(t.name, `${varPrefix}${vars.size}`);
      out.push(vars.get(t.name)!);
    } else if (t.kind === 'const') out.push(quoteAtom(t.name));
    else {
      out.push(quoteAtom(t.name), '(');
      stack.push(')');
      for (let k = t.args.length - 1; k >= 0; k--) stack.push(t.args[k]!, k > 0 ? ',' : '');
    }
  }
  return out.join('');
}
