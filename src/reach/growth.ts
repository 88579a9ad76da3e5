/**
 * Refusing a relaxed model early (issue 33): a relation whose model is on its way past the atom
 * budget is stopped once it holds an eighth of the budget, with an **estimate** of its final
 * size, instead of being derived up to the budget (mummymaze1p's static `direction-from` took
 * 4-18 s to reach 2,000,000 atoms; urmAdd's `true` most of its minute on a loaded machine).
 *
 * The estimate, per table t of the relation (a split relation, `true`, `next`, `legal`, `does`,
 * has one per functor of its fluent or move, so `(line ?n ?instr)` counts line numbers times
 * instructions, not fluents times roles):
 *
 *   seen(t)   = Π over t's argument positions of the number of distinct values found there
 *   domain(t) = Π over t's argument positions of the size of the position's domain in the
 *               argument dependency graph of the game's rules (Definition 9.3, docs/dg.md:
 *               every value that can flow there, statics not evaluated, so cheap)
 *   E         = (count / Σ seen(t)) × Σ domain(t)
 *
 * i.e. the relation fills its domains as densely as it fills the combinations of the values seen
 * so far (urmAdd's `line`: every instruction at every line number reached, density 1, over 52
 * line numbers: 7×10⁶). For a relation of a non-recursive component whose query is running, E
 * is instead its facts plus the query's plan estimate of join states, at most Σ domain(t): the
 * order of a query's answers says little about its density (mummymaze1p's `direction-from`:
 * 1.2×10⁷, against 6.5×10⁶ exactly). E is an estimate, not a bound either way
 * (a density can fall as values come), which is why a refusal asks for both evidence of size (an
 * eighth of the budget found) and an estimate of twice the budget. The error is the atom
 * budget's (`kind: 'atoms'`), so what follows an atom-budget stop follows this one too: the
 * refined run (src/reach/demand.ts), lazy axioms (docs/lazy.md).
 */
import type { Relation } from '../datalog/relation.js';
import { deadlineTicker } from '../gdl/diagnostics.js';
import { splitPosition } from './clauses.js';
import { domainSizesOf } from './domain-sizes.js';
import type { DomainSizes, Run } from './run.js';
import type { RelationKey } from './relaxed.js';
import { foreseen } from './foresight.js';

/** A relation is looked at once it holds this share of the atom budget (and again at each 1.5 times that). */
const EVIDENCE_SHARE = 8;

/** ... and at least this many facts: below, densities and plans say too little (and small budgets are tests'). */
const MIN_EVIDENCE = 10_000;

/** The estimate must pass the budget this many times over for a refusal. */
const MARGIN = 2;

/** Growth of the count between two looks at one relation (each look reads all its facts once). */
const STEP = 1.5;

/** What the look at a relation found: its facts and the estimate of its final size. */
export interface GrowthEstimate {
  readonly count: number;
  readonly estimate: number;
  /** How the estimate was made, for the message. */
  readonly how: string;
  /** Foresight's (src/reach/foresight.ts): the relation to blame, another than the one growing, and the whole message. */
  readonly foreseen?: { readonly relation: RelationKey; readonly message: string };
}

/**
 * Relation `key` (with `count` facts) looked at when it has grown enough since the last look:
 * its estimate when that passes the budget `MARGIN` times; else, in grounding's runs, what
 * foresight finds (src/reach/foresight.ts: a relation not derived yet); else undefined.
 */
export function pastBudget(run: Run, key: string, count: number): GrowthEstimate | undefined {
  const own = ownGrowth(run, key, count);
  if (own !== undefined) return own;
  const f = foreseen(run, key, domainSizes);
  if (f === undefined || run.limits.deadline.passed()) return undefined;
  return { count: 0, estimate: f.estimate, how: '', foreseen: { relation: f.relation, message: f.message } };
}

