/**
 * The row estimates the superset stage's planner orders and costs bodies with (src/reach/plan.ts
 * takes them as {@link RowEstimate}s): table sizes and per-argument distinct counts of the facts
 * known when a variant is planned, measured again only when a table has grown.
 */
import { EngineLimitError, type TauTerm, tauArgs } from '../engine/tau.js';
import type { RowEstimate } from './plan.js';
import type { Run, TableStats } from './run.js';
import { uses } from './ablation.js';

/**
 * Rows a literal yields: the table's size divided by the distinct values of each bound
 * argument and of each argument bound inside a compound one (`inner`, where the engine looks the
 * call up by them; independence assumption). A call of a split relation's whole table counts every fact of the relation.
 * Relations of the component itself are still growing, so their size counts as at least
 * {@link GROWING_FLOOR}: planning on a nearly empty table would put it first and multiply out
 * once it has filled up.
 */
export function estimator(run: Run, members: ReadonlySet<string>, useFloor: boolean): RowEstimate {
  if (!uses(run.switches, 'join-order')) return NOMINAL_ROWS;
  return (relKey, table, boundArgs, inner) => {
    const floor = useFloor && members.has(relKey) ? GROWING_FLOOR : 0;
    if (table === undefined) {
      const r = run.store.relations.get(relKey);
      return Math.max(floor, r === undefined ? 0 : r.ids.size);
    }
    const stats = tableStats(run, table);
    let rows = Math.max(floor, stats.size);
    boundArgs.forEach((b, i) => {
      if (b) rows /= Math.max(1, stats.distinct[i] ?? 1);
    });
    inner?.bound.forEach((b, j) => {
      if (b) rows /= Math.max(1, stats.innerDistinct.get(`${inner.at}.${j}`) ?? 1);
    });
    return rows;
  };
}

/**
 * Rows of a literal without statistics (the ablation of `join-order`, src/reach/ablation.ts):
 * each bound argument divides a nominal 1000 by 10, so only the number of bound arguments
 * orders a body, as plan.ts does where no statistics are given.
 */
const NOMINAL_ROWS: RowEstimate = (_r, _t, boundArgs) => 1000 / 10 ** boundArgs.filter((b) => b).length;

/**
 * Size assumed at least for a relation of the component being evaluated. 1000 is above the
 * static tables that should be joined first in real games (roles, successor chains, board
 * coordinates: tens to hundreds of facts) and below what a growing relation such as `true`
 * reaches after a few rounds; the exact value is an order of magnitude, not a measured optimum.
 */
const GROWING_FLOOR = 1000;

/** Statistics of a table, measured again only when it has grown since. */
function tableStats(run: Run, name: string): TableStats {
  const t = run.store.tables.get(name);
  if (t === undefined) return { size: 0, distinct: [], values: [], inner: new Map(), innerDistinct: new Map() };
  const size = run.engine.tableSize(t.fullName);
  const cached = run.stats.get(name);
  if (cached !== undefined && cached.size === size) return cached;
  const sets = cached?.values ?? Array.from({ length: t.arity }, () => new Set<TauTerm>());
  const inner = new Map(cached?.inner);
  // The sets of `inner` by argument and inner position, so that a fact makes no key `i.j`.
  const byArg: Set<TauTerm>[][] = Array.from({ length: t.arity }, () => []);
  const deadline = run.limits.deadline;
  const data = run.engine.tableData(t.fullName);
  for (let f = cached?.size ?? 0; f < size; f++) {
    // A table of 10⁶ facts takes seconds to measure (amazonsTorus): the clock is read here too,
    // and a stop is worded as the query's (evaluate.ts turns the engine's limit into the stage's).
    if (deadline.tick()) throw new EngineLimitError(deadline.describe(), deadline.exceeded() ?? 'time');
    for (let i = 0; i < t.arity; i++) {
      const arg = data[f * t.arity + i]!;
      sets[i]!.add(arg);
      const args = tauArgs(arg);
      for (let j = 0; j < args.length; j++) innerSet(inner, byArg[i]!, i, j).add(args[j]!);
    }
  }
  // A new object: plans made earlier keep the figures they were made with.
  const stats = { size, distinct: sets.map((s) => s.size), values: sets, inner, innerDistinct: new Map([...inner].map(([k, s]) => [k, s.size])) };
  run.stats.set(name, stats);
  return stats;
}

/** The set of `inner` keyed `i.j`, made on first use, through `row` (argument `i`'s sets by `j`). */
function innerSet(inner: Map<string, Set<TauTerm>>, row: Set<TauTerm>[], i: number, j: number): Set<TauTerm> {
  const known = row[j];
  if (known !== undefined) return known;
  const key = `${i}.${j}`;
  let set = inner.get(key);
  if (set === undefined) inner.set(key, (set = new Set()));
  row[j] = set;
  return set;
}
