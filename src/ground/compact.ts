/**
 * The rules of a ground game held compactly: four typed arrays instead of an object and two
 * arrays per rule. Instantiation assembles them (assemble.ts), pruning and unused-instance
 * removal restrict them (restrict.ts) and the GDL writer reads them, so the `ground` command
 * never makes a million rule objects (they were most of those stages' time and of the peak).
 *
 * A game made here still offers `rules` as `GroundRule` objects for every other reader (the
 * mutex stage, the simulators, JSON, axiom removal): made from the compact rules on the first
 * read and kept. The compact rules travel on the game as a non-enumerable property, so a copy
 * made by spreading (`{ ...game, rules: other }`) never carries rules that disagree with its
 * `rules`: such a copy is read through its `rules`, as any game made elsewhere.
 */
import { countingPass } from './text-order.js';
import type { GroundGame, GroundRule } from './types.js';

/**
 * Canonical ground rules (the GroundGame contract): rule `i` has head `heads[i]`, positive body
 * `lits[starts[i] .. negAt[i] - 1]` and negative body `lits[negAt[i] .. starts[i + 1] - 1]`,
 * each ascending without duplicates; rules sorted by head, then positive, then negative body.
 */
export interface CompactRules {
  readonly count: number;
  readonly heads: Int32Array;
  /** `count + 1` offsets into `lits`. */
  readonly starts: Int32Array;
  readonly negAt: Int32Array;
  readonly lits: Int32Array;
}

/** The key of the compact rules on a game (non-enumerable: spreading does not copy them). */
const COMPACT = Symbol('compact ground rules');

type Carrier = { [COMPACT]?: CompactRules };

const NONE: readonly number[] = Object.freeze([]);

/** The literals `lits[from .. to - 1]` as a plain array (the shared empty one when none). */
function plain(lits: Int32Array, from: number, to: number): readonly number[] {
  if (from === to) return NONE;
  const out = new Array<number>(to - from);
  for (let k = from; k < to; k++) out[k - from] = lits[k]!;
  return out;
}

/** The rules as objects, in their order. */
function ruleObjects(c: CompactRules): GroundRule[] {
  // Pushed: `new Array(n)` past 100,000 entries makes a dictionary, slow to index.
  const out: GroundRule[] = [];
  for (let i = 0; i < c.count; i++) {
    out.push({ head: c.heads[i]!, pos: plain(c.lits, c.starts[i]!, c.negAt[i]!), neg: plain(c.lits, c.negAt[i]!, c.starts[i + 1]!) });
  }
  return out;
}

/** Rule objects as compact rules, in their order (bodies as they are). */
function compactFromRules(rules: readonly GroundRule[]): CompactRules {
  let total = 0;
  for (let i = 0; i < rules.length; i++) total += rules[i]!.pos.length + rules[i]!.neg.length;
  const heads = new Int32Array(rules.length);
  const starts = new Int32Array(rules.length + 1);
  const negAt = new Int32Array(rules.length);
  const lits = new Int32Array(total);
  let k = 0;
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    heads[i] = r.head;
    starts[i] = k;
    for (let j = 0; j < r.pos.length; j++) lits[k++] = r.pos[j]!;
    negAt[i] = k;
    for (let j = 0; j < r.neg.length; j++) lits[k++] = r.neg[j]!;
  }
  starts[rules.length] = k;
  return { count: rules.length, heads, starts, negAt, lits };
}

/**
 * The compact rules of `game`: its own when it was made here, else made from its `rules` (and
 * kept on it, so a game read twice converts once).
 */
export function compactRules(game: GroundGame): CompactRules {
  const own = (game as Carrier)[COMPACT];
  if (own !== undefined) return own;
  const made = compactFromRules(game.rules);
  if (Object.isExtensible(game)) Object.defineProperty(game, COMPACT, { value: made, enumerable: false });
  return made;
}

/** The number of rules of `game`, without making rule objects. */
export function ruleCount(game: GroundGame): number {
  return (game as Carrier)[COMPACT]?.count ?? game.rules.length;
}

/** The fields of `game` other than its rules, read without making rule objects. */
export function gameFields(game: GroundGame): Omit<GroundGame, 'rules'> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(game)) if (key !== 'rules') out[key] = (game as unknown as Record<string, unknown>)[key];
  return out as unknown as Omit<GroundGame, 'rules'>;
}

/** A ground game of `fields` and the compact rules `rules`, whose rule objects are made on first read. */
export function gameWithRules(fields: Omit<GroundGame, 'rules'>, rules: CompactRules): GroundGame {
  let objects: GroundRule[] | undefined;
  const game = { ...fields } as GroundGame;
  Object.defineProperty(game, 'rules', { enumerable: true, get: () => (objects ??= ruleObjects(rules)) });
  Object.defineProperty(game, COMPACT, { value: rules, enumerable: false });
  return game;
}

/** Lexicographic order of `lits[a0 .. a1 - 1]` and `lits[b0 .. b1 - 1]`. */
function compareRanges(lits: Int32Array, a0: number, a1: number, b0: number, b1: number): number {
  const n = Math.min(a1 - a0, b1 - b0);
  for (let i = 0; i < n; i++) {
    const d = lits[a0 + i]! - lits[b0 + i]!;
    if (d !== 0) return d;
  }
  return a1 - a0 - (b1 - b0);
}

