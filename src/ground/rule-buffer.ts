/**
 * The ground rules instantiation makes, held compactly until the ground game is assembled:
 * typed arrays of atom ids instead of an object and two arrays per rule (millions of them were
 * most of instantiation's memory and of its garbage collection). Rule `i` has head `heads[i]`
 * and the literals `lits[starts[i]] .. lits[starts[i + 1] - 1]`: the positive body first, as
 * `id << 1`, then the negative body, as `id << 1 | 1`, each ascending without duplicates.
 * A buffer belongs to one run (the run's context holds it) and is written only through the
 * functions below. Duplicates are found by hash: each rule's hash, and an open-addressing table
 * of rule indices (typed arrays: no object or array per rule, which were a third of the time
 * spent adding rules).
 */
import { grow } from '../datalog/terms.js';

/** Ground rules over atom ids (see the module comment for the layout). */
export interface RuleBuffer {
  /** Number of rules. */
  count: number;
  heads: Int32Array<ArrayBuffer>;
  /** `count + 1` offsets into `lits`. */
  starts: Int32Array<ArrayBuffer>;
  lits: Int32Array<ArrayBuffer>;
  /** Per rule, the hash it was added with (0 for rules appended without one, never looked up). */
  hashes: Int32Array<ArrayBuffer>;
  /**
   * Open addressing on the hash: per slot two entries, rule index + 1 (0 when empty) and the
   * rule's hash (so probing and growing read no other array); a power of two slots.
   */
  slots: Int32Array<ArrayBuffer>;
  /** Rules in `slots`. */
  hashed: number;
}

/** An empty {@link RuleBuffer}. */
export function createRuleBuffer(): RuleBuffer {
  return { count: 0, heads: new Int32Array(1024), starts: new Int32Array(1025), lits: new Int32Array(4096), hashes: new Int32Array(1024), slots: new Int32Array(2 * 2048), hashed: 0 };
}

/** Mixes one literal into a rule hash (integers only: no key strings). */
function mix(h: number, id: number, salt: number): number {
  return Math.imul(h ^ id, 0x85ebca6b) + salt;
}

/** The hash of rule `head <= pos[0 .. npos - 1], (not neg[0 .. nneg - 1])`. */
function hashOf(head: number, pos: ArrayLike<number>, npos: number, neg: ArrayLike<number>, nneg: number): number {
  let h = Math.imul(head + 1, 0x9e3779b1);
  for (let i = 0; i < npos; i++) h = mix(h, pos[i]!, 1);
  h = Math.imul(h ^ 0x7fffffff, 0xc2b2ae35);
  for (let i = 0; i < nneg; i++) h = mix(h, neg[i]!, 7);
  return h;
}

/**
 * The first slot to probe for hash `h` in a table of `2 ** (32 - shift)` slots: the top bits of
 * the mixed hash, so that a slot's home in the table doubled is slot `2s` or `2s + 1` and
 * growing walks both tables in order (see {@link rehash}).
 */
function slotOf(h: number, shift: number): number {
  return Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> shift;
}

/** The shift of {@link slotOf} for `slots` (two entries a slot, a power of two of them: at least 2). */
function shiftOf(slots: Int32Array): number {
  return Math.clz32(slots.length >> 1) + 1;
}

/** Whether rule `i` of `buf` is `head <= pos[0 .. npos - 1], (not neg[0 .. nneg - 1])`. */
function sameRule(buf: RuleBuffer, i: number, head: number, pos: ArrayLike<number>, npos: number, neg: ArrayLike<number>, nneg: number): boolean {
  const start = buf.starts[i]!;
  if (buf.heads[i] !== head || buf.starts[i + 1]! - start !== npos + nneg) return false;
  for (let j = 0; j < npos; j++) if (buf.lits[start + j] !== pos[j]! << 1) return false;
  for (let j = 0; j < nneg; j++) if (buf.lits[start + npos + j] !== ((neg[j]! << 1) | 1)) return false;
  return true;
}

/** Appends rule `head <= pos[0 .. npos - 1], (not neg[0 .. nneg - 1])` with hash `h`. */
function appendWith(buf: RuleBuffer, h: number, head: number, pos: ArrayLike<number>, npos: number, neg: ArrayLike<number>, nneg: number): void {
  const i = buf.count;
  buf.heads = grow(buf.heads, i + 1);
  buf.hashes = grow(buf.hashes, i + 1);
  buf.starts = grow(buf.starts, i + 2);
  let k = buf.starts[i]!;
  buf.lits = grow(buf.lits, k + npos + nneg);
  const lits = buf.lits;
  for (let j = 0; j < npos; j++) lits[k++] = pos[j]! << 1;
  for (let j = 0; j < nneg; j++) lits[k++] = (neg[j]! << 1) | 1;
  buf.heads[i] = head;
  buf.hashes[i] = h;
  buf.starts[i + 1] = k;
  buf.count = i + 1;
}

