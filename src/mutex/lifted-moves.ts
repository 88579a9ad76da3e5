/**
 * Every role moves, and a forbidden derived atom entailed through a chain of rules (docs/mutex.md,
 * section 2l). crissrace keeps `(first ?player)` by a frame rule and sets `(first red)` when red's
 * stones are all home, each rule guarded by `(not reseted)`, `(<= reseted (does ?player reset))`.
 * Both fire, with different fluents, only in a state holding `(first teal)` in which red's stones
 * are home; there the game is over, `crissfin` holds, every move but `reset` needs `(not
 * crissfin)`, so some role resets, and `(not reseted)` is false. The pair's bodies hold no `does`
 * atom, so 2a never read a move: here a pair left open whose bodies forbid a derived atom that a
 * rule derives from a move is checked once more with a move `(does R ?m)` of every role added
 * (each role makes one move, legal in the state: the `legal` cases and unfolding of 2a read it),
 * and with forbidden atoms entailed through rules of derived relations below the first
 * (`crissfin` <= `crissfinished` <= `crissgoal`), not only by the case's own literals.
 */
import { NO_POS, type Term } from '../gdl/ast.js';
import type { Literal, NormalGame, NormalRule } from '../normalize/types.js';
import type { Refute, StaticFacts } from './lifted-core.js';
import { literalWays } from './lifted-match.js';
import { relKey } from './lifted-relax.js';
import { type Subst, renameRule, unify, walk } from './lifted-terms.js';

const relOf = (l: { readonly rel: string; readonly args: readonly unknown[] }): string => relKey(l.rel, l.args.length);

/** The relations (`name/arity`) some rule of which reads `does` positively: what a move makes true. */
function moveRelations(normal: NormalGame): Set<string> {
  return new Set(normal.rules.flatMap((r) => (r.head.rel !== 'legal' && r.body.some((l) => l.kind === 'pos' && l.atom.rel === 'does') ? [relOf(r.head)] : [])));
}

/**
 * A function giving, for a body that forbids an atom of a relation a move makes true, the body with
 * `(does R ?fresh)` added for every role R with no `does` of its own there (undefined otherwise:
 * the pair is not a move's guard, and is not checked again).
 */
export function everyRoleMoves(normal: NormalGame, roles: readonly Term[], counter: { tag: number }): (body: readonly Literal[], s: Subst) => Literal[] | undefined {
  const guarded = moveRelations(normal);
  return (body, s) => {
    if (!body.some((l) => l.kind === 'neg' && guarded.has(relOf(l.atom)))) return undefined;
    const moving = new Set(body.flatMap((l) => {
      const r = l.kind === 'pos' && l.atom.rel === 'does' && l.atom.args.length === 2 ? walk(l.atom.args[0]!, s) : undefined;
      return r?.kind === 'const' ? [r.name] : [];
    }));
    const added = roles.filter((r) => r.kind === 'const' && !moving.has(r.name)).map((r): Literal => ({
      kind: 'pos', atom: { kind: 'atom', rel: 'does', args: [r, { kind: 'var', name: `_M${counter.tag++}`, pos: NO_POS }], pos: NO_POS },
    }));
    return added.length === 0 ? undefined : [...body, ...added];
  };
}

/** Levels of rules below a forbidden atom's own a positive derived literal may be entailed through. */
const MAX_DEPTH = 3;
/** Literal matches tried per forbidden atom before it counts as not entailed. */
const MAX_STEPS = 512;
/** Ways a nested atom is entailed that are carried up (each one assignment of the variables above). */
const MAX_WAYS = 8;

const isRuleVar = (name: string): boolean => name.includes('#deep');

/**
 * lifted-entail.ts' test with chains: a case closes when some `(not P(t))` of it has a rule of P
 * whose body the case entails, a positive literal of a derived relation of `rules` (non-recursive,
 * not `does`) being entailed also when one of its own rules' bodies is, down to {@link MAX_DEPTH}
 * levels. Only the rules' variables are bound, never the case's.
 */
export function forbiddenThroughRules(rules: ReadonlyMap<string, readonly NormalRule[]>, facts: StaticFacts): Refute {
  const own = new Map([...rules].filter(([rel]) => rel !== 'does/2'));
  return (body, s) => body.some((l) => {
    if (l.kind !== 'neg' || !own.has(relOf(l.atom))) return false;
    const budget = { steps: 0, tag: 0 };
    return atomWays(l.atom, body, s, 0, own, facts, budget).length > 0;
  });
}

interface Budget {
  steps: number;
  tag: number;
}

/** The assignments (at most {@link MAX_WAYS}) under which some rule of the atom's relation has a body the case entails. */
function atomWays(
  atom: { readonly rel: string; readonly args: readonly Term[] }, body: readonly Literal[], s: Subst, depth: number,
  rules: ReadonlyMap<string, readonly NormalRule[]>, facts: StaticFacts, budget: Budget,
): Subst[] {
  const out: Subst[] = [];
  for (const rule of rules.get(relOf(atom)) ?? []) {
    if (out.length >= MAX_WAYS || budget.steps > MAX_STEPS) break;
    const r = renameRule(rule, `deep${depth}_${budget.tag++}`);
    const t: Subst = new Map(s);
    if (!r.head.args.every((a, i) => unify(a, atom.args[i]!, t, isRuleVar))) continue;
    // Positive literals first: they bind the variables the others read.
    const lits = [...r.body].sort((a, b) => Number(a.kind !== 'pos') - Number(b.kind !== 'pos'));
    out.push(...bodyWays(lits, body, t, depth, rules, facts, budget));
  }
  return out.slice(0, MAX_WAYS);
}

/** The assignments under which the case entails every literal of `lits`, depth first. */
function bodyWays(
  lits: readonly Literal[], body: readonly Literal[], t: Subst, depth: number,
  rules: ReadonlyMap<string, readonly NormalRule[]>, facts: StaticFacts, budget: Budget,
): Subst[] {
  const out: Subst[] = [];
  const stack: { readonly i: number; readonly t: Subst }[] = [{ i: 0, t }];
  while (stack.length > 0 && out.length < MAX_WAYS && budget.steps++ <= MAX_STEPS) {
    const { i, t: u } = stack.pop()!;
    if (i === lits.length) {
      out.push(u);
      continue;
    }
    const l = lits[i]!;
    for (const way of literalWays(l, body, u, isRuleVar, facts, true)) stack.push({ i: i + 1, t: way.s });
    if (l.kind === 'pos' && depth < MAX_DEPTH && rules.has(relOf(l.atom))) {
      for (const w of atomWays(l.atom, body, u, depth + 1, rules, facts, budget)) stack.push({ i: i + 1, t: w });
    }
  }
  return out;
}
