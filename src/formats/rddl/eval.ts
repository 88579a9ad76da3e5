/**
 * Expressions of a read RDDL model bound to value slots, and their evaluation. Values are
 * numbers; booleans are 1 and 0 (any non-zero number is true), as in pyRDDLGym. `^`, `|`, `=>`
 * and `if` evaluate lazily. Evaluation recurses over the expression, whose nesting the reader
 * bounds (MAX_NESTING) and whose `^`/`|` chains it keeps flat.
 */
import { GdlError, diag } from '../../gdl/diagnostics.js';
import type { BinOp, Expr } from './read.js';

/** An expression whose fluents are slot numbers. */
export type Bound =
  | { readonly k: 'c'; readonly v: number }
  | { readonly k: 'v'; readonly s: number }
  | { readonly k: 'not' | 'neg'; readonly a: Bound }
  | { readonly k: 'and' | 'or'; readonly args: readonly Bound[] }
  | { readonly k: 'bin'; readonly op: BinOp; readonly l: Bound; readonly r: Bound }
  | { readonly k: 'if'; readonly c: Bound; readonly t: Bound; readonly e: Bound };

/**
 * `expr` with every fluent replaced by its slot; an undeclared fluent is an error at its
 * position. `used` receives every slot read.
 */
export function bind(expr: Expr, slot: (name: string) => number | undefined, file: string, used?: Set<number>): Bound {
  const go = (e: Expr): Bound => {
    switch (e.kind) {
      case 'const':
        return { k: 'c', v: e.value };
      case 'var': {
        const s = slot(e.name);
        if (s === undefined) throw new GdlError([diag('error', file, e.pos, `undeclared fluent '${e.name}'`)]);
        used?.add(s);
        return { k: 'v', s };
      }
      case 'not':
      case 'neg':
        return { k: e.kind, a: go(e.arg) };
      case 'and':
      case 'or':
        return { k: e.kind, args: e.args.map(go) };
      case 'bin':
        return { k: 'bin', op: e.op, l: go(e.left), r: go(e.right) };
      case 'if':
        return { k: 'if', c: go(e.cond), t: go(e.then), e: go(e.else) };
    }
  };
  return go(expr);
}

const truth = (x: number): number => (x !== 0 ? 1 : 0);

/** The value of `e` with the slot values `v`. */
export function evaluate(e: Bound, v: Float64Array): number {
  switch (e.k) {
    case 'c':
      return e.v;
    case 'v':
      return v[e.s]!;
    case 'not':
      return evaluate(e.a, v) !== 0 ? 0 : 1;
    case 'neg':
      return -evaluate(e.a, v);
    case 'and':
      for (const a of e.args) if (evaluate(a, v) === 0) return 0;
      return 1;
    case 'or':
      for (const a of e.args) if (evaluate(a, v) !== 0) return 1;
      return 0;
    case 'if':
      return evaluate(e.c, v) !== 0 ? evaluate(e.t, v) : evaluate(e.e, v);
    case 'bin':
      return binary(e.op, e.l, e.r, v);
  }
}

function binary(op: BinOp, l: Bound, r: Bound, v: Float64Array): number {
  if (op === '=>') return evaluate(l, v) === 0 ? 1 : truth(evaluate(r, v));
  if (op === '^') return evaluate(l, v) === 0 ? 0 : truth(evaluate(r, v));
  if (op === '|') return evaluate(l, v) !== 0 ? 1 : truth(evaluate(r, v));
  const a = evaluate(l, v);
  const b = evaluate(r, v);
  switch (op) {
    case '<=>': return truth(a) === truth(b) ? 1 : 0;
    case '==': return a === b ? 1 : 0;
    case '~=': return a !== b ? 1 : 0;
    case '<': return a < b ? 1 : 0;
    case '<=': return a <= b ? 1 : 0;
    case '>': return a > b ? 1 : 0;
    case '>=': return a >= b ? 1 : 0;
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
  }
}
