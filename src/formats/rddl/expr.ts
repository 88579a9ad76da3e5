/**
 * Formulas of a FormulaGame as RDDL boolean expressions, and their value in a state (for the
 * initial values of derived fluents). Long conjunctions and disjunctions are written as
 * balanced binary trees, `((a ^ b) ^ (c ^ d))`, so that parsers and evaluators that recurse
 * over the expression see a depth logarithmic in the width, not linear.
 */
import { type Formula, type Step, postOrder } from '../../axioms/formula.js';

/** How an atom id reads in an expression (its RDDL name, primed or not, or a constant). */
export type AtomExpr = (atom: number) => string;

/** `items` joined by the binary operator `op` as a balanced tree; `empty` when there are none. */
export function balanced(items: readonly string[], op: '^' | '|', empty: string): string {
  if (items.length === 0) return empty;
  // Pairs adjacent items level by level (iterative, no recursion over the width).
  let level = [...items];
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? `(${level[i]!} ${op} ${level[i + 1]!})` : level[i]!);
    level = next;
  }
  return level[0]!;
}

/** The text of every formula reachable from `roots`, by node id (children first, shared once). */
function formulaTexts(roots: readonly Formula[], atom: AtomExpr, step?: Step): Map<number, string> {
  const text = new Map<number, string>();
  postOrder(roots, (f) => {
    let s: string;
    if (f.kind === 'true') s = 'true';
    else if (f.kind === 'false') s = 'false';
    else if (f.kind === 'atom') s = atom(f.atom);
    else if (f.kind === 'not') s = `~${f.arg.kind === 'atom' ? text.get(f.arg.id)! : `(${text.get(f.arg.id)!})`}`;
    else s = balanced(f.args.map((a) => text.get(a.id)!), f.kind === 'and' ? '^' : '|', f.kind === 'and' ? 'true' : 'false');
    text.set(f.id, s);
  }, step);
  return text;
}

/**
 * The expression of a head defined by `bodies` (one conjunction of formulas per rule): the
 * disjunction of the rules' conjunctions; `false` without rules.
 */
export function definitionText(bodies: readonly (readonly Formula[])[], atom: AtomExpr, step?: Step): string {
  const text = formulaTexts(bodies.flat(), atom, step);
  return balanced(bodies.map((b) => balanced(b.map((f) => text.get(f.id)!), '^', 'true')), '|', 'false');
}

/** The value of each formula reachable from `roots` when atom `a` has the value `value(a)`. */
function formulaValues(roots: readonly Formula[], value: (atom: number) => boolean): Map<number, boolean> {
  const out = new Map<number, boolean>();
  postOrder(roots, (f) => {
    let v: boolean;
    if (f.kind === 'true') v = true;
    else if (f.kind === 'false') v = false;
    else if (f.kind === 'atom') v = value(f.atom);
    else if (f.kind === 'not') v = !out.get(f.arg.id)!;
    else if (f.kind === 'and') v = f.args.every((a) => out.get(a.id)!);
    else v = f.args.some((a) => out.get(a.id)!);
    out.set(f.id, v);
  });
  return out;
}

/** Whether a head defined by `bodies` holds when atom `a` has the value `value(a)`. */
export function definitionValue(bodies: readonly (readonly Formula[])[], value: (atom: number) => boolean): boolean {
  const v = formulaValues(bodies.flat(), value);
  return bodies.some((b) => b.every((f) => v.get(f.id)!));
}
