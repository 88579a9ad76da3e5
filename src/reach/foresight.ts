/**
 * Foresight (issue 33): the relations of the relaxed game that are still to be derived, judged
 * before their instances are, so that a run that is on its way past the atom budget names the
 * relation to blame in its first rounds. The estimate of src/reach/growth.ts needs evidence,
 * an eighth of the budget in one relation, and in some games the relation that explodes only
 * starts growing after most of the run (chess's `queen_threatens` after 9 of the 12-16 s of its
 * refusal; the held-out 2006 chess scramblings' 7-argument relation after 19 of their 20 s), or
 * never holds an eighth of the budget at all (ruleDepthExponential's chain `prereq1`..`prereq20`:
 * each level doubles, one level per round, 2^21 atoms in all, past the budget only together).
 *
 * Looked at only in the superset stage of grounding (`ReachLimits.foresight`), once the
 * state-dependent relations (those of components that read `true` or `does`: what the
 * relaxation over-approximates) hold a share of the budget, again at each 1.5 times the atoms:
 *
 * 1. **A dense chain.** ρ = Σ count / Σ domain over the state-dependent relations that have
 *    instances (not keywords; the relation receiving facts now left out, it is half done), where
 *    domain is the product of its arguments' dependency-graph domains (Definition 9.3, as in
 *    growth.ts). When ρ ≥ 0.9 the relations derived so far fill their domains, so a domain is
 *    not an upper bound far from the model but what those relations did; the rest of the run is
 *    then estimated at ρ × domain − count for each relation of the component being evaluated and
 *    of the later state-dependent components whose domain fits the budget (a single larger one
 *    is rule 2's), and when the atoms found plus those pass the budget (ρ measured on at least
 *    10,000 atoms), the run stops, naming the relation (smallest remainder first) whose remainder takes
 *    the sum past it: ruleDepthExponential's `prereq20` after its 17th level.
 * 2. **A relation far larger than the budget, not derived yet.** Once the state-dependent
 *    relations hold an eighth of the budget, a relation of the component being evaluated or a
 *    later one whose domain is 16 times the budget, which holds less than the eighth of the
 *    budget growth.ts waits for, and which may be lazy (the caller's filter: the lazy plan's own
 *    refusals, docs/lazy.md; a relation that feeds the moves must stay ground), is named, the
 *    largest domain first, ties by name: chess's `queen_threatens` (3.4×10⁷; `rook_threatens`
 *    ties with it) in round 2. The domain is an upper bound, not a measured size: this rule
 *    bets on the size of the domain, and only in a run that is already large. In the corpus it
 *    fires in chess and slaughter alone (docs/hard-games.md).
 *
 * The error is the atom budget's, like growth.ts's, so what follows it follows: the refined run
 * (src/reach/demand.ts), the lazy rounds (the relation named is made lazy).
 */
import { KEYWORDS } from '../gdl/ast.js';
import { formatEstimate } from '../gdl/diagnostics.js';
import type { RelationKey } from './relaxed.js';
import { relevantComponents } from './relaxed.js';
import type { DomainSizes, Run } from './run.js';

/** The look happens once the state-dependent relations hold this share of the budget (rule 1) ... */
const CHAIN_SHARE = 16;

/** ... or this share (rule 2), */
const LARGE_SHARE = 8;

/** ... and at least this many atoms. */
const MIN_ATOMS = 10_000;

/** Growth of the store between two looks. */
const STEP = 1.5;

/** ρ at least this for rule 1. */
const DENSE = 0.9;

/** Rule 2's domain, in budgets. */
const LARGE = 16;

/** What foresight found: the relation to blame, the estimate, and the message's words. */
interface Foreseen {
  readonly relation: RelationKey;
  readonly estimate: number;
  readonly message: string;
}

/** One relation still being derived, with its facts and its domain. */
interface Pending {
  readonly key: string;
  readonly relation: RelationKey;
  readonly count: number;
  readonly domain: number;
}

/**
 * The look of foresight while relation `key` receives a fact (see the module's comment): the
 * relation to blame, or undefined. Cheap unless the store has grown by {@link STEP} since the
 * last look.
 */
