/**
 * Redundant rules of the relaxed game. Dropping negative literals often leaves one rule of a
 * relation a specialisation of another: alexChess's
 *
 *   legal2(T, X0, Y0, X1, Y1) <= legal1(P, T, X0, Y0, X1, Y1, D), distinct(T, king)   (not anyCheck)
 *   legal2(T, X0, Y0, X1, Y1) <= legal1(P, T, X0, Y0, X1, Y1, D), distinct(T, king),
 *                                check(Q, K, D2), true(piece(Q, X1, Y1))              (not doubleCheck)
 *
 * A rule C θ-subsumes a rule D when some substitution θ of C's variables makes C's head D's
 * head and every literal of C's body a literal of D's body. Every instance of D's body then
 * holds an instance of C's body with the same head, so D derives nothing C does not, and the
 * least model, which is all the superset stage computes, is the same without D. Dropping D
 * saves its joins and, when D was the only reader of a relation (alexChess's `pinned` and
 * `between`, 861,775 relaxed instances), that relation's whole evaluation.
 *
 * The test is NP-hard in general; each pair gets a bounded search ({@link MAX_STEPS}), and a
 * relation with more than {@link MAX_RULES} rules is left alone (ground games have thousands
 * of rules a head, and pairs would cost more than they save).
 */
import type { Atom, Term } from '../gdl/ast.js';
import { atomToString, isGround, matchTerm } from '../gdl/terms.js';
import { rulesByHead } from '../gdl/relations.js';
import { type RelaxedLiteral, type RelaxedRule, keyOf } from './relaxed-rule.js';

/** Rules a relation may have for the pairwise test. */
const MAX_RULES = 200;

/** Match attempts one pair may take before it counts as not subsumed. */
const MAX_STEPS = 2000;

/** Match attempts all pairs of a game may take; past it, the remaining rules are all kept. */
const MAX_TOTAL_STEPS = 200_000;

/**
 * `rules` without those another rule of the same relation subsumes, in their order. Of rules
 * that subsume each other (equal up to renaming), the first is kept.
 */
export function dropSubsumed(rules: readonly RelaxedRule[]): RelaxedRule[] {
  const byHead = rulesByHead(rules, keyOf);
  const dropped = new Set<RelaxedRule>();
  // A budget of match attempts for the whole game, so that no input makes this slow (counted,
  // not timed: the result must not depend on the machine).
  const budget = { left: MAX_TOTAL_STEPS };
  for (const group of byHead.values()) {
    if (group.length < 2 || group.length > MAX_RULES) continue;
    const sigs = group.map(signature);
    const heads = group.map(groundHead);
    group.forEach((d, j) => {
      for (let i = 0; i < group.length; i++) {
        if (i === j || dropped.has(group[i]!)) continue;
        if (!sigs[i]!.every((k) => sigs[j]!.includes(k))) continue;
        // Mutual subsumption: only the later rule goes.
        if (budget.left <= 0) return;
        // Two different ground heads: subsumes would fail at the heads, before spending a step.
        if (heads[i] !== undefined && heads[j] !== undefined && heads[i] !== heads[j]) continue;
        if (subsumes(group[i]!, d, budget) && (i < j || !subsumes(d, group[i]!, budget))) {
          dropped.add(d);
          break;
        }
      }
    });
  }
  return dropped.size === 0 ? [...rules] : rules.filter((r) => !dropped.has(r));
}

/**
 * The head's text when it is ground, else undefined: a relation of facts (FRED's 101 `sumbas`
 * facts, 10,100 pairs) is told apart by text instead of a match per pair, which took 25 ms
 * of each of FRED's relaxed plans.
 */
function groundHead(r: RelaxedRule): string | undefined {
  return r.head.args.every(isGround) ? atomToString(r.head) : undefined;
}

/** The body's relation keys (`distinct` for a distinct), for a cheap necessary condition. */
function signature(r: RelaxedRule): string[] {
  return [...new Set(r.body.map((l) => (l.kind === 'distinct' ? 'distinct' : keyOf(l.atom))))];
}

/** A binding of C's variables to terms of D (whose variables count as constants). */
type Theta = Map<string, Term>;

/** One way to match a literal of C: the pairs of terms to unify. */
type Pairs = readonly (readonly [Term, Term])[];

/**
 * True when `c` θ-subsumes `d` (found within {@link MAX_STEPS} attempts, and within what is
 * left of `budget`, which it spends).
 */
export function subsumes(c: RelaxedRule, d: RelaxedRule, budget = { left: MAX_STEPS }): boolean {
  const start: Theta = new Map();
  if (!matchAll(atomPairs(c.head, d.head), start)) return false;
  // Depth-first over C's literals: each stack entry is the binding before literal `at` and
  // the options still to try for it.
  const options = (lit: RelaxedLiteral): Pairs[] => d.body.flatMap((t) => literalPairs(lit, t));
  const stack: { at: number; theta: Theta; left: Pairs[] }[] = [{ at: 0, theta: start, left: c.body.length > 0 ? options(c.body[0]!) : [] }];
  if (c.body.length === 0) return true;
  let steps = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const next = top.left.pop();
    if (next === undefined) {
      stack.pop();
      continue;
    }
    budget.left--;
    if (++steps > MAX_STEPS || budget.left < 0) return false;
    const theta = new Map(top.theta);
    if (!matchAll(next, theta)) continue;
    if (top.at + 1 === c.body.length) return true;
    stack.push({ at: top.at + 1, theta, left: options(c.body[top.at + 1]!) });
  }
  return false;
}

/** The ways literal `c` of C may map onto literal `d` of D (a distinct either way round). */
function literalPairs(c: RelaxedLiteral, d: RelaxedLiteral): Pairs[] {
  if (c.kind === 'distinct' || d.kind === 'distinct') {
    if (c.kind !== 'distinct' || d.kind !== 'distinct') return [];
    return [[[c.left, d.left], [c.right, d.right]], [[c.left, d.right], [c.right, d.left]]];
  }
  if (c.atom.rel !== d.atom.rel || c.atom.args.length !== d.atom.args.length) return [];
  return [atomPairs(c.atom, d.atom)];
}

/** Argument pairs of two atoms of the same relation. */
function atomPairs(c: Atom, d: Atom): Pairs {
  return c.args.map((a, i) => [a, d.args[i]!] as const);
}

/** Extends `theta` so that every pattern of `pairs` becomes its target; false if it cannot. */
function matchAll(pairs: Pairs, theta: Theta): boolean {
  return pairs.every(([p, t]) => matchTerm(p, t, theta));
}