/** Order of rules `x` and `y` of `c` with equal heads: positive body, then negative body. */
function compareBodies(c: CompactRules, x: number, y: number): number {
  const { starts, negAt, lits } = c;
  return compareRanges(lits, starts[x]!, negAt[x]!, starts[y]!, negAt[y]!) || compareRanges(lits, negAt[x]!, starts[x + 1]!, negAt[y]!, starts[y + 1]!);
}

/** Whether the rules of `c` are sorted and unique already. */
function isCanonical(c: CompactRules): boolean {
  for (let i = 1; i < c.count; i++) {
    const d = c.heads[i - 1]! - c.heads[i]!;
    if (d > 0 || (d === 0 && compareBodies(c, i - 1, i) >= 0)) return false;
  }
  return true;
}

/** Positive literals whose values key the counting passes of {@link canonicalRules}. */
const KEYED_LITERALS = 2;

/** The key of rule `i` by its `j`th positive literal: 0 when it has none (shorter bodies first), else the atom + 1. */
function literalKey(c: CompactRules, i: number, j: number): number {
  const k = c.starts[i]! + j;
  return k < c.negAt[i]! ? c.lits[k]! + 1 : 0;
}

/** Whether rules `x` and `y` of `c` agree in head and in the keyed literals. */
function sameKeys(c: CompactRules, x: number, y: number): boolean {
  if (c.heads[x] !== c.heads[y]) return false;
  for (let j = 0; j < KEYED_LITERALS; j++) if (literalKey(c, x, j) !== literalKey(c, y, j)) return false;
  return true;
}

/**
 * The rules of `c` (bodies ascending without duplicates, heads below `atoms`) sorted by head,
 * then bodies, without duplicates: stable counting passes by the first positive literals, then
 * by head (a radix sort, no comparisons), then a comparison sort of each run that these keys
 * leave tied (most runs are single rules), then one copy in that order. `tick` is called per rule.
 */
export function canonicalRules(c: CompactRules, atoms: number, tick: () => void): CompactRules {
  if (isCanonical(c)) return c;
  let order = new Int32Array(c.count);
  let other = new Int32Array(c.count);
  for (let i = 0; i < c.count; i++) order[i] = i;
  const keys = new Int32Array(c.count);
  const begin = new Int32Array(atoms + 2);
  for (let j = KEYED_LITERALS - 1; j >= 0; j--) {
    for (let i = 0; i < c.count; i++) keys[i] = literalKey(c, i, j);
    countingPass(order, keys, atoms + 1, begin, other);
    [order, other] = [other, order];
  }
  countingPass(order, c.heads, atoms, begin, other);
  order = other;
  const byBodies = (x: number, y: number): number => compareBodies(c, x, y);
  for (let from = 0; from < order.length; ) {
    let to = from + 1;
    while (to < order.length && sameKeys(c, order[from]!, order[to]!)) to++;
    if (to - from > 1) order.subarray(from, to).sort(byBodies);
    from = to;
  }
  return copyUnique(c, order, tick);
}

/** The rules of `c` in `order`, each kept once (equal rules are adjacent in it). */
function copyUnique(c: CompactRules, order: Int32Array, tick: () => void): CompactRules {
  const heads = new Int32Array(c.count);
  const starts = new Int32Array(c.count + 1);
  const negAt = new Int32Array(c.count);
  const lits = new Int32Array(c.starts[c.count]!);
  let n = 0;
  let k = 0;
  for (let j = 0; j < order.length; j++) {
    tick();
    const i = order[j]!;
    if (j > 0 && c.heads[order[j - 1]!] === c.heads[i] && compareBodies(c, order[j - 1]!, i) === 0) continue;
    heads[n] = c.heads[i]!;
    starts[n] = k;
    negAt[n] = k + c.negAt[i]! - c.starts[i]!;
    for (let m = c.starts[i]!; m < c.starts[i + 1]!; m++) lits[k++] = c.lits[m]!;
    n++;
  }
  starts[n] = k;
  return { count: n, heads: heads.subarray(0, n), starts: starts.subarray(0, n + 1), negAt: negAt.subarray(0, n), lits: lits.subarray(0, k) };
}

/**
 * The rules `i` of `c` with `keep[i] === 1` (`kept` of them), in their order, each with its
 * positive body and those negative literals whose atom `keepNeg` marks (all without `keepNeg`).
 * Dropping whole rules or negative literals keeps bodies ascending and rules sorted.
 */
export function selectRules(c: CompactRules, keep: Uint8Array, kept: number, keepNeg?: Uint8Array): CompactRules {
  const heads = new Int32Array(kept);
  const starts = new Int32Array(kept + 1);
  const negAt = new Int32Array(kept);
  const lits = new Int32Array(c.starts[c.count]!);
  let n = 0;
  let k = 0;
  for (let i = 0; i < c.count; i++) {
    if (keep[i] === 0) continue;
    heads[n] = c.heads[i]!;
    starts[n] = k;
    for (let m = c.starts[i]!; m < c.negAt[i]!; m++) lits[k++] = c.lits[m]!;
    negAt[n] = k;
    for (let m = c.negAt[i]!; m < c.starts[i + 1]!; m++) if (keepNeg === undefined || keepNeg[c.lits[m]!] === 1) lits[k++] = c.lits[m]!;
    n++;
  }
  starts[n] = k;
  return { count: n, heads, starts, negAt, lits: lits.subarray(0, k) };
}