export function foreseen(run: Run, key: string, domains: (run: Run) => DomainSizes): Foreseen | undefined {
  const mayBeLazy = run.limits.foresight?.mayBeLazy;
  const budget = run.limits.maxAtoms;
  if (mayBeLazy === undefined || run.store.size < (run.foresightAt ?? Math.max(MIN_ATOMS, budget / CHAIN_SHARE))) return undefined;
  run.foresightAt = run.store.size * STEP;
  const { dynamic, pending, density, found } = survey(run, key, domains(run));
  if (dynamic < Math.max(MIN_ATOMS, budget / CHAIN_SHARE)) return undefined;
  if (density >= DENSE && found >= MIN_ATOMS) {
    const chain = denseChain(run, pending, density);
    if (chain !== undefined) return chain;
  }
  if (dynamic < budget / LARGE_SHARE) return undefined;
  return largeRelation(run, pending, dynamic, (r) => mayBeLazy(r.rel, r.arity));
}

/** Rule 1: the remainders of the pending relations at density ρ, smallest first, summed onto the atoms found. */
function denseChain(run: Run, pending: readonly Pending[], density: number): Foreseen | undefined {
  const budget = run.limits.maxAtoms;
  // Only relations that fit the budget alone: one far larger is rule 2's (a single domain says little).
  const rest = pending.filter((p) => p.domain <= budget).map((p) => ({ p, more: Math.max(0, density * p.domain - p.count) })).filter((x) => x.more > 0);
  rest.sort((a, b) => a.more - b.more || (a.p.key < b.p.key ? -1 : 1));
  let total = run.store.size;
  for (const { p, more } of rest) {
    total += more;
    if (total <= budget) continue;
    const message =
      `would take the superset stage past its budget of ${budget} ground atoms: about ${formatEstimate(total)} in all (an estimate after ${run.rounds} rounds, ` +
      `${run.store.size} atoms found: the state-dependent relations derived so far fill ${percent(density)} of their arguments' domains, and at that density ` +
      `the relations still being derived add the rest; this one's domain holds ${formatEstimate(p.domain)} combinations, ${p.count} found) (while evaluating '${run.current.rel}')`;
    return { relation: p.relation, estimate: total, message };
  }
  return undefined;
}

/** Rule 2: the pending relation with the largest domain, far past the budget, that may be lazy. */
function largeRelation(run: Run, pending: readonly Pending[], dynamic: number, mayBeLazy: (r: RelationKey) => boolean): Foreseen | undefined {
  const budget = run.limits.maxAtoms;
  const large = pending.filter((p) => p.domain >= LARGE * budget && p.count < budget / 8);
  large.sort((a, b) => b.domain - a.domain || (a.key < b.key ? -1 : 1));
  const p = large.find((x) => mayBeLazy(x.relation));
  if (p === undefined) return undefined;
  const message =
    `could grow to about ${formatEstimate(p.domain)} instances (an estimate after ${run.rounds} rounds, with ${p.count} of its instances found: the product of its arguments' domains, ` +
    `named before it grows since the state-dependent relations already hold ${dynamic} atoms), more than the budget of ${budget} ground atoms in all (while evaluating '${run.current.rel}')`;
  return { relation: p.relation, estimate: p.domain, message };
}

function percent(x: number): string {
  return `${Math.round(Math.min(1, x) * 100)}%`;
}

/**
 * The atoms of state-dependent relations, the relations still being derived (of the component
 * of `key` and the later relevant state-dependent ones, keywords left out), and ρ.
 */
function survey(run: Run, key: string, dom: DomainSizes): { dynamic: number; pending: Pending[]; density: number; found: number } {
  const comps = run.plan.components;
  const relevant = relevantComponents(comps);
  const at = comps.findIndex((c) => c.relations.includes(key));
  let dynamic = 0;
  let found = 0;
  let filled = 0;
  const pending: Pending[] = [];
  comps.forEach((c, i) => {
    if (!c.stateDependent || !relevant.has(i)) return;
    for (const k of c.relations) {
      if (run.plan.auxiliary.has(k)) continue;
      const count = run.store.relations.get(k)?.ids.size ?? 0;
      dynamic += count;
      const relation = run.plan.relations.get(k)!;
      if (KEYWORDS.has(relation.rel)) continue;
      const domain = dom.relation(relation.rel, relation.arity);
      if (!Number.isFinite(domain) || domain <= 0) continue;
      if (count > 0 && k !== key) (found += count, (filled += domain));
      if (i >= at) pending.push({ key: k, relation, count, domain });
    }
  });
  return { dynamic, pending, density: filled > 0 ? found / filled : 0, found };
}
