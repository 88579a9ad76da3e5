/**
 * A derived atom forbidden by a case whose rule body the case already holds (docs/mutex.md, 2a,
 * "Forbidden derived atoms"): shogi keeps a piece on its square by `(true (cell ?x ?y ...)) (not
 * (affected ?x ?y))`, and a move to that square makes `(affected ?x2 ?y2) <= (does ?role (move
 * ?x1 ?y1 ?x2 ?y2))` fire. The perfect model is a model of every rule: when every literal of some
 * instance of a rule of P holds, P holds there, so a case that requires those literals and forbids
 * that P atom has no solution. Unfolding (lifted-unfold.ts) only ever opens positive atoms; this
 * closes on negative ones, any derived relation with rules in the base (never `does`, whose
 * "rules" there are the `legal` ones: a legal move need not be made).
 */
import type { Atom } from '../gdl/ast.js';
import type { Literal, NormalRule } from '../normalize/types.js';
import type { StaticFacts } from './lifted-core.js';
import { literalWays } from './lifted-match.js';
import { type Subst, renameRule, unify } from './lifted-terms.js';

/** Most ways a rule's body is matched against one case before the match gives up (answers "not entailed"). */
const MAX_MATCHES = 64;

/** The tag of the rule's variables: no literal of a case carries it (cases rename with other tags). */
const TAG = 'entail';
const isRuleVar = (name: string): boolean => name.endsWith(`#${TAG}`);

/**
 * A test that closes a case (true) when some negative literal `(not P(t))` of its body has a rule
 * of P whose body the case entails with its head equal to P(t): positive literals matched by
 * positive literals of the case or by static facts, negative ones present in the case, `distinct`s
 * between two different ground terms or present in the case. Only the rule's variables are bound;
 * the case's are never assumed equal to anything.
 */
export function forbiddenDerived(rules: ReadonlyMap<string, readonly NormalRule[]>, facts: StaticFacts): (body: readonly Literal[], s: Subst) => boolean {
  const renamed = new Map<string, NormalRule[]>();
  for (const [rel, rs] of rules) if (rel !== 'does/2') renamed.set(rel, rs.map((r) => renameRule(r, TAG)));
  return (body, s) => body.some((l) => l.kind === 'neg' && (renamed.get(`${l.atom.rel}/${l.atom.args.length}`) ?? []).some((r) => entailed(r, l.atom, body, s, facts)));
}

/** Whether the rule, its head unified with `atom` (binding the rule's variables only), has a body the case entails. */
function entailed(rule: NormalRule, atom: Atom, body: readonly Literal[], s: Subst, facts: StaticFacts): boolean {
  const t: Subst = new Map(s);
  if (!rule.head.args.every((a, i) => unify(a, atom.args[i]!, t, isRuleVar))) return false;
  // Positive literals first: they bind the variables the others read.
  const lits = [...rule.body].sort((a, b) => Number(a.kind !== 'pos') - Number(b.kind !== 'pos'));
  const stack: { readonly i: number; readonly t: Subst }[] = [{ i: 0, t }];
  for (let n = 0; stack.length > 0 && n < MAX_MATCHES; n++) {
    const { i, t: u } = stack.pop()!;
    if (i === lits.length) return true;
    for (const way of literalWays(lits[i]!, body, u, isRuleVar, facts, true)) stack.push({ i: i + 1, t: way.s });
  }
  return false;
}
