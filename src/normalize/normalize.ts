/**
 * Normalization (section 9.1.1): negation normal form, then disjunctive normal form, then one
 * rule per disjunct. `(not (distinct s t))` is equality and is removed by unifying s with t.
 * Contract: the returned game has exactly the same models as the input (an "equivalent game").
 */
import type { Atom, Formula, GameDescription, Rule, Term } from '../gdl/ast.js';
import { GdlError, diag } from '../gdl/diagnostics.js';
import { atomVars, collectVars, isGround, substitute, substituteAtom, termEquals, termToString, atomToString } from '../gdl/terms.js';
import { createRuleSet } from './dedupe.js';
import { unify } from './unify.js';
import type { Literal, NormalGame, NormalRule } from './types.js';

/** Options of the normalizer. */
export interface NormalizeOptions {
  /** Largest number of rules one source rule may split into before it is refused. */
  readonly maxDisjuncts: number;
  /**
   * Instead of refusing a rule whose DNF is too large, name its variable-free non-literal
   * conjuncts by fresh 0-ary relations defined by rules of their own (for reading games whose
   * axioms were removed, where `(not (or ...))` bodies are common). Off by default.
   */
  readonly splitGround?: boolean;
}

/** Defaults: 4096 disjuncts are far beyond any real game and cheap to hold. */
export const DEFAULT_NORMALIZE_OPTIONS: NormalizeOptions = { maxDisjuncts: 4096 };

/** A literal in NNF, before equalities are solved. */
type NnfLit = Literal | { readonly kind: 'eq'; readonly left: Term; readonly right: Term };

/** NNF formula: negation only directly above atoms and `distinct`. */
type Nnf =
  | { readonly kind: 'lit'; readonly lit: NnfLit }
  | { readonly kind: 'and' | 'or'; readonly args: readonly Nnf[] };

// Depth is bounded by the parser's MAX_FORMULA_DEPTH, so recursion over formulas is safe.
function toNnf(f: Formula, negated: boolean): Nnf {
  switch (f.kind) {
    case 'atom':
      return { kind: 'lit', lit: { kind: negated ? 'neg' : 'pos', atom: f } };
    case 'distinct':
      return {
        kind: 'lit',
        lit: negated ? { kind: 'eq', left: f.left, right: f.right } : { kind: 'distinct', left: f.left, right: f.right, pos: f.pos },
      };
    case 'not':
      return toNnf(f.arg, !negated);
    case 'and':
    case 'or': {
      // De Morgan: a negated conjunction is a disjunction of negations, and vice versa.
      const kind = (f.kind === 'and') !== negated ? 'and' : 'or';
      return { kind, args: f.args.map((a) => toNnf(a, negated)) };
    }
  }
}

/** Counts the disjuncts DNF would produce, capped, so blow-up is refused before it happens. */
function countDisjuncts(f: Nnf, cap: number): number {
  if (f.kind === 'lit') return 1;
  if (f.kind === 'or') return Math.min(cap + 1, f.args.reduce((s, a) => s + countDisjuncts(a, cap), 0));
  return f.args.reduce((p, a) => Math.min(cap + 1, p * countDisjuncts(a, cap)), 1);
}

/** DNF as a list of conjunctions (each a list of literals). */
function toDnf(f: Nnf): NnfLit[][] {
  if (f.kind === 'lit') return [[f.lit]];
  if (f.kind === 'or') return f.args.flatMap(toDnf);
  let acc: NnfLit[][] = [[]];
  for (const arg of f.args) {
    const parts = toDnf(arg);
    acc = acc.flatMap((conj) => parts.map((p) => [...conj, ...p]));
  }
  return acc;
}

/** Solves `eq` literals by unification; null when the conjunction can never hold. */
function solveEqualities(head: Atom, lits: readonly NnfLit[]): { head: Atom; body: Literal[] } | null {
  let binding = new Map<string, Term>();
  for (const l of lits) {
    if (l.kind !== 'eq') continue;
    const next = unify(substitute(l.left, binding), substitute(l.right, binding), binding);
    if (next === null) return null;
    binding = next;
  }
  const body: Literal[] = [];
  for (const l of lits) {
    if (l.kind === 'eq') continue;
    if (l.kind === 'distinct') body.push({ ...l, left: substitute(l.left, binding), right: substitute(l.right, binding) });
    else body.push({ kind: l.kind, atom: substituteAtom(l.atom, binding) });
  }
  return { head: binding.size > 0 ? substituteAtom(head, binding) : head, body };
}

function literalKey(l: Literal): string {
  if (l.kind === 'distinct') return `(distinct ${termToString(l.left)} ${termToString(l.right)})`;
  return l.kind === 'neg' ? `(not ${atomToString(l.atom)})` : atomToString(l.atom);
}

/**
 * Simplifies ground `distinct` (true: dropped; false: the conjunction dies), removes duplicate
 * literals, and orders the body: positive literals in source order, each `distinct` or negated
 * atom right after the positive literal that binds its last variable.
 */
function orderBody(body: readonly Literal[]): Literal[] | null {
  const seen = new Set<string>();
  const positives: Literal[] = [];
  const pending: { lit: Literal; vars: Set<string> }[] = [];
  for (const l of body) {
    if (l.kind === 'distinct' && isGround(l.left) && isGround(l.right)) {
      if (termEquals(l.left, l.right)) return null;
      continue;
    }
    const key = literalKey(l);
    if (seen.has(key)) continue;
    seen.add(key);
    if (l.kind === 'pos') positives.push(l);
    else {
      const vars = l.kind === 'neg' ? atomVars(l.atom) : collectVars(l.right, collectVars(l.left, new Set()));
      pending.push({ lit: l, vars });
    }
  }
  const bound = new Set<string>();
  const out: Literal[] = [];
  const flush = (): void => {
    for (let i = 0; i < pending.length; ) {
      if ([...pending[i]!.vars].every((v) => bound.has(v))) out.push(pending.splice(i, 1)[0]!.lit);
      else i++;
    }
  };
  flush();
  for (const p of positives) {
    out.push(p);
    if (p.kind === 'pos') atomVars(p.atom, bound);
    flush();
  }
  for (const p of pending) out.push(p.lit);
  return out;
}

