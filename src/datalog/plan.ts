/**
 * The one greedy join-order choice of the project, used by the core's join (src/datalog/join.ts)
 * and by the Tau-Prolog clause planner (src/reach/plan.ts): repeatedly take the cheapest body
 * atom given the variables bound so far. An atom whose variables are all bound comes first: it
 * is a test (one probe, at most one row) that can only shrink what follows. Otherwise the
 * fewest estimated rows; ties keep the given order, so plans are deterministic.
 */

/** One candidate of the greedy order. */
interface GreedyItem<V> {
  /** The variables the atom binds or tests. */
  readonly vars: readonly V[];
}

/**
 * Takes every item of `items` in greedy order, calling `take` on each (which must add the item's
 * variables to `bound`). `estimate`: rows of an item given `bound`.
 */
export function greedyOrder<V, T extends GreedyItem<V>>(
  items: readonly T[],
  bound: ReadonlySet<V>,
  estimate: (item: T) => number,
  take: (item: T) => void,
): void {
  const remaining = [...items];
  while (remaining.length > 0) {
    let best = 0;
    let bestFree = true;
    let bestRows = Infinity;
    for (let i = 0; i < remaining.length; i++) {
      const item = remaining[i]!;
      const free = item.vars.some((v) => !bound.has(v));
      const n = estimate(item);
      if (i === 0 || (bestFree && !free) || (free === bestFree && n < bestRows)) [best, bestFree, bestRows] = [i, free, n];
    }
    take(remaining.splice(best, 1)[0]!);
  }
}

/**
 * Groups items (say, the literals of a body, by their variables) connected through shared
 * variables that `ignore` does not exclude (union-find over indexes); groups in the order of
 * their first item, each ascending.
 */
export function linkedGroups(vars: readonly Iterable<string>[], ignore: (v: string) => boolean): number[][] {
  const parent = vars.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const owner = new Map<string, number>();
  vars.forEach((vs, i) => {
    for (const v of vs) {
      if (ignore(v)) continue;
      const o = owner.get(v);
      if (o === undefined) owner.set(v, i);
      else parent[find(i)] = find(o);
    }
  });
  const groups = new Map<number, number[]>();
  vars.forEach((_, i) => {
    const root = find(i);
    const g = groups.get(root);
    if (g === undefined) groups.set(root, [i]);
    else g.push(i);
  });
  return [...groups.values()].sort((a, b) => a[0]! - b[0]!);
}
