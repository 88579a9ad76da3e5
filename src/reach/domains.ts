/**
 * Join sizes by containment for the clause planner (plan.ts): a variable bound by an earlier
 * literal ranges over that literal's distinct values at its argument (its *domain*), and a later
 * literal holding the variable at an argument with fewer distinct values answers only for the
 * share of the domain its own values cover. The rows per binding are then
 *
 *   |S| / max(distinct_S(a), domain(a))     instead of     |S| / distinct_S(a)
 *
 * (the textbook estimate of an equi-join's size, |R ⋈ S| = |R| |S| / max(V(R, a), V(S, a))).
 * kalaha_2009's sowing rule, `next(pit P N2) <= true(pit P N), plus(N, N1, N2), l5(N1, P)`
 * with the pit's fact new: `l5` holds the two store pits of the twelve, so ten new pit facts
 * in twelve find nothing there, where `plus(N, _, _)` gives every count up to 201 - N. Read
 * per value of `P` over `l5`'s own two, `l5` looked five times as large as `plus`, and each
 * new pit fact enumerated its `plus` facts to probe `l5` with each.
 */
import type { LiteralShape, RowEstimate } from './planned.js';

/**
 * Where each bound variable's domain comes from: the literals (and argument positions) that
 * hold it as a whole argument, by name. Their distinct values are read only when a later
 * literal's rows ask for them (planning runs often; most variables are never asked about).
 */
export type Domains = Map<string, { readonly l: LiteralShape; readonly at: number }[]>;

/** Records literal `l` as a source of the domains of its variables that are whole arguments of its own table. */
export function noteDomains(domains: Domains, l: LiteralShape): void {
  const read = l.read;
  if (read === undefined || read.table === undefined) return;
  read.args.forEach((a, at) => {
    if (a.kind !== 'var') return;
    const sources = domains.get(a.name);
    if (sources === undefined) domains.set(a.name, [{ l, at }]);
    else sources.push({ l, at });
  });
}

/** Distinct values at argument `at` of `l`'s table: its rows over its rows with that argument bound; undefined for an empty table. */
function distinctAt(l: LiteralShape, at: number, estimate: RowEstimate): number | undefined {
  const read = l.read!;
  const all = estimate(read.relKey, read.table, read.args.map(() => false));
  const one = estimate(read.relKey, read.table, read.args.map((_, j) => j === at));
  return all > 0 && one > 0 ? all / one : undefined;
}

/** A variable's domain: the fewest distinct values of its sources (undefined: none known). */
function domainOf(domains: Domains, v: string, estimate: RowEstimate): number | undefined {
  let least: number | undefined;
  for (const s of domains.get(v) ?? []) {
    const d = distinctAt(s.l, s.at, estimate);
    if (d !== undefined && (least === undefined || d < least)) least = d;
  }
  return least;
}

/**
 * The factor by which containment narrows the rows of literal `l` whose `boundArgs` are bound:
 * the product, over its bound whole-variable arguments with a known domain, of
 * min(1, distinct values at the argument / the variable's domain). 1 without domains.
 */
export function containment(l: LiteralShape, boundArgs: readonly boolean[], domains: Domains | undefined, estimate: RowEstimate): number {
  const read = l.read;
  if (domains === undefined || domains.size === 0 || read === undefined || read.table === undefined) return 1;
  let factor = 1;
  read.args.forEach((a, at) => {
    if (a.kind !== 'var' || boundArgs[at] !== true || !domains.has(a.name)) return;
    const domain = domainOf(domains, a.name, estimate);
    const own = domain === undefined ? undefined : distinctAt(l, at, estimate);
    if (own !== undefined) factor *= Math.min(1, own / domain!);
  });
  return factor;
}