/** Appends a rule (bodies ascending without duplicates), without looking for a duplicate. */
export function appendRule(buf: RuleBuffer, head: number, pos: readonly number[], neg: readonly number[]): void {
  appendWith(buf, 0, head, pos, pos.length, neg, neg.length);
}

/**
 * The table made anew with `size` slots over the rules it held. Homes are the hashes' top bits,
 * so the old table, read in order, is written in order too: each rule lands at or just after
 * where the one before it did (one pass over memory, not a cache miss per rule on a table of
 * millions of slots).
 */
function rehash(buf: RuleBuffer, size: number): void {
  const old = buf.slots;
  const slots = new Int32Array(2 * size);
  const mask = size - 1;
  const shift = shiftOf(slots);
  for (let t = 0; t < old.length; t += 2) {
    if (old[t] === 0) continue;
    let s = slotOf(old[t + 1]!, shift);
    while (slots[2 * s] !== 0) s = (s + 1) & mask;
    slots[2 * s] = old[t]!;
    slots[2 * s + 1] = old[t + 1]!;
  }
  buf.slots = slots;
}

/**
 * Adds ground rule `head <= pos[0 .. npos - 1], (not neg[0 .. nneg - 1])` (bodies ascending
 * without duplicates; the lengths default to the arrays', so a caller may pass scratch arrays)
 * unless it is already there; true when added.
 */
export function addGroundRule(
  buf: RuleBuffer, head: number, pos: ArrayLike<number>, neg: ArrayLike<number>, npos = pos.length, nneg = neg.length,
): boolean {
  const h = hashOf(head, pos, npos, neg, nneg);
  // Grown before the probe, so that a new rule goes into the empty slot the probe ends on
  // (the chain is walked once: a probe is a cache miss on a table of millions of slots).
  if (2 * (buf.hashed + 1) > buf.slots.length >> 1) rehash(buf, buf.slots.length);
  const slots = buf.slots;
  const mask = (slots.length >> 1) - 1;
  let s = slotOf(h, shiftOf(slots));
  for (; slots[2 * s] !== 0; s = (s + 1) & mask) {
    if (slots[2 * s + 1] === h && sameRule(buf, slots[2 * s]! - 1, head, pos, npos, neg, nneg)) return false;
  }
  appendWith(buf, h, head, pos, npos, neg, nneg);
  slots[2 * s] = buf.count;
  slots[2 * s + 1] = h;
  buf.hashed++;
  return true;
}

/**
 * Forgets the rules from `count` on (a split that did not pay), taking their slots out of the
 * table one by one (backward-shift deletion: no tombstones, the probe chains of the rules kept
 * stay whole), so a roll-back costs what it forgets, not the size of the whole buffer.
 */
export function truncateRules(buf: RuleBuffer, count: number): void {
  for (let i = buf.count - 1; i >= count; i--) removeSlot(buf, i);
  buf.count = count;
}

/** Takes rule `i` out of the table, if it is there (rules appended without looking are not). */
function removeSlot(buf: RuleBuffer, i: number): void {
  const { slots } = buf;
  const mask = (slots.length >> 1) - 1;
  const shift = shiftOf(slots);
  let s = slotOf(buf.hashes[i]!, shift);
  while (slots[2 * s] !== 0 && slots[2 * s] !== i + 1) s = (s + 1) & mask;
  if (slots[2 * s] === 0) return;
  // Later entries of the chain move into the hole unless their own slot lies after it.
  for (let j = (s + 1) & mask; slots[2 * j] !== 0; j = (j + 1) & mask) {
    const home = slotOf(slots[2 * j + 1]!, shift);
    const stays = s <= j ? s < home && home <= j : s < home || home <= j;
    if (stays) continue;
    slots[2 * s] = slots[2 * j]!;
    slots[2 * s + 1] = slots[2 * j + 1]!;
    s = j;
  }
  slots[2 * s] = 0;
  buf.hashed--;
}

/**
 * Drops, from the rules `from` on, the negative literals over atoms `keep` refuses, moving the
 * literals after them down in place. Rules keep the hashes they were added with.
 */
export function dropNegatives(buf: RuleBuffer, from: number, keep: (id: number) => boolean): void {
  const { lits, starts } = buf;
  let w = starts[from]!;
  for (let i = from; i < buf.count; i++) {
    const end = starts[i + 1]!;
    const begin = starts[i]!;
    starts[i] = w;
    for (let k = begin; k < end; k++) {
      const lit = lits[k]!;
      if ((lit & 1) === 0 || keep(lit >> 1)) lits[w++] = lit;
    }
  }
  starts[buf.count] = w;
}
