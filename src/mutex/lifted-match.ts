/**
 * One literal of a rule (renamed apart) held against a case: a set of literals that hold together
 * under the case's bindings. Shared by the exactly-one tableau (lifted-alo.ts: a `next` or
 * `terminal` rule's body against a branch, literals it cannot settle left open for a split) and
 * the forbidden derived atoms (lifted-entail.ts: a rule's body the case must entail, nothing open).
 * Only the rule's variables (`bindable`) are bound; the case's are never assumed equal to anything.
 * `rowsOf` (lifted-fact-rows.ts) narrows a static relation's rows by an index; without it every
 * row is tried. Either way the rows that match, and their order, are the same.
 */
import type { Term } from '../gdl/ast.js';
import type { Literal } from '../normalize/types.js';
import type { StaticFacts } from './lifted-core.js';
import type { FactRows } from './lifted-fact-rows.js';
import { relOf } from './lifted-relax.js';
import { type Subst, atomKey, ground, hasRuleVar, key, unify, walk } from './lifted-terms.js';

/** One way a literal meets the case: the bindings, and whether it is left open (neither entailed nor refuted). */
interface LiteralWay {
  readonly s: Subst;
  readonly open: boolean;
}

/**
 * The ways the case (`lits` under `s`) meets one literal of the rule: a positive literal matched
 * by a static fact or a positive literal of the case (one way per match), a `distinct` between
 * two different ground terms or present in the case, a negative literal present in the case.
 * A literal the case neither entails nor contradicts is one open way, unless `coveredOnly`; a
 * literal that still holds a rule variable after the positive ones bound theirs has no way.
 */
export function literalWays(
  l: Literal, lits: readonly Literal[], s: Subst, bindable: (name: string) => boolean, facts: StaticFacts, coveredOnly: boolean, rowsOf?: FactRows,
): LiteralWay[] {
  const open = coveredOnly ? [] : [{ s, open: true }];
  if (l.kind === 'distinct') {
    if (hasRuleVar(l.left, s, bindable) || hasRuleVar(l.right, s, bindable)) return [];
    const [a, b] = [key(l.left, s), key(l.right, s)];
    if (a === b) return [];
    const known = (ground(l.left, s) && ground(l.right, s))
      || lits.some((m) => m.kind === 'distinct' && [key(m.left, s), key(m.right, s)].sort().join('\u0000') === [a, b].sort().join('\u0000'));
    return known ? [{ s, open: false }] : open;
  }
  if (l.kind === 'neg') {
    if (l.atom.args.some((a) => hasRuleVar(a, s, bindable))) return [];
    const k = atomKey(l.atom, s);
    if (lits.some((m) => m.kind === 'pos' && atomKey(m.atom, s) === k)) return [];
    return lits.some((m) => m.kind === 'neg' && atomKey(m.atom, s) === k) ? [{ s, open: false }] : open;
  }
  const ways: LiteralWay[] = [];
  // A static literal holds in every state when a fact matches it (binding only the rule's variables).
  // The literal's arguments as bound now: a constant there rules out, before any copy of `s`,
  // every row with another constant in that place (most of a large static relation's rows).
  const now = l.atom.args.map((a) => walk(a, s));
  const rel = relOf(l.atom);
  const rows = rowsOf?.(rel, now) ?? facts.get(rel) ?? [];
  const same = lits.flatMap((m) => (m.kind === 'pos' && m.atom.rel === l.atom.rel && m.atom.args.length === l.atom.args.length ? [m.atom.args] : []));
  for (const from of [rows, same]) {
    for (const args of from) {
      if (clashes(now, args)) continue;
      const t = new Map(s);
      if (l.atom.args.every((a, k) => unify(a, args[k]!, t, bindable))) ways.push({ s: t, open: false });
    }
  }
  // Unmatched: open, unless the case already says it is false (then there is no way).
  if (ways.length > 0 || l.atom.args.some((a) => hasRuleVar(a, s, bindable))) return ways;
  const k = atomKey(l.atom, s);
  return lits.some((m) => m.kind === 'neg' && atomKey(m.atom, s) === k) ? [] : open;
}

/** Whether some place holds a constant in `now` and another constant (or a compound) in `args`: they cannot unify. */
function clashes(now: readonly Term[], args: readonly Term[]): boolean {
  for (let k = 0; k < now.length; k++) {
    const a = now[k]!;
    const b = args[k]!;
    if (a.kind === 'const' && b.kind !== 'var' && (b.kind !== 'const' || b.name !== a.name)) return true;
  }
  return false;
}
