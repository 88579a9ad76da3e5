/**
 * The head ids of one run of a rule's join, by the values of the head's variables. Ground games
 * have far fewer heads than rules (hex: 646,983 rules over 7,304 heads, racer4 691,774 over
 * 83,802), yet every binding interned its head again (two probes of the term table for
 * `(next (connected ?k ?m ?n))`, whose atoms are scattered over a table of all terms), tested
 * it against the superset's filter, the relation's store and the pending heads. A relation of
 * the head variables' values (the Datalog core's, src/datalog/relation.ts, looked up through
 * its membership index by the binding itself) answers all of it with one probe. Its state per
 * head: filtered out, or passed the filter, or also recorded as derived (in its store or
 * pending, which only grow during a run, so the answer stays true until the run ends).
 *
 * Where heads rarely repeat (static relations: each binding a new fact), the table would only
 * add a probe per binding: it switches itself off once it is large and most look-ups miss, and
 * a caller that knows it (a static rule, whose join binds each head's values once but for
 * existential variables bound before them) creates it switched off.
 */
import { Relation } from '../datalog/relation.js';
import type { RelationIndex } from '../datalog/relation-index.js';
import { grow } from '../datalog/terms.js';

/** What is known of a head: its superset filter refused it, it passed, or it is also recorded. */
export const HEAD_FILTERED = 0;
export const HEAD_PASSED = 1;
export const HEAD_RECORDED = 2;

/** Look-ups between two checks of the hit rate (a power of two). */
const CHECK_EVERY = 4096;

/**
 * Heads held before a low hit rate may turn the cache off: the first heads always miss (hex's
 * `next` rule meets all its 7,000 heads before the first repeats), and a table this small
 * costs little where none ever repeats.
 */
const KEEP_BELOW = 1 << 16;

/** The cache (mutable, one per rule run). Entry `e` is row `e` of `keys`. */
interface HeadCache {
  /** The head's variables (indices into the binding), in order. */
  readonly vars: Int32Array;
  on: boolean;
  /** Per entry, the head variables' values: a row of `keys`, found through `index`. */
  readonly keys: Relation;
  readonly index: RelationIndex;
  /** Per entry: the head id and its state. */
  ids: Int32Array<ArrayBuffer>;
  states: Uint8Array<ArrayBuffer>;
  count: number;
  lookups: number;
  hits: number;
  /** The row appended for a new entry (the values taken from the binding). */
  readonly tuple: Int32Array;
}

/** An empty cache for heads over the variables `vars`; `on` false: never used (look-ups miss, nothing is added). */
export function createHeadCache(vars: readonly number[], on = true): HeadCache {
  const keys = new Relation(vars.length);
  const index = keys.index(vars.map((_, i) => i));
  return {
    vars: Int32Array.from(vars), on, keys, index, ids: new Int32Array(32), states: new Uint8Array(32),
    count: 0, lookups: 0, hits: 0, tuple: new Int32Array(vars.length),
  };
}

/**
 * The entry of binding `b`'s head, or -1 (not there, or the cache is off). Every
 * {@link CHECK_EVERY} look-ups the hit rate is checked: below a half, with {@link KEEP_BELOW}
 * heads held, the cache turns off for the rest of the run.
 */
export function findHead(c: HeadCache, b: Int32Array): number {
  if (!c.on) return -1;
  if ((++c.lookups & (CHECK_EVERY - 1)) === 0 && c.count >= KEEP_BELOW && c.hits * 2 < c.lookups) {
    c.on = false;
    return -1;
  }
  const e = c.count === 0 ? -1 : c.index.firstFor(b, c.vars);
  if (e >= 0) c.hits++;
  return e;
}

/**
 * Adds binding `b`'s head `id` in state `state` after a miss of {@link findHead}; its entry, or
 * -1 when the cache is off.
 */
export function addHead(c: HeadCache, b: Int32Array, id: number, state: number): number {
  if (!c.on) return -1;
  const n = c.count;
  const { vars, tuple } = c;
  for (let i = 0; i < vars.length; i++) tuple[i] = b[vars[i]!]!;
  // After a miss the values are new: appended without a membership test.
  c.keys.append(tuple);
  if (n === c.ids.length) {
    c.ids = grow(c.ids, n + 1);
    const states = new Uint8Array(c.ids.length);
    states.set(c.states);
    c.states = states;
  }
  c.ids[n] = id;
  c.states[n] = state;
  c.count = n + 1;
  return n;
}
