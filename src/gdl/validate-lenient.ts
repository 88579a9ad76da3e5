/**
 * Lenient acceptances: constructs that strict GDL (the 2008 specification: a body is a
 * conjunction of literals, a literal an atom, `(not atom)`, `(distinct t t)` or `(or literal...)`,
 * and every variable bound by a positive atom) forbids, but that the project reads with one clear
 * meaning. Each is accepted with a warning at the rule's position, so that nothing beyond GDL is
 * ever accepted silently. The other lenient acceptances warn where they are made: several
 * arities (validate-arity.ts), `(gameover)` (the parser), value-split stratification
 * (validate-stratification.ts) and the safety repairs (src/normalize/).
 */
import type { Formula, Rule } from './ast.js';
import { type Diagnostic, diag } from './diagnostics.js';
import { forEachBodyAtom } from './relations.js';
import { atomVars, collectVars, formulaToString } from './terms.js';

/** Iterates over every formula of a body with its negation depth parity (iteratively). */
function forEachFormula(body: readonly Formula[], visit: (f: Formula, negated: boolean, parent: Formula | null) => void): void {
  const stack: [Formula, boolean, Formula | null][] = body.map((f) => [f, false, null]);
  while (stack.length > 0) {
    const [f, neg, parent] = stack.pop()!;
    visit(f, neg, parent);
    if (f.kind === 'not') stack.push([f.arg, !neg, f]);
    else if (f.kind === 'and' || f.kind === 'or') for (const a of f.args) stack.push([a, neg, f]);
  }
}

/**
 * Connectives beyond strict GDL, read by the normalizer's NNF and DNF:
 *   warn <- (and ...) anywhere in a body
 *   warn <- (not F), F not an atom and not a distinct (read by De Morgan's laws)
 *   warn <- (or ... F ...), F neither a literal nor an (or ...)
 */
function checkConnectives(rule: Rule, file: string, out: Diagnostic[]): void {
  const seen = new Set<string>();
  const warn = (message: string): void => {
    if (!seen.has(message)) (seen.add(message), out.push(diag('warning', file, rule.pos, message)));
  };
  forEachFormula(rule.body, (f, _neg, parent) => {
    if (f.kind === 'and') warn("'and' in a rule body is not strict GDL (a body is already a conjunction); read as a conjunction");
    if (f.kind === 'not' && f.arg.kind !== 'atom' && f.arg.kind !== 'distinct') {
      warn(`'not' of a compound formula is not strict GDL (it negates an atom or a distinct); read by De Morgan's laws: ${formulaToString(f)}`);
    }
    if (parent?.kind === 'or' && (f.kind === 'and' || (f.kind === 'not' && f.arg.kind !== 'atom' && f.arg.kind !== 'distinct'))) {
      warn(`'or' of a compound formula is not strict GDL (it joins literals); read in disjunctive normal form: ${formulaToString(parent)}`);
    }
  });
}

/**
 * `(not (distinct s t))` is the equality s = t, which the normalizer solves by unification;
 * strict GDL's safety rule counts only positive atoms as binding:
 *   warn <- V occurs in a negated distinct, and in no positive atom of the rule
 * (when V is bound by nothing at all, the safety check reports the rule as unsafe besides).
 */
function checkEqualityBinding(rule: Rule, file: string, out: Diagnostic[]): void {
  const bound = new Set<string>();
  for (const b of rule.body) forEachBodyAtom(b, false, (atom, negative) => { if (!negative) atomVars(atom, bound); });
  const reported = new Set<string>();
  forEachFormula(rule.body, (f, negated) => {
    if (f.kind !== 'distinct' || !negated) return;
    for (const v of collectVars(f.right, collectVars(f.left, new Set()))) {
      if (bound.has(v) || reported.has(v)) continue;
      reported.add(v);
      out.push(diag('warning', file, rule.pos, `variable ${v} is bound only by the equality (not ${formulaToString(f)}), which strict GDL does not count as binding; read as the equality, solved by unification (a Prolog-based player tests it on whatever its call binds, and finds it false for a free variable)`));
    }
  });
}

/** Warnings for every construct of `rules` that strict GDL forbids but this project reads. */
export function checkLenient(rules: readonly Rule[], file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) {
    checkConnectives(rule, file, out);
    checkEqualityBinding(rule, file, out);
  }
  return out;
}
