/**
 * `once(G)` proved without states when G is a conjunction of the engine's own goals (table
 * calls, `\\==`, `'$gdl_absent'`): the superset stage's existence tests. Tau-Prolog's way, and
 * own.ts's before this, pushes a state for each goal of G, one per candidate of each call
 * (with a resumption state), and a cut that then drops every state G left: four or five
 * states and steps for one test (racer4's `legal_speed` and `next` clauses run 72,000 such
 * groups). Like own.ts, this module does not import tau-prolog.
 */
import { MAX_INDEXED } from './tables.js';
import type { TauTerm } from './term.js';

/** The candidate facts of a table call (see own.ts `lookup`). */
export interface Candidates {
  readonly atom: unknown;
  /** The table's arguments (`arity` a fact) as they were when the call was made. */
  readonly data: readonly TauTerm[];
  readonly arity: number;
  /** The candidates' rows; null: every row below `end`. */
  readonly rows: readonly number[] | null;
  /** Candidates from `end` on were added after the call and are not its answers. */
  readonly end: number;
}

/** A once group proved: the bindings of its first solution. */
export interface Proved {
  readonly links: unknown[];
}

/** What the walk needs of own.ts and bind.ts. */
interface Prover {
  /**
   * A goal entered: passed or failed (a test, a call with every argument bound), a call's
   * candidates, or a once group's bindings (only in {@link everySolution}'s goals).
   */
  entered(atom: unknown): Candidates | Proved | boolean;
  apply(term: unknown, links: unknown[]): unknown;
  bind(atom: unknown, data: readonly unknown[], base: number, indexed: number): unknown[] | null;
  /** The clock's tick, once per candidate tried (the walk makes no step the driver would count). */
  tick(): void;
  /**
   * Gives every answer of the last goal's candidates `c` at once, the bindings before it being
   * `before` (pick.ts); false when the walk must bind them itself. Only in {@link everySolution};
   * undefined in every prover of {@link firstSolution}. Always present, so that every prover has
   * one shape: the walk reads these properties per candidate, and two shapes would make those
   * reads polymorphic (a precaution: no difference was measured, docs/corpus.md amaz30).
   */
  readonly last: ((c: Candidates, before: unknown[]) => boolean) | undefined;
}

/**
 * The goals of conjunction `g`, left to right, when every one satisfies `own`; undefined
 * otherwise (a variable, or a goal the engine does not step itself).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function conjuncts(g: any, own: (goal: any) => boolean): unknown[] | undefined {
  const out: unknown[] = [];
  const stack = [g];
  while (stack.length > 0) {
    const t = stack.pop();
    if (t.args === undefined) return undefined;
    if (t.id === ',' && t.args.length === 2) {
      stack.push(t.args[1], t.args[0]);
      continue;
    }
    if (!own(t)) return undefined;
    out.push(t);
  }
  return out;
}

/**
 * The bindings of the first solution of `goals`, or null when there is none: a depth-first
 * walk, each call's candidates in the order their states would be popped, each goal with the
 * bindings of the goals before it applied, as those states' goals would hold it. So it is the
 * solution `once` keeps (the first its states reach), and what the cut would drop is never
 * made. The bindings are of ground facts, so applying them level by level or at once is the
 * same. Iterative: a level per goal, resumed at its next candidate when the later levels fail.
 */
export function firstSolution(goals: readonly unknown[], p: Prover): unknown[] | null {
  return walk(goals, p, null);
}

/**
 * Gives `each` the bindings of every solution of `goals`, in the order Tau-Prolog's states
 * would reach them: the same depth-first walk as {@link firstSolution}, resumed after each
 * solution instead of stopped. A goal may also be a once group proved by `entered` (its first
 * solution's bindings, one alternative only), as own.ts's `once` step pushes one state for it.
 */
export function everySolution(goals: readonly unknown[], p: Prover, each: (links: unknown[]) => void): void {
  walk(goals, p, each);
}

/**
 * The walk of {@link firstSolution} (`each` null: stop at the first solution and return its
 * bindings) and of {@link everySolution} (each solution given to `each`, then backtrack).
 */
function walk(goals: readonly unknown[], p: Prover, each: ((links: unknown[]) => void) | null): unknown[] | null {
  const before: unknown[][] = [];
  const from: (Candidates | null)[] = [];
  const next: number[] = [];
  let links: unknown[] = NO_LINKS;
  let k = 0;
  let fresh = true;
  while (k >= 0) {
    if (k === goals.length) {
      if (each === null) return links;
      each(links);
      k--, (fresh = false);
      continue;
    }
    if (fresh) {
      before[k] = links;
      const found = p.entered(links.length === 0 ? goals[k] : p.apply(goals[k], links));
      if (found === false) {
        k--, (fresh = false);
        continue;
      }
      next[k] = 0;
      if (found === true || 'links' in found) {
        // One alternative: a test passed, or a once group with its solution's bindings.
        from[k] = null;
        if (found !== true && found.links.length > 0) links = links.length === 0 ? found.links : links.concat(found.links);
        k++;
        continue;
      }
      from[k] = found;
      // The last goal's answers picked from its facts: the solutions the loop below would give.
      if (each !== null && k === goals.length - 1 && p.last !== undefined && p.last(found, links)) {
        k--, (fresh = false);
        continue;
      }
    }
    // A test has one answer; a call has its next candidate that unifies, if any.
    const c = from[k]!;
    let bound: unknown[] | null = null;
    while (c !== null && bound === null && next[k]! < c.end) {
      p.tick();
      const i = next[k]!++;
      bound = p.bind(c.atom, c.data, (c.rows === null ? i : c.rows[i]!) * c.arity, MAX_INDEXED);
    }
    if (bound === null) {
      k--, (fresh = false);
      continue;
    }
    const was = before[k]!;
    links = bound.length === 0 ? was : was.length === 0 ? bound : was.concat(bound);
    k++, (fresh = true);
  }
  return null;
}

/** No bindings (read only): a group's links before its first call binds, and own.ts's answer of a call that binds nothing. */
export const NO_LINKS = Object.freeze([]) as unknown as unknown[];