/** True when a formula has no variables. */
function groundFormula(f: Formula): boolean {
  if (f.kind === 'atom') return f.args.every(isGround);
  if (f.kind === 'distinct') return isGround(f.left) && isGround(f.right);
  if (f.kind === 'not') return groundFormula(f.arg);
  return f.args.every(groundFormula);
}

/**
 * Splits a rule whose DNF is too large into equivalent smaller rules: a body that is one
 * disjunction becomes one rule per disjunct; otherwise each variable-free conjunct that is not
 * a literal is replaced by a fresh 0-ary atom defined by that conjunct (under `not` the atom is
 * negated). Null when nothing can be split.
 */
function splitRule(rule: Rule, fresh: () => string): Rule[] | null {
  const conj: Formula[] = [];
  const stack = [...rule.body].reverse();
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.kind === 'and') stack.push(...[...f.args].reverse());
    else conj.push(f);
  }
  if (conj.length === 1 && conj[0]!.kind === 'or') return conj[0]!.args.map((a) => ({ ...rule, body: [a] }));
  const extra: Rule[] = [];
  const body = conj.map((f): Formula => {
    const inner = f.kind === 'not' ? f.arg : f;
    if (inner.kind === 'atom' || inner.kind === 'distinct' || !groundFormula(inner)) return f;
    const aux: Atom = { kind: 'atom', rel: fresh(), args: [], pos: f.pos };
    extra.push({ head: aux, body: [inner], pos: f.pos });
    return f.kind === 'not' ? { kind: 'not', arg: aux, pos: f.pos } : aux;
  });
  return extra.length === 0 ? null : [{ ...rule, body }, ...extra];
}

/**
 * What one source rule becomes: the rules of its disjuncts, or the error refusing it when its
 * DNF would exceed `maxDisjuncts` (kept, not thrown, so that validation can go on and the
 * pipeline reports it only when validation found nothing else).
 */
export type NormalForm =
  | { readonly kind: 'split'; readonly rules: readonly NormalRule[] }
  | { readonly kind: 'refused'; readonly error: GdlError };

/**
 * The normal form of one rule of `file`: NNF, DNF, one rule per disjunct, equalities solved.
 * With `options.splitGround`, a rule whose DNF is too large is first split (see splitRule),
 * naming the new relations with `fresh` (one generator per game: {@link freshNames}).
 */
export function normalizeRule(rule: Rule, file: string, options: NormalizeOptions, fresh?: () => string): NormalForm {
  // A fact is its own normal form (one empty disjunct, no equality): files of facts run to
  // millions of rules, so they skip the formula machinery.
  if (rule.body.length === 0) return { kind: 'split', rules: [{ head: rule.head, body: [], pos: rule.pos }] };
  const nnf = toNnf({ kind: 'and', args: rule.body, pos: rule.pos }, false);
  const count = countDisjuncts(nnf, options.maxDisjuncts);
  const split = count > options.maxDisjuncts && options.splitGround === true && fresh !== undefined ? splitRule(rule, fresh) : null;
  if (split !== null) {
    const rules: NormalRule[] = [];
    for (const part of split) {
      const form = normalizeRule(part, file, options, fresh);
      if (form.kind === 'refused') return form;
      rules.push(...form.rules);
    }
    return { kind: 'split', rules };
  }
  if (count > options.maxDisjuncts) {
    // A size limit, not invalid GDL: the rule means something, only more than the run allows.
    const message = `rule for '${rule.head.rel}' splits into more than ${options.maxDisjuncts} rules in disjunctive normal form`;
    return { kind: 'refused', error: new GdlError([diag('error', file, rule.pos, message)], 'limit') };
  }
  const out: NormalRule[] = [];
  for (const conj of toDnf(nnf)) {
    const solved = solveEqualities(rule.head, conj);
    if (solved === null) continue;
    const body = orderBody(solved.body);
    if (body !== null) out.push({ head: solved.head, body, pos: rule.pos });
  }
  return { kind: 'split', rules: out };
}

/**
 * The normalized game of `file` from the normal forms of its rules, in rule order, duplicates
 * removed. Throws the {@link GdlError} of the first refused rule.
 */
export function assembleNormalGame(file: string, forms: readonly NormalForm[]): NormalGame {
  const rules: NormalRule[] = [];
  const seen = createRuleSet();
  for (const form of forms) {
    if (form.kind === 'refused') throw form.error;
    for (const r of form.rules) if (seen.add(r)) rules.push(r);
  }
  return { file, rules };
}

/** Relation names `split_1`, `split_2`, ... that the game does not use. */
export function freshNames(game: GameDescription): () => string {
  const used = new Set<string>();
  for (const rule of game.rules) {
    used.add(rule.head.rel);
    const stack: Formula[] = [...rule.body];
    while (stack.length > 0) {
      const f = stack.pop()!;
      if (f.kind === 'atom') used.add(f.rel);
      else if (f.kind === 'not') stack.push(f.arg);
      else if (f.kind === 'and' || f.kind === 'or') stack.push(...f.args);
    }
  }
  let n = 0;
  return () => {
    let name: string;
    do name = `split_${++n}`;
    while (used.has(name));
    return name;
  };
}
