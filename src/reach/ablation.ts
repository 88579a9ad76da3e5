/**
 * The optimizations of the `prolog` method that can be switched off one at a time, to measure
 * what each contributes (docs/reach.md, "The share of each optimization"; `npm run bench --
 * --reach-ablation`). Every switch keeps the result: the least model of the relaxed game,
 * reached by more work. They are passed in with a run's options (`PrologReachOptions.off`),
 * never set process-wide; by default every optimization is on, which is today's method.
 */

/** The name of one optimization that can be switched off. */
export type Optimization =
  /** Rounds read only the last round's new facts (otherwise: naive rounds over the full tables). */
  | 'semi-naive'
  /** Component by component in dependency order (otherwise: the whole program as one component). */
  | 'components'
  /** Relaxed rules that another subsumes are dropped (src/reach/subsume.ts). */
  | 'subsumption'
  /** Bodies ordered by the sizes of the tables (otherwise: by bound arguments alone). */
  | 'join-order'
  /** Runs of goals that only test existence run under `once`, known heads skip them (items 4, 7). */
  | 'existence'
  /** The core-first plan (item 5). */
  | 'core-first'
  /** The projected plan (item 5b, src/reach/project.ts). */
  | 'projected'
  /** The head-first plan (item 5c, src/reach/head-first.ts). */
  | 'head-first'
  /** The distinct-heads plan of the variant reading full tables (item 6). */
  | 'distinct-heads'
  /** The staged plan: a body cut where variables die (item 5d, src/reach/staged.ts). */
  | 'staged'
  /** A literal with variables found nowhere else reads its table's projection onto the others (item 5e). */
  | 'dead-projection'
  /** The projection of a delta table holds only tuples no earlier round's facts had (item 5f). */
  | 'fresh-projection'
  /** Existence parts of rules made relations of their own, variable by variable (src/reach/eliminate.ts). */
  | 'elimination'
  /** Queries skipped when a hash probe shows a literal cannot match (item 10). */
  | 'probes'
  /** Plans made again when a relation of the component has grown fourfold (item 8). */
  | 'replan'
  /** The engine steps its own predicates itself (item 11; `PrologReachOptions.directSteps`). */
  | 'direct-steps';

/** Every optimization that can be switched off, in the order of docs/reach.md. */
export const OPTIMIZATIONS: readonly Optimization[] = [
  'semi-naive', 'components', 'subsumption', 'join-order', 'existence', 'core-first',
  'projected', 'head-first', 'distinct-heads', 'staged', 'dead-projection', 'fresh-projection', 'elimination', 'probes', 'replan', 'direct-steps',
];

/** Which optimizations a run uses: a set of those switched off (empty: all on). */
export interface Switches {
  readonly off: ReadonlySet<Optimization>;
}

/** The switches of a run: `off` lists the optimizations switched off (absent: none). */
export function switches(off: readonly Optimization[] = []): Switches {
  return { off: new Set(off) };
}

/** True when optimization `o` is on. */
export function uses(s: Switches, o: Optimization): boolean {
  return !s.off.has(o);
}

/** True when `name` is an optimization's name (for readers of names from outside). */
export function isOptimization(name: string): name is Optimization {
  return (OPTIMIZATIONS as readonly string[]).includes(name);
}
