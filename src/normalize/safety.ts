/**
 * Safety: every variable of a rule's head, of a negative literal or of a `distinct` must be
 * bound by a positive body literal. It is judged per disjunct of the body's DNF, on exactly the
 * rules the normalizer produces, so `or` is handled and `(not (distinct s t))` counts as the
 * equality `s = t` the normalizer solves by unification (`(not (distinct ?x a))` binds ?x to a,
 * `(not (distinct ?x ?y))` binds ?x only when ?y is bound).
 *
 * Real games are sloppy in two ways that have one clear meaning, and those are repaired with
 * a warning (docs/validation.md):
 * - a role variable of `legal`, `goal` or `input` bound nowhere: `(<= (goal ?r 0) ...)` means
 *   "for every role"; the repair adds `(role ?r)` to the body;
 * - a variable that occurs only in `distinct` literals: GGP-Base and every Prolog-based player
 *   evaluate `(distinct ?x t)` with ?x unbound as a syntactic comparison, where a free variable
 *   equals only itself; the repair replaces each such variable by a fresh constant, which
 *   computes exactly that comparison.
 * A negative literal over variables nothing binds reads "none at all", as in Prolog
 * (project.ts); an unbound head variable is bound over its domain after normalization
 * (src/reach/repair.ts). Everything else unsafe is an error.
 */
import type { Atom, Formula, Rule, Term } from '../gdl/ast.js';
import { mkAtom } from '../gdl/ast.js';
import { type Diagnostic, asRepair, diag } from '../gdl/diagnostics.js';
import { atomVars, collectVars, compareCodePoints, formulaToString, isGround, substituteFormula } from '../gdl/terms.js';
import type { SplitRule } from './inline.js';
import { projectFreeNegations, relationNames } from './project.js';
import type { NormalRule } from './types.js';

/** Argument 0 of these relations is a role (GDL-II's `sees` too, docs/gdl2.md). */
const ROLE_POSITION: ReadonlySet<string> = new Set(['legal', 'goal', 'input', 'sees']);

/** The unsafe variables of one normalized rule, by where they occur. */
interface Unsafe {
  readonly head: Set<string>;
  readonly negative: Map<string, string>;
  readonly distinctOnly: Set<string>;
  readonly distinctWith: Map<string, string>;
}

function literalText(l: NormalRule['body'][number]): string {
  return l.kind === 'pos' ? formulaToString(l.atom) : l.kind === 'neg' ? `(not ${formulaToString(l.atom)})` : formulaToString(l);
}

/**
 * Finds the variables of `rule` that no positive literal binds (safety, per normalized rule):
 *   unsafe(V) <- V occurs in the head, a negative literal or a distinct, and in no positive literal.
 */
function unsafeVars(rule: NormalRule): Unsafe {
  const bound = new Set<string>();
  for (const l of rule.body) if (l.kind === 'pos') atomVars(l.atom, bound);
  const head = new Set([...atomVars(rule.head)].filter((v) => !bound.has(v)));
  const negative = new Map<string, string>();
  const inDistinct = new Map<string, string>();
  for (const l of rule.body) {
    if (l.kind === 'neg') {
      for (const v of atomVars(l.atom)) if (!bound.has(v) && !negative.has(v)) negative.set(v, literalText(l));
    } else if (l.kind === 'distinct') {
      for (const v of collectVars(l.right, collectVars(l.left, new Set()))) {
        if (!bound.has(v) && !inDistinct.has(v)) inDistinct.set(v, literalText(l));
      }
    }
  }
  const distinctOnly = new Set([...inDistinct.keys()].filter((v) => !head.has(v) && !negative.has(v)));
  const distinctWith = new Map([...inDistinct].filter(([v]) => !distinctOnly.has(v)));
  return { head, negative, distinctOnly, distinctWith };
}

/** Head variables standing alone as the role argument of legal, goal, input or sees. */
function roleVars(head: Atom): Set<string> {
  const arg = head.args[0];
  return ROLE_POSITION.has(head.rel) && arg !== undefined && arg.kind === 'var' ? new Set([arg.name]) : new Set();
}

/** A constant named after the variable that the game does not use (`?x` becomes `free_x`). */
function freshConstant(variable: string, used: ReadonlySet<string>): string {
  const base = `free_${variable.slice(1)}`;
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
  return name;
}

/** Every constant and function name of the game, so that fresh constants are really fresh. */
function usedNames(rules: readonly Rule[]): Set<string> {
  const used = new Set<string>();
  const stack: Term[] = [];
  const pushFormula = (f: Formula): void => {
    if (f.kind === 'atom') for (const a of f.args) stack.push(a);
    else if (f.kind === 'distinct') stack.push(f.left, f.right);
    else if (f.kind === 'not') pushFormula(f.arg);
    else for (const a of f.args) pushFormula(a);
  };
  for (const r of rules) {
    pushFormula(r.head);
    for (const b of r.body) pushFormula(b);
  }
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (t.kind !== 'var') used.add(t.name);
    if (t.kind === 'fn') for (const a of t.args) stack.push(a);
  }
  return used;
}

