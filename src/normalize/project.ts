/**
 * Repair of negative literals over free variables (docs/validation.md, repair 5):
 * `(<= (next done) (true (phase end)) (not (true (cell ?x))))`, where ?x occurs in no positive
 * literal and not in the head. A Prolog-based player evaluates `\+ true(cell(X))` with X free,
 * which means "no X at all"; binding ?x over a domain would mean "some X with not", another
 * game. The repair computes exactly Prolog's reading, safely: the negated atom is projected
 * onto its other variables by a fresh relation,
 *   (not (q ..?x..))   ->   (not (some_q w...))   with   (<= (some_q w...) (q ..?x..))
 * where w are the literal's variables that something else binds. Only rules whose body is a
 * plain conjunction of atoms, negated atoms and `distinct` are repaired (there the literal is
 * the one Prolog evaluates); a free variable that also stands in a `distinct` stays an error.
 */
import type { Atom, Formula, Rule, Term } from '../gdl/ast.js';
import { mkAtom } from '../gdl/ast.js';
import { type Diagnostic, asRepair, diag } from '../gdl/diagnostics.js';
import { atomVars, collectVars, formulaToString } from '../gdl/terms.js';

/** A rule with its free negations projected, the helper rules it needs, and a warning per literal. */
interface Projection {
  readonly rule: Rule;
  readonly helpers: readonly Rule[];
  readonly warnings: readonly Diagnostic[];
}

/** Every relation name of `rules`, so that helper names are fresh. */
export function relationNames(rules: readonly Rule[]): Set<string> {
  const out = new Set<string>();
  const visit = (f: Formula): void => {
    if (f.kind === 'atom') out.add(f.rel);
    else if (f.kind === 'not') visit(f.arg);
    else if (f.kind === 'and' || f.kind === 'or') f.args.forEach(visit);
  };
  for (const r of rules) {
    out.add(r.head.rel);
    r.body.forEach(visit);
  }
  return out;
}

function freshRelation(base: string, used: Set<string>): string {
  let name = `some_${base}`;
  for (let i = 2; used.has(name); i++) name = `some_${base}_${i}`;
  used.add(name);
  return name;
}

/** The variables of `atom` in order of first occurrence. */
function orderedVars(atom: Atom): string[] {
  const out: string[] = [];
  const stack: Term[] = [...atom.args].reverse();
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (t.kind === 'var' && !out.includes(t.name)) out.push(t.name);
    else if (t.kind === 'fn') for (let i = t.args.length - 1; i >= 0; i--) stack.push(t.args[i]!);
  }
  return out;
}

/**
 * Projects the negative literals of `rule` whose free variables (in no positive literal, not in
 * the head, not in a `distinct`) make it unsafe; null when there is none. `used` holds the
 * relation names taken, and receives the new ones.
 */
export function projectFreeNegations(rule: Rule, file: string, used: Set<string>): Projection | null {
  if (!rule.body.every((f) => f.kind === 'atom' || f.kind === 'distinct' || (f.kind === 'not' && f.arg.kind === 'atom'))) return null;
  const bound = atomVars(rule.head);
  const inDistinct = new Set<string>();
  for (const f of rule.body) {
    if (f.kind === 'atom') atomVars(f, bound);
    else if (f.kind === 'distinct') collectVars(f.right, collectVars(f.left, inDistinct));
  }
  const helpers: Rule[] = [];
  const warnings: Diagnostic[] = [];
  const body = rule.body.map((f): Formula => {
    if (f.kind !== 'not' || f.arg.kind !== 'atom') return f;
    const atom = f.arg;
    const vars = orderedVars(atom);
    const free = vars.filter((v) => !bound.has(v));
    if (free.length === 0 || free.some((v) => inDistinct.has(v))) return f;
    const name = freshRelation(atom.rel, used);
    const kept = vars.filter((v) => bound.has(v)).map((v): Term => ({ kind: 'var', name: v, pos: atom.pos }));
    const helperHead = mkAtom(name, kept, atom.pos);
    helpers.push({ head: helperHead, body: [atom], pos: rule.pos });
    warnings.push(asRepair(diag('warning', file, rule.pos,
      `unsafe rule for '${rule.head.rel}': ${free.length === 1 ? 'variable' : 'variables'} ${free.join(', ')} of ${formulaToString(f)} ${free.length === 1 ? 'is' : 'are'} bound by no positive literal; repaired by reading it as Prolog-based players do, "no such ${free.join(', ')} at all": (not ${formulaToString(helperHead)}) with (<= ${formulaToString(helperHead)} ${formulaToString(atom)})`), 'free-negation'));
    return { kind: 'not', arg: helperHead, pos: f.pos };
  });
  return helpers.length === 0 ? null : { rule: { ...rule, body }, helpers, warnings };
}
