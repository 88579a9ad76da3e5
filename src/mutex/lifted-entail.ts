/**
 * A derived atom forbidden by a case whose rule body the case already holds (docs/mutex.md, 2a,
 * "Forbidden derived atoms"): shogi keeps a piece on its square by `(true (cell ?x ?y ...)) (not
 * (affected ?x ?y))`, and a move to that square makes `(affected ?x2 ?y2) <= (does ?role (move
 * ?x1 ?y1 ?x2 ?y2))` fire. The perfect model is a model of every rule: when every literal of some
 * instance of a rule of P holds, P holds there, so a case that requires those literals and forbids
 * that P atom has no solution. Unfolding (lifted-unfold.ts) only ever opens positive atoms; this
 * closes on negative ones, any derived relation with rules in the base (never `does`, whose
 * "rules" there are the `legal` ones: a legal move need not be made). With a depth (2l, the
 * fallback of lifted-moves.ts) a positive derived literal of the rule's body is also entailed when
 * one of its own rules' bodies is, down to that many levels (crissrace's `crissfin` <=
 * `crissfinished` <= `crissgoal`).
 */
import type { Term } from '../gdl/ast.js';
import type { Literal, NormalRule } from '../normalize/types.js';
import type { Refute, StaticFacts } from './lifted-core.js';
import { literalWays } from './lifted-match.js';
import { relOf } from './lifted-relax.js';
import { type Subst, renameRule, unify } from './lifted-terms.js';

/** How far the test looks below a forbidden atom, and the bounds that make it answer "not entailed". */
interface EntailBound {
  /** Levels of rules below the forbidden atom's own through which a positive derived literal may be entailed (0: the case's literals only). */
  readonly depth: number;
  /** Literal matches tried before the test gives up. */
  readonly matches: number;
  /** Whether {@link matches} counts afresh for each rule of the forbidden atom (else once for all of them, nested levels included). */
  readonly perRule: boolean;
  /** Ways a nested atom is entailed that are carried up (each one assignment of the variables above). */
  readonly ways: number;
}

/** 2a's test: the case's own literals, 64 matches per rule of the forbidden atom. */
const CASE_ONLY: EntailBound = { depth: 0, matches: 64, perRule: true, ways: 0 };

/** 2l's test: three levels of rules, 8 ways per nested atom, 513 matches per forbidden atom (the "at most 512 steps" counted from 0, as first written). */
export const THROUGH_RULES: EntailBound = { depth: 3, matches: 513, perRule: false, ways: 8 };

/** The tag of the rules' variables: no literal of a case carries it (cases rename with other tags). */
const TAG = 'entail';
const isRuleVar = (name: string): boolean => name.endsWith(`#${TAG}`);

interface Search {
  readonly rules: ReadonlyMap<string, readonly NormalRule[]>;
  readonly facts: StaticFacts;
  readonly bound: EntailBound;
  /** Matches tried so far, and the count that renames each nested rule apart. */
  steps: number;
  tag: number;
}

/**
 * A test that closes a case (true) when some negative literal `(not P(t))` of its body has a rule
 * of P whose body the case entails with its head equal to P(t): positive literals matched by
 * positive literals of the case or by static facts (or, below, by a rule of their own whose body
 * the case entails), negative ones present in the case, `distinct`s between two different ground
 * terms or present in the case. Only the rules' variables are bound; the case's are never assumed
 * equal to anything.
 */
export function forbiddenDerived(rules: ReadonlyMap<string, readonly NormalRule[]>, facts: StaticFacts, bound: EntailBound = CASE_ONLY): Refute {
  const own = new Map([...rules].filter(([rel]) => rel !== 'does/2'));
  const renamed = new Map([...own].map(([rel, rs]) => [rel, rs.map((r) => renameRule(r, TAG))]));
  return (body, s) => body.some((l) => {
    if (l.kind !== 'neg') return false;
    const search: Search = { rules: own, facts, bound, steps: 0, tag: 0 };
    // One way is enough at the top: the verdict is whether there is any.
    return (renamed.get(relOf(l.atom)) ?? []).some((r) => {
      if (bound.perRule) search.steps = 0;
      return search.steps < bound.matches && ruleWays(r, l.atom, body, s, 0, 1, search).length > 0;
    });
  });
}

/** The assignments (at most `limit`) under which the rule, its head unified with `atom`, has a body the case entails. */
function ruleWays(r: NormalRule, atom: { readonly args: readonly Term[] }, body: readonly Literal[], s: Subst, depth: number, limit: number, search: Search): Subst[] {
  const t: Subst = new Map(s);
  if (!r.head.args.every((a, i) => unify(a, atom.args[i]!, t, isRuleVar))) return [];
  // Positive literals first: they bind the variables the others read.
  const lits = [...r.body].sort((a, b) => Number(a.kind !== 'pos') - Number(b.kind !== 'pos'));
  return bodyWays(lits, body, t, depth, limit, search);
}

/** The assignments (at most the bound's ways) under which some rule of a nested atom's relation has a body the case entails. */
function atomWays(atom: { readonly rel: string; readonly args: readonly Term[] }, body: readonly Literal[], s: Subst, depth: number, search: Search): Subst[] {
  const out: Subst[] = [];
  for (const rule of search.rules.get(relOf(atom)) ?? []) {
    if (out.length >= search.bound.ways || search.steps >= search.bound.matches) break;
    out.push(...ruleWays(renameRule(rule, `${depth}_${search.tag++}#${TAG}`), atom, body, s, depth, search.bound.ways, search));
  }
  return out.slice(0, search.bound.ways);
}

/** The assignments (at most `limit`) under which the case entails every literal of `lits`, depth first. */
function bodyWays(lits: readonly Literal[], body: readonly Literal[], t: Subst, depth: number, limit: number, search: Search): Subst[] {
  const out: Subst[] = [];
  const stack: { readonly i: number; readonly t: Subst }[] = [{ i: 0, t }];
  while (stack.length > 0 && out.length < limit && search.steps++ < search.bound.matches) {
    const { i, t: u } = stack.pop()!;
    if (i === lits.length) {
      out.push(u);
      continue;
    }
    const l = lits[i]!;
    for (const way of literalWays(l, body, u, isRuleVar, search.facts, true)) stack.push({ i: i + 1, t: way.s });
    if (l.kind === 'pos' && depth < search.bound.depth && search.rules.has(relOf(l.atom))) {
      for (const w of atomWays(l.atom, body, u, depth + 1, search)) stack.push({ i: i + 1, t: w });
    }
  }
  return out;
}
