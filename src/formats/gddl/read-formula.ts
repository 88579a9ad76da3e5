/**
 * Formulas of a GDDL file compiled to postfix code over predicate indexes, and their
 * evaluation with a value stack: no recursion, however deep the formula. Grammar
 * (docs/gddl.md): `(NAME)` a predicate, `(not F)`, `(and F...)`, `(or F...)`; the reserved
 * predicate `_true` holds in every state.
 */
import { TRUE_NAME } from './names.js';
import { type SNode, syntaxError } from '../sexpr.js';

/** Postfix code: pairs (op, argument); op 0 pushes predicate `arg`, 1 pushes true, 2 negates, 3/4 and/or of `arg` values. */
export type Program = Int32Array;

const PRED = 0;
const TRUE = 1;
const NOT = 2;
const AND = 3;
const OR = 4;

/** Compiles `node`; `index` gives a predicate's index (undefined: unknown, a positioned error). */
export function compileFormula(node: SNode, index: ReadonlyMap<string, number>, file: string): Program {
  const code: number[] = [];
  const stack: { node: SNode; expanded: boolean }[] = [{ node, expanded: false }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    const n = top.node;
    if (n.kind === 'sym') throw syntaxError(file, n.pos, `expected a formula, found '${n.text}'`);
    const head = n.items[0];
    if (head === undefined || head.kind !== 'sym') throw syntaxError(file, n.pos, 'expected a formula: (NAME), (not F), (and F...) or (or F...)');
    if (n.items.length === 1) {
      if (head.text === TRUE_NAME) code.push(TRUE, 0);
      else {
        const i = index.get(head.text);
        if (i === undefined) throw syntaxError(file, head.pos, `unknown predicate '${head.text}'`);
        code.push(PRED, i);
      }
      continue;
    }
    const op = head.text === 'not' ? NOT : head.text === 'and' ? AND : head.text === 'or' ? OR : -1;
    if (op < 0) throw syntaxError(file, head.pos, `unknown connective '${head.text}' (a predicate is written alone in parentheses)`);
    if (op === NOT && n.items.length !== 2) throw syntaxError(file, n.pos, 'not takes one formula');
    if (top.expanded) {
      code.push(op, n.items.length - 1);
      continue;
    }
    stack.push({ node: n, expanded: true });
    for (let i = n.items.length - 1; i >= 1; i--) stack.push({ node: n.items[i]!, expanded: false });
  }
  return Int32Array.from(code);
}

/** The value of `program` when the predicates have `values` (1 true, 0 false). */
export function evaluate(program: Program, values: Uint8Array, stack: Uint8Array = new Uint8Array(program.length)): boolean {
  let sp = 0;
  for (let pc = 0; pc < program.length; pc += 2) {
    const op = program[pc]!;
    const arg = program[pc + 1]!;
    if (op === PRED) stack[sp++] = values[arg]!;
    else if (op === TRUE) stack[sp++] = 1;
    else if (op === NOT) stack[sp - 1] = stack[sp - 1] === 1 ? 0 : 1;
    else {
      let v = op === AND ? 1 : 0;
      for (let k = 0; k < arg; k++) {
        const x = stack[--sp]!;
        v = op === AND ? v & x : v | x;
      }
      stack[sp++] = v;
    }
  }
  return stack[0] === 1;
}