/** The look of growth.ts at relation `key` itself (see the module's comment). */
function ownGrowth(run: Run, key: string, count: number): GrowthEstimate | undefined {
  const budget = run.limits.maxAtoms;
  if (count < budget / EVIDENCE_SHARE || count < MIN_EVIDENCE) return undefined;
  const r = run.store.relations.get(key)!;
  if (count < r.lookAt) return undefined;
  r.lookAt = count * STEP;
  const found = sizes(run, r.rel, r.arity, r.ids);
  // Stopped by the clock: the caller's next check words the stop as the stage's own.
  if (found === undefined) return undefined;
  const { seen, domain } = found;
  let estimate = seen > 0 && domain > 0 && Number.isFinite(domain) ? (count / seen) * domain : count;
  let how = `its density over the values found so far (${formatDensity(count / seen)}) times the product of its arguments' domains`;
  if (queryCaps(run, key)) {
    // What is left of a non-recursive relation is what its running query makes: its plan's
    // estimate, within the domains.
    estimate = Math.min(count + run.estimate, Number.isFinite(domain) && domain > 0 ? domain : Infinity);
    how = `its running query's plan (rule at line ${run.at!.line}), within the product of its arguments' domains`;
  }
  return estimate > MARGIN * budget && !run.limits.deadline.passed() ? { count, estimate, how } : undefined;
}

function formatDensity(d: number): string {
  return d >= 0.01 ? d.toFixed(2) : d.toExponential(1);
}

/**
 * True when the running query derives relation `key` in a component that is not recursive:
 * then the query's plan estimate covers what is left of the relation.
 */
function queryCaps(run: Run, key: string): boolean {
  if (run.at === undefined) return false;
  const comp = run.plan.components.find((c) => c.relations.includes(key));
  return comp !== undefined && !comp.recursive;
}

/** Σ seen(t) and Σ domain(t) over the tables of a relation (see the module's comment); undefined once the deadline has passed. */
function sizes(run: Run, rel: string, arity: number, facts: Relation): { seen: number; domain: number } | undefined {
  const split = splitPosition(rel, arity);
  const terms = run.store.terms;
  // Per table (functor of the split argument): the distinct term ids at each position.
  const tables = new Map<string, Set<number>[]>();
  for (let row = 0; row < facts.size; row++) {
    if (run.limits.deadline.tick()) return undefined;
    const at = split === undefined ? -1 : facts.get(row, split);
    const name = at < 0 ? '' : `${terms.name(at)}/${terms.arity(at)}`;
    let sets = tables.get(name);
    if (sets === undefined) tables.set(name, (sets = Array.from({ length: arity - (at < 0 ? 0 : 1) + (at < 0 ? 0 : terms.arity(at)) }, () => new Set<number>())));
    // The split argument's own arguments come after the others, as in its table.
    let k = 0;
    for (let i = 0; i < arity; i++) if (i !== split) sets[k++]!.add(facts.get(row, i));
    for (let j = 0; at >= 0 && j < terms.arity(at); j++) sets[k++]!.add(terms.arg(at, j));
  }
  const dom = domainSizes(run);
  let seen = 0;
  let domain = 0;
  for (const [name, sets] of tables) {
    seen += sets.reduce((p, s) => p * s.size, 1);
    domain += split === undefined ? dom.relation(rel, arity) : splitDomain(dom, rel, arity, split, name);
  }
  return { seen, domain };
}

/** domain(t) of the table of a split relation's functor `name` (`cell/3`): its other arguments' domains times the functor's. */
function splitDomain(dom: DomainSizes, rel: string, arity: number, split: number, name: string): number {
  const slash = name.lastIndexOf('/');
  const others = arity === 1 ? 1 : dom.position(rel, arity, 1 - split);
  return others * dom.functor(name.slice(0, slash), Number(name.slice(slash + 1)));
}

/** The domain sizes of the game's dependency graph, made at the first look and kept on the run. */
function domainSizes(run: Run): DomainSizes {
  if (run.domains !== undefined) return run.domains;
  run.domains = domainSizesOf(run.game.rules, deadlineTicker(run.limits.deadline, run.game.file, 'estimating a relation\'s size'));
  return run.domains;
}
