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
  /** Rules staged ({@link stageRule}), neither looked up nor added yet ({@link flushStaged}). */
  readonly staged: Staging;
  /**
   * Triples `from, to, tag`: rules `[from, to)` appended without the table ({@link appendStaged}:
   * proven unequal to every rule that could be looked up until {@link hashAppended} puts them in).
   */
  appended: number[];
}

/**
 * Rules waiting to be looked up, laid out as the buffer's own (`ends[i]`: the end of rule `i`'s
 * literals in `lits`). Looking up a rule is a cache miss on a table of millions of slots; a
 * batch first reads every rule's home slot in a tight loop, so the processor waits for those
 * misses side by side instead of one per rule between two bindings of the join.
 */
interface Staging {
  count: number;
  /** Literals of the staged rules, heads included (what the run counts once they are added). */
  literals: number;
  readonly heads: Int32Array<ArrayBuffer>;
  readonly hashes: Int32Array<ArrayBuffer>;
  readonly ends: Int32Array<ArrayBuffer>;
  lits: Int32Array<ArrayBuffer>;
  /** Home slots of the batch being added. */
  readonly homes: Int32Array<ArrayBuffer>;
  /** What the batch's first reads of the slots gave (kept, so that the reads are not optimized away). */
  seen: number;
}

/** Rules a batch holds: its home slots' reads then overlap, and its slots stay cached until probed. */
export const STAGE_SIZE = 128;