/** Applies both repairs to one rule; returns the rule and the warnings, or null when none applies. */
function repair(rule: Rule, parts: readonly NormalRule[], file: string, usedNow: () => Set<string>): { rule: Rule; warnings: Diagnostic[] } | null {
  const roles = new Set<string>();
  const free = new Set<string>();
  const candidates = roleVars(rule.head);
  for (const part of parts) {
    const u = unsafeVars(part);
    for (const v of u.head) if (candidates.has(v)) roles.add(v);
    for (const v of u.distinctOnly) free.add(v);
  }
  // A variable is renamed only when, in every disjunct it occurs in, it occurs in `distinct`
  // alone and unbound; renaming must never hide an unsafe head or negative literal.
  for (const part of parts) {
    const bound = new Set<string>();
    for (const l of part.body) if (l.kind === 'pos') atomVars(l.atom, bound);
    const u = unsafeVars(part);
    for (const v of [...free]) if (bound.has(v) || u.head.has(v) || u.negative.has(v)) free.delete(v);
  }
  if (roles.size === 0 && free.size === 0) return null;
  const warnings: Diagnostic[] = [];
  const head = rule.head.rel;
  const sortedRoles = [...roles].sort(compareCodePoints);
  for (const v of sortedRoles) {
    warnings.push(asRepair(diag('warning', file, rule.pos, `unsafe rule for '${head}': role variable ${v} is bound by no positive literal; repaired by adding (role ${v}) to the body`), 'role-variable'));
  }
  const binding = new Map<string, Term>();
  for (const v of [...free].sort(compareCodePoints)) {
    const used = usedNow();
    const name = freshConstant(v, used);
    used.add(name);
    binding.set(v, { kind: 'const', name, pos: rule.pos });
    warnings.push(asRepair(diag('warning', file, rule.pos, `unsafe rule for '${head}': variable ${v} occurs only in 'distinct'; repaired by replacing it with the fresh constant '${name}', which equals nothing else, as in the syntactic comparison of Prolog-based players`), 'distinct-only'));
  }
  const roleAtoms = sortedRoles.map((v): Formula => mkAtom('role', [{ kind: 'var', name: v, pos: rule.head.pos }], rule.head.pos));
  const body = binding.size > 0 ? rule.body.map((f) => substituteFormula(f, binding)) : rule.body;
  return { rule: { ...rule, body: [...roleAtoms, ...body] }, warnings };
}

/**
 * The errors of a rule after the repairs here. Unbound head variables are no error here: they
 * are bound over their dependency-graph domains after normalization (src/reach/repair.ts, which
 * warns, or refuses an infinite domain), and so are the negative literals and `distinct`s that
 * use them. A variable of a negative literal or a `distinct` that is not in the head stays an
 * error: a domain would change what Prolog-based players computed (`\+ q(X)`: no X at all).
 */
function errorsOf(rule: Rule, parts: readonly NormalRule[], file: string): Diagnostic[] {
  const messages = new Set<string>();
  const where = parts.length > 1 ? ' (in one disjunct of its body)' : '';
  const prefix = `unsafe rule for '${rule.head.rel}'`;
  for (const part of parts) {
    const u = unsafeVars(part);
    for (const [v, lit] of u.negative) if (!u.head.has(v)) messages.add(`${prefix}: variable ${v} of ${lit} is bound by no positive literal${where}`);
    for (const [v, lit] of u.distinctWith) if (!u.head.has(v)) messages.add(`${prefix}: variable ${v} of ${lit} is bound by no positive literal${where}`);
  }
  return [...messages].sort(compareCodePoints).map((m) => diag('error', file, rule.pos, m));
}

/**
 * Checks every rule for safety on its normal form (`split`; a rule whose DNF the normalizer
 * refuses is left to the normalizer's message); returns the repaired rules and all warnings and errors. */
export function checkSafety(rules: readonly Rule[], file: string, split: SplitRule): { rules: Rule[]; diagnostics: Diagnostic[] } {
  const out: Rule[] = [];
  const diagnostics: Diagnostic[] = [];
  // The game's names are gathered only when a fresh constant is needed (most games need none;
  // on a file of millions of facts the walk over every term was a large part of validation).
  let used: Set<string> | undefined;
  const usedNow = (): Set<string> => (used ??= usedNames(rules));
  const relations = relationNames(rules);
  for (const rule of rules) {
    // A ground fact binds nothing and needs nothing bound: safe as it stands.
    if (rule.body.length === 0 && rule.head.args.every(isGround)) {
      out.push(rule);
      continue;
    }
    let current = rule;
    let parts = split(rule);
    if (parts === null) {
      out.push(rule);
      continue;
    }
    // Repair 5 (project.ts): a negative literal over variables nothing binds reads "none at all".
    const projected = projectFreeNegations(rule, file, relations);
    if (projected !== null) {
      current = projected.rule;
      diagnostics.push(...projected.warnings);
      out.push(...projected.helpers);
      parts = split(current) ?? parts;
    }
    const fixed = repair(current, parts, file, usedNow);
    if (fixed !== null) {
      current = fixed.rule;
      diagnostics.push(...fixed.warnings);
      parts = split(current) ?? parts;
    }
    diagnostics.push(...errorsOf(current, parts, file));
    out.push(current);
  }
  return { rules: out, diagnostics };
}
