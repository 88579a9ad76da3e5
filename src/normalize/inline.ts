/**
 * Repair of "helper" relations whose rules test only `distinct` of head variables, such as
 *   (<= (distinctCell ?x ?y ?m ?n) (distinct ?x ?m))
 * in ticTacToeClassic. Such a rule is unsafe (its head variables are bound by nothing), yet
 * every Prolog-based player reads it as intended, because the relation is only ever called
 * with bound arguments. Inlining says exactly that: each use `(r t1 ... tn)` is replaced by
 * the disjunction of the rule bodies with the head variables replaced by t1 ... tn, and the
 * rules of r are dropped. Whether the uses bind t1 ... tn is then judged by the safety check.
 */
import type { Atom, Formula, Rule, Term } from '../gdl/ast.js';
import { KEYWORDS } from '../gdl/ast.js';
import { type Diagnostic, asRepair, diag } from '../gdl/diagnostics.js';
import { relationKeys } from '../gdl/relations.js';
import { collectVars, isGround, substituteFormula } from '../gdl/terms.js';
import type { NormalRule } from './types.js';

/** The rules a source rule splits into, or null when the normalizer refuses its DNF. */
export type SplitRule = (rule: Rule) => readonly NormalRule[] | null;

/** The variables of a formula made only of `distinct` under and/or/not; null if it has an atom. */
function distinctOnlyVars(f: Formula, out: Set<string>): Set<string> | null {
  switch (f.kind) {
    case 'atom':
      return null;
    case 'distinct':
      collectVars(f.right, collectVars(f.left, out));
      return out;
    case 'not':
      return distinctOnlyVars(f.arg, out);
    case 'and':
    case 'or':
      for (const a of f.args) if (distinctOnlyVars(a, out) === null) return null;
      return out;
  }
}

/** True when the rule has pairwise different variables as head arguments and a body of `distinct` over them. */
function isDistinctHelper(rule: Rule, split: SplitRule): boolean {
  const heads = rule.head.args.map((a) => (a.kind === 'var' ? a.name : ''));
  if (heads.length === 0 || heads.includes('') || new Set(heads).size !== heads.length || rule.body.length === 0) return false;
  const vars = new Set<string>();
  for (const b of rule.body) if (distinctOnlyVars(b, vars) === null) return false;
  return [...vars].every((v) => heads.includes(v)) && !bindsHead(rule, split);
}

/**
 * True when every disjunct of the normalized rule has a ground head: `(not (distinct ?x a))`
 * binds ?x to a, and such a rule is safe and needs no repair.
 */
function bindsHead(rule: Rule, split: SplitRule): boolean {
  const parts = split(rule);
  return parts !== null && parts.every((r) => r.head.args.every(isGround));
}

function usesOf(rules: readonly Rule[], key: (atom: Atom) => string): Set<string> {
  const used = new Set<string>();
  const visit = (f: Formula): void => {
    if (f.kind === 'atom') used.add(key(f));
    else if (f.kind === 'not') visit(f.arg);
    else if (f.kind === 'and' || f.kind === 'or') f.args.forEach(visit);
  };
  for (const r of rules) r.body.forEach(visit);
  return used;
}

/** The body of `rule` for the use `atom`: head variables replaced by the use's arguments. */
function instance(rule: Rule, atom: Atom): Formula {
  const binding = new Map<string, Term>();
  rule.head.args.forEach((a, i) => binding.set((a as Extract<Term, { kind: 'var' }>).name, atom.args[i]!));
  return { kind: 'and', args: rule.body.map((b) => substituteFormula(b, binding)), pos: atom.pos };
}

function inlineFormula(f: Formula, helpers: ReadonlyMap<string, readonly Rule[]>, key: (atom: Atom) => string): Formula {
  switch (f.kind) {
    case 'atom': {
      const defs = helpers.get(key(f));
      if (defs === undefined || defs[0]!.head.args.length !== f.args.length) return f;
      return { kind: 'or', args: defs.map((d) => instance(d, f)), pos: f.pos };
    }
    case 'distinct':
      return f;
    case 'not':
      return { ...f, arg: inlineFormula(f.arg, helpers, key) };
    case 'and':
    case 'or':
      return { ...f, args: f.args.map((a) => inlineFormula(a, helpers, key)) };
  }
}

/** Inlines every distinct-only helper relation that is used in some body; warns once per rule removed. */
export function inlineDistinctHelpers(rules: readonly Rule[], file: string, split: SplitRule): { rules: Rule[]; diagnostics: Diagnostic[] } {
  // Keyed by relation key: a name used with several arities names several relations.
  const key = relationKeys(rules);
  const byRel = new Map<string, Rule[]>();
  for (const r of rules) {
    const list = byRel.get(key(r.head));
    if (list === undefined) byRel.set(key(r.head), [r]);
    else list.push(r);
  }
  const used = usesOf(rules, key);
  const helpers = new Map<string, readonly Rule[]>();
  for (const [rel, defs] of byRel) {
    if (!KEYWORDS.has(defs[0]!.head.rel) && used.has(rel) && defs.every((d) => isDistinctHelper(d, split))) helpers.set(rel, defs);
  }
  if (helpers.size === 0) return { rules: [...rules], diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const out: Rule[] = [];
  for (const r of rules) {
    const defs = helpers.get(key(r.head));
    if (defs !== undefined) {
      diagnostics.push(asRepair(diag('warning', file, r.pos, `unsafe rule for '${r.head.rel}': its head variables are bound by no positive literal, and its body holds only 'distinct'; repaired by inlining '${r.head.rel}' into the rules that use it`), 'distinct-inline'));
    } else {
      out.push({ ...r, body: r.body.map((b) => inlineFormula(b, helpers, key)) });
    }
  }
  return { rules: out, diagnostics };
}
