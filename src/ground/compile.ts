/**
 * Compiles a normalized rule for instantiation: numbered variables, compiled patterns for the
 * head and every literal, and the safety check the join relies on (every variable of the head,
 * of a negated atom and of a `distinct` occurs in a positive body atom).
 */
import { GdlError, diag } from '../gdl/diagnostics.js';
import type { Atom } from '../gdl/ast.js';
import type { NormalRule } from '../normalize/types.js';
import type { TermTable } from '../datalog/terms.js';
import { type Pattern, compileAtom, compileTerm, patternVars } from '../datalog/pattern.js';

/** A positive or negated body atom, compiled. */
export interface CompiledAtom {
  /** The relation's key (its name, or name/arity for a name used with several arities). */
  readonly rel: string;
  /** The atom as a pattern over the rule's variables. */
  readonly pattern: Pattern;
  /** Its variables, ascending. */
  readonly vars: readonly number[];
}

/** `(distinct left right)`, compiled. */
interface CompiledDistinct {
  readonly left: Pattern;
  readonly right: Pattern;
  readonly vars: readonly number[];
}

/** A normalized rule ready for the join of instantiation (not reach/compile.ts's CompiledRule, a rule of the Prolog method with its semi-naive variants). */
export interface JoinRule {
  readonly source: NormalRule;
  readonly nVars: number;
  readonly head: CompiledAtom;
  readonly positives: readonly CompiledAtom[];
  readonly negatives: readonly CompiledAtom[];
  readonly distincts: readonly CompiledDistinct[];
  /**
   * The positive atom the join reads first, its later tests remembered (join.ts leadPlan);
   * unset: the greedy plan. Set by the frame rewrite for its touched rules (frame-run.ts).
   */
  readonly lead?: number;
}

function compiled(rel: string, pattern: Pattern): CompiledAtom {
  return { rel, pattern, vars: patternVars(pattern) };
}

/**
 * Compiles `rule`, keying relations by `key` (relationKeys of the game; the plain name by
 * default); throws {@link GdlError} ('invalid') at the rule when a variable of its head,
 * a negated atom or a `distinct` does not occur in a positive body atom (an unsafe rule).
 */
export function compileRule(rule: NormalRule, file: string, table: TermTable, key: (atom: Atom) => string = (a) => a.rel): JoinRule {
  const vars = new Map<string, number>();
  const positives: CompiledAtom[] = [];
  for (const l of rule.body) if (l.kind === 'pos') positives.push(compiled(key(l.atom), compileAtom(l.atom, vars, table)));
  const safe = vars.size;
  const head = compiled(key(rule.head), compileAtom(rule.head, vars, table));
  const negatives: CompiledAtom[] = [];
  const distincts: CompiledDistinct[] = [];
  for (const l of rule.body) {
    if (l.kind === 'neg') negatives.push(compiled(key(l.atom), compileAtom(l.atom, vars, table)));
    else if (l.kind === 'distinct') {
      const left = compileTerm(l.left, vars, table);
      const right = compileTerm(l.right, vars, table);
      distincts.push({ left, right, vars: [...new Set([...patternVars(left), ...patternVars(right)])].sort((a, b) => a - b) });
    }
  }
  if (vars.size > safe) {
    const unsafe = [...vars].filter(([, i]) => i >= safe).map(([name]) => name);
    throw new GdlError([
      diag('error', file, rule.pos, `unsafe rule for '${rule.head.rel}': ${unsafe.join(', ')} must occur in a positive body literal`),
    ]);
  }
  return { source: rule, nVars: vars.size, head, positives, negatives, distincts };
}
