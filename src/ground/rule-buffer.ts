/**
 * The ground rules instantiation makes, held compactly until the ground game is assembled:
 * typed arrays of atom ids instead of an object and two arrays per rule (millions of them were
 * most of instantiation's memory and of its garbage collection). Rule `i` has head `heads[i]`
 * and the literals `lits[starts[i]] .. lits[starts[i + 1] - 1]`: the positive body first, as
 * `id << 1`, then the negative body, as `id << 1 | 1`, each ascending without duplicates.
 * A buffer belongs to one run (the run's context holds it) and is written only through the
 * functions below. Duplicates are found by hash: rows (hash, rule) with an index on the hash.
 */
import { Relation, type RelationIndex } from '../datalog/relation.js';
import { grow } from '../datalog/terms.js';

/** Ground rules over atom ids (see the module comment for the layout). */
export interface RuleBuffer {
  /** Number of rules. */
  count: number;
  heads: Int32Array<ArrayBuffer>;
  /** `count + 1` offsets into `lits`. */
  starts: Int32Array<ArrayBuffer>;
  lits: Int32Array<ArrayBuffer>;
  /** Rows (hash, rule index) of the rules added with {@link addGroundRule}, and the index on the hash. */
  hashes: Relation;
  byHash: RelationIndex;
}

/** An empty {@link RuleBuffer}. */
export function createRuleBuffer(): RuleBuffer {
  const hashes = new Relation(2);
  return { count: 0, heads: new Int32Array(1024), starts: new Int32Array(1025), lits: new Int32Array(4096), hashes, byHash: hashes.index([0]) };
}

/** Mixes one literal into a rule hash (integers only: no key strings). */
function mix(h: number, id: number, salt: number): number {
  return Math.imul(h ^ id, 0x85ebca6b) + salt;
}

/** The hash of rule `head <= pos, (not neg)`. */
function hashOf(head: number, pos: readonly number[], neg: readonly number[]): number {
  let h = Math.imul(head + 1, 0x9e3779b1);
  for (let i = 0; i < pos.length; i++) h = mix(h, pos[i]!, 1);
  h = Math.imul(h ^ 0x7fffffff, 0xc2b2ae35);
  for (let i = 0; i < neg.length; i++) h = mix(h, neg[i]!, 7);
  return h;
}

/** The hash of rule `i` of `buf`, equal to {@link hashOf} of its parts. */
function hashAt(buf: RuleBuffer, i: number): number {
  const { lits } = buf;
  let h = Math.imul(buf.heads[i]! + 1, 0x9e3779b1);
  let k = buf.starts[i]!;
  const end = buf.starts[i + 1]!;
  for (; k < end && (lits[k]! & 1) === 0; k++) h = mix(h, lits[k]! >> 1, 1);
  h = Math.imul(h ^ 0x7fffffff, 0xc2b2ae35);
  for (; k < end; k++) h = mix(h, lits[k]! >> 1, 7);
  return h;
}

/** Whether rule `i` of `buf` is `head <= pos, (not neg)`. */
function sameRule(buf: RuleBuffer, i: number, head: number, pos: readonly number[], neg: readonly number[]): boolean {
  const start = buf.starts[i]!;
  if (buf.heads[i] !== head || buf.starts[i + 1]! - start !== pos.length + neg.length) return false;
  for (let j = 0; j < pos.length; j++) if (buf.lits[start + j] !== pos[j]! << 1) return false;
  for (let j = 0; j < neg.length; j++) if (buf.lits[start + pos.length + j] !== ((neg[j]! << 1) | 1)) return false;
  return true;
}

/** Appends a rule (bodies ascending without duplicates), without looking for a duplicate. */
export function appendRule(buf: RuleBuffer, head: number, pos: readonly number[], neg: readonly number[]): void {
  const i = buf.count;
  buf.heads = grow(buf.heads, i + 1);
  buf.starts = grow(buf.starts, i + 2);
  let k = buf.starts[i]!;
  buf.lits = grow(buf.lits, k + pos.length + neg.length);
  for (let j = 0; j < pos.length; j++) buf.lits[k++] = pos[j]! << 1;
  for (let j = 0; j < neg.length; j++) buf.lits[k++] = (neg[j]! << 1) | 1;
  buf.heads[i] = head;
  buf.starts[i + 1] = k;
  buf.count = i + 1;
}

/** Adds a ground rule (bodies ascending without duplicates) unless it is already there; true when added. */
export function addGroundRule(buf: RuleBuffer, head: number, pos: readonly number[], neg: readonly number[]): boolean {
  const h = hashOf(head, pos, neg);
  const { hashes, byHash } = buf;
  for (let row = byHash.firstOf([h]); row >= 0; row = byHash.nextRow(row)) {
    if (sameRule(buf, hashes.get(row, 1), head, pos, neg)) return false;
  }
  hashes.append([h, buf.count]);
  appendRule(buf, head, pos, neg);
  return true;
}

/**
 * Forgets the rules from `count` on (a split that did not pay). The hash rows cannot be deleted
 * one by one, so they are rebuilt from the rules kept: this happens only after a split of a rule
 * estimated in the millions, so it is rare.
 */
export function truncateRules(buf: RuleBuffer, count: number): void {
  buf.count = count;
  buf.hashes = new Relation(2);
  buf.byHash = buf.hashes.index([0]);
  for (let i = 0; i < count; i++) buf.hashes.append([hashAt(buf, i), i]);
}

/**
 * Drops, from the rules `from` on, the negative literals over atoms `keep` refuses, moving the
 * literals after them down in place. Hash rows keep the hashes the rules were added with.
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
