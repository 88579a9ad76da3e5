/**
 * The head ids of one run of a rule's join, by the values of the head's variables. Ground games
 * have far fewer heads than rules (hex: 646,983 rules over 7,304 heads, racer4 691,774 over
 * 83,802), yet every binding interned its head again (two probes of the term table for
 * `(next (connected ?k ?m ?n))`, whose atoms are scattered over a table of all terms), tested
 * it against the superset's filter, the relation's store and the pending heads. A small table
 * keyed by the head variables' values answers all of it with one probe. Its state per head:
 * filtered out, or passed the filter, or also recorded as derived (in its store or pending,
 * which only grow during a run, so the answer stays true until the run ends).
 *
 * Where heads rarely repeat (static relations: each binding a new fact), the table would only
 * add a probe per binding: it switches itself off once it is large and most look-ups miss.
 */

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

/** The table (mutable, one per rule run). Slots hold entry + 1 (0 = empty). */
interface HeadCache {
  /** The head's variables (indices into the binding), in order. */
  readonly vars: Int32Array;
  on: boolean;
  slots: Int32Array;
  /** Per entry: the head variables' values (`vars.length` each), the head id, its state. */
  keys: Int32Array;
  ids: Int32Array;
  states: Uint8Array;
  count: number;
  lookups: number;
  hits: number;
  /** The empty slot where the last missed look-up would insert (for {@link addHead}). */
  free: number;
}

/** An empty cache for heads over the variables `vars`. */
export function createHeadCache(vars: readonly number[]): HeadCache {
  return {
    vars: Int32Array.from(vars), on: true, slots: new Int32Array(64), keys: new Int32Array(32 * Math.max(vars.length, 1)),
    ids: new Int32Array(32), states: new Uint8Array(32), count: 0, lookups: 0, hits: 0, free: -1,
  };
}

function hashKey(vars: Int32Array, b: Int32Array): number {
  let h = 0x9e3779b1;
  for (let i = 0; i < vars.length; i++) h = Math.imul(h ^ b[vars[i]!]!, 0x85ebca6b) + 0x1b873593;
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 13);
}

function sameKey(c: HeadCache, entry: number, b: Int32Array): boolean {
  const { vars, keys } = c;
  const base = entry * vars.length;
  for (let i = 0; i < vars.length; i++) if (keys[base + i] !== b[vars[i]!]) return false;
  return true;
}

/**
 * The entry of binding `b`'s head, or -1 (not there, or the cache is off). A miss remembers
 * where {@link addHead} inserts. Every {@link CHECK_EVERY} look-ups the hit rate is checked:
 * below a half, with {@link KEEP_BELOW} heads held, the cache turns off for the rest of the run.
 */
export function findHead(c: HeadCache, b: Int32Array): number {
  if (!c.on) return -1;
  if ((++c.lookups & (CHECK_EVERY - 1)) === 0 && c.count >= KEEP_BELOW && c.hits * 2 < c.lookups) {
    c.on = false;
    return -1;
  }
  const mask = c.slots.length - 1;
  for (let s = hashKey(c.vars, b) & mask; ; s = (s + 1) & mask) {
    const e = c.slots[s]!;
    if (e === 0) {
      c.free = s;
      return -1;
    }
    if (sameKey(c, e - 1, b)) {
      c.hits++;
      return e - 1;
    }
  }
}

/**
 * Adds binding `b`'s head `id` in state `state` after a miss of {@link findHead}; its entry, or
 * -1 when the cache is off.
 */
export function addHead(c: HeadCache, b: Int32Array, id: number, state: number): number {
  if (!c.on) return -1;
  const n = c.count;
  const width = c.vars.length;
  if (n === c.ids.length) {
    const keys = new Int32Array(2 * c.keys.length);
    keys.set(c.keys);
    c.keys = keys;
    const ids = new Int32Array(2 * n);
    ids.set(c.ids);
    c.ids = ids;
    const states = new Uint8Array(2 * n);
    states.set(c.states);
    c.states = states;
  }
  for (let i = 0; i < width; i++) c.keys[n * width + i] = b[c.vars[i]!]!;
  c.ids[n] = id;
  c.states[n] = state;
  c.count = n + 1;
  if (2 * c.count > c.slots.length) rehash(c);
  else c.slots[c.free] = n + 1;
  return n;
}

/** Doubles the slots and puts every entry back (the one just added included). */
function rehash(c: HeadCache): void {
  const slots = new Int32Array(2 * c.slots.length);
  const mask = slots.length - 1;
  const { vars, keys } = c;
  const key = new Int32Array(vars.length);
  const identity = Int32Array.from(vars, (_, i) => i);
  for (let e = 0; e < c.count; e++) {
    for (let i = 0; i < vars.length; i++) key[i] = keys[e * vars.length + i]!;
    let s = hashKey(identity, key) & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = e + 1;
  }
  c.slots = slots;
}