/** An empty {@link RuleBuffer}. */
export function createRuleBuffer(): RuleBuffer {
  const staged: Staging = {
    count: 0, literals: 0, heads: new Int32Array(STAGE_SIZE), hashes: new Int32Array(STAGE_SIZE), ends: new Int32Array(STAGE_SIZE),
    lits: new Int32Array(16 * STAGE_SIZE), homes: new Int32Array(STAGE_SIZE), seen: 0,
  };
  return { count: 0, heads: new Int32Array(1024), starts: new Int32Array(1025), lits: new Int32Array(4096), hashes: new Int32Array(1024), slots: new Int32Array(2 * 2048), hashed: 0, staged, appended: [] };
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

/** Whether rule `i` of `buf` is the staged rule with head `head` and literals `lits[from .. to - 1]`. */
function sameRule(buf: RuleBuffer, i: number, head: number, lits: Int32Array, from: number, to: number): boolean {
  const start = buf.starts[i]!;
  if (buf.heads[i] !== head || buf.starts[i + 1]! - start !== to - from) return false;
  for (let j = from; j < to; j++) if (buf.lits[start + j - from] !== lits[j]) return false;
  return true;
}

/** Appends the rule with head `head`, hash `h` and literals (as stored) `source[from .. to - 1]`. */
function appendWith(buf: RuleBuffer, h: number, head: number, source: ArrayLike<number>, from: number, to: number): void {
  const i = buf.count;
  buf.heads = grow(buf.heads, i + 1);
  buf.hashes = grow(buf.hashes, i + 1);
  buf.starts = grow(buf.starts, i + 2);
  let k = buf.starts[i]!;
  buf.lits = grow(buf.lits, k + to - from);
  const lits = buf.lits;
  for (let j = from; j < to; j++) lits[k++] = source[j]!;
  buf.heads[i] = head;
  buf.hashes[i] = h;
  buf.starts[i + 1] = k;
  buf.count = i + 1;
}

/** Appends a rule (bodies ascending without duplicates), without looking for a duplicate. */
export function appendRule(buf: RuleBuffer, head: number, pos: readonly number[], neg: readonly number[]): void {
  const lits = [...pos.map((id) => id << 1), ...neg.map((id) => (id << 1) | 1)];
  appendWith(buf, 0, head, lits, 0, lits.length);
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
 * Stages ground rule `head <= pos[0 .. npos - 1], (not neg[0 .. nneg - 1])` (bodies ascending
 * without duplicates): {@link flushStaged} adds it unless it is there already. The batch holds
 * at most {@link STAGE_SIZE} rules; a caller flushes it when full.
 */
export function stageRule(buf: RuleBuffer, head: number, pos: ArrayLike<number>, neg: ArrayLike<number>, npos = pos.length, nneg = neg.length): void {
  const st = buf.staged;
  const i = st.count;
  let k = i === 0 ? 0 : st.ends[i - 1]!;
  st.lits = grow(st.lits, k + npos + nneg);
  const lits = st.lits;
  for (let j = 0; j < npos; j++) lits[k++] = pos[j]! << 1;
  for (let j = 0; j < nneg; j++) lits[k++] = (neg[j]! << 1) | 1;
  st.heads[i] = head;
  st.hashes[i] = hashOf(head, pos, npos, neg, nneg);
  st.ends[i] = k;
  st.count = i + 1;
  st.literals += 1 + npos + nneg;
}

/**
 * Adds the staged rules, in the order staged, each unless an equal rule is in the buffer (or
 * was staged before it); the literals (heads included) of the rules added.
 */
export function flushStaged(buf: RuleBuffer): number {
  const st = buf.staged;
  const n = st.count;
  // Grown first, so that every home slot read below stays valid while the batch is added.
  while (2 * (buf.hashed + n) > buf.slots.length >> 1) rehash(buf, buf.slots.length);
  const slots = buf.slots;
  const mask = (slots.length >> 1) - 1;
  const shift = shiftOf(slots);
  let seen = 0;
  for (let i = 0; i < n; i++) {
    const s = slotOf(st.hashes[i]!, shift);
    st.homes[i] = s;
    seen |= slots[2 * s]!;
  }
  st.seen = seen;
  let literals = 0;
  for (let i = 0, from = 0; i < n; from = st.ends[i]!, i++) {
    const h = st.hashes[i]!;
    const head = st.heads[i]!;
    const to = st.ends[i]!;
    let s = st.homes[i]!;
    let found = false;
    for (; slots[2 * s] !== 0; s = (s + 1) & mask) {
      if (slots[2 * s + 1] === h && sameRule(buf, slots[2 * s]! - 1, head, st.lits, from, to)) {
        found = true;
        break;
      }
    }
    if (found) continue;
    // The new rule goes into the empty slot its probe ended on (the chain is walked once).
    appendWith(buf, h, head, st.lits, from, to);
    slots[2 * s] = buf.count;
    slots[2 * s + 1] = h;
    buf.hashed++;
    literals += 1 + to - from;
  }
  st.count = 0;
  st.literals = 0;
  return literals;
}

/**
 * Adds the staged rules, in the order staged, without looking for equal ones: the caller knows
 * none is in the buffer nor staged twice (distinct-rules.ts). They keep the hashes staged with
 * them and stay out of the table (neither probed nor grown for) until {@link hashAppended} puts
 * in those of `tag` (the caller's name for their relation). The literals (heads included) added.
 */
export function appendStaged(buf: RuleBuffer, tag: number): number {
  const st = buf.staged;
  const first = buf.count;
  for (let i = 0, from = 0; i < st.count; from = st.ends[i]!, i++) appendWith(buf, st.hashes[i]!, st.heads[i]!, st.lits, from, st.ends[i]!);
  const ranges = buf.appended;
  const n = ranges.length;
  if (n > 0 && ranges[n - 2] === first && ranges[n - 1] === tag) ranges[n - 2] = buf.count;
  else if (buf.count > first) ranges.push(first, buf.count, tag);
  const literals = st.literals;
  st.count = 0;
  st.literals = 0;
  return literals;
}

/**
 * Puts the rules appended without the table with a tag of `tags` ({@link appendStaged}) into
 * it, with the hashes they were staged with, as if each had been added through it: before
 * rules that could equal them are looked up. They are distinct from the rules in it (the
 * caller's proof), so none is probed for.
 */
export function hashAppended(buf: RuleBuffer, tags: ReadonlySet<number>): void {
  const ranges = buf.appended;
  let w = 0;
  for (let r = 0; r < ranges.length; r += 3) {
    if (!tags.has(ranges[r + 2]!)) {
      ranges[w++] = ranges[r]!, ranges[w++] = ranges[r + 1]!, ranges[w++] = ranges[r + 2]!;
      continue;
    }
    for (let i = ranges[r]!; i < ranges[r + 1]!; i++) {
      while (2 * (buf.hashed + 1) > buf.slots.length >> 1) rehash(buf, buf.slots.length);
      const slots = buf.slots;
      const mask = (slots.length >> 1) - 1;
      let s = slotOf(buf.hashes[i]!, shiftOf(slots));
      while (slots[2 * s] !== 0) s = (s + 1) & mask;
      slots[2 * s] = i + 1;
      slots[2 * s + 1] = buf.hashes[i]!;
      buf.hashed++;
    }
  }
  ranges.length = w;
}

/**
 * Adds ground rule `head <= pos[0 .. npos - 1], (not neg[0 .. nneg - 1])` (bodies ascending
 * without duplicates; the lengths default to the arrays', so a caller may pass scratch arrays)
 * unless it is already there; true when added. Nothing may be staged.
 */
export function addGroundRule(
  buf: RuleBuffer, head: number, pos: ArrayLike<number>, neg: ArrayLike<number>, npos = pos.length, nneg = neg.length,
): boolean {
  stageRule(buf, head, pos, neg, npos, nneg);
  return flushStaged(buf) > 0;
}

/**
 * Forgets the rules from `count` on (a split that did not pay), taking their slots out of the
 * table one by one (backward-shift deletion: no tombstones, the probe chains of the rules kept
 * stay whole), so a roll-back costs what it forgets, not the size of the whole buffer.
 */
export function truncateRules(buf: RuleBuffer, count: number): void {
  for (let i = buf.count - 1; i >= count; i--) removeSlot(buf, i);
  buf.count = count;
  // Appended ranges forgotten with their rules (removeSlot found none of them in the table).
  const ranges = buf.appended;
  while (ranges.length > 0 && ranges[ranges.length - 3]! >= count) ranges.length -= 3;
  if (ranges.length > 0 && ranges[ranges.length - 2]! > count) ranges[ranges.length - 2] = count;
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
