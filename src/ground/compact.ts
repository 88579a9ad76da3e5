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
 * `rules`: such a copy is read through its `rules`, as any game made elsewhere. The atoms
 * travel the same way, as term ids (`atomTerms`, `atomCount`, `atomTerm`), their `atoms`
 * objects made on the first read.
 */
import type { TermReader } from '../datalog/terms.js';
import { countingPass } from './text-order.js';
import type { GroundAtom, GroundGame, GroundRule } from './types.js';

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

/**
 * The key of a game's atoms as term ids (non-enumerable): its `atoms` objects are made from
 * them on the first read, so that pruning, unused-instance removal and the GDL writer, which
 * read only term ids, never make a million atom objects (amazons: 1.1 M, a hundred MiB that
 * every full garbage collection walked).
 */
const ATOMS = Symbol('ground atoms as term ids');

type Carrier = { [COMPACT]?: CompactRules; [ATOMS]?: Int32Array };

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

/** The fields of a ground game other than its atoms and rules (which travel compactly). */
type GameFields = Omit<GroundGame, 'rules' | 'atoms'>;

/** The fields of `game` other than its atoms and rules, read without making their objects. */
export function gameFields(game: GroundGame): GameFields {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(game)) if (key !== 'rules' && key !== 'atoms') out[key] = (game as unknown as Record<string, unknown>)[key];
  return out as unknown as GameFields;
}

/** The atoms of `game` as term ids, in their order: its own when it was made here, else read from its `atoms`. */
export function atomTerms(game: Pick<GroundGame, 'atoms'>): Int32Array {
  const own = (game as Carrier)[ATOMS];
  if (own !== undefined) return own;
  const out = new Int32Array(game.atoms.length);
  for (let i = 0; i < out.length; i++) out[i] = game.atoms[i]!.term;
  return out;
}

/** The number of atoms of `game`, without making atom objects. */
export function atomCount(game: GroundGame): number {
  return (game as Carrier)[ATOMS]?.length ?? game.atoms.length;
}

/**
 * The offsets of a counting sort, in place: `start[a]` becomes the sum of the counts of `0 ..
 * a-1`, where `start[a + 1]` holds a's count on entry (one extra element at the end).
 */
export function prefixSums(start: Int32Array): void {
  for (let a = 1; a < start.length; a++) start[a]! += start[a - 1]!;
}

/** The term id of atom `id` of `game` (or of a game made from one), without making atom objects. */
export function atomTerm(game: Pick<GroundGame, 'atoms'>, id: number): number {
  const own = (game as Carrier)[ATOMS];
  return own === undefined ? game.atoms[id]!.term : own[id]!;
}

/**
 * The arguments of atom `term`, a plain array of its own: the table's memoized `args` freezes
 * a copy of a pool slice per term, which for a million atoms was most of making them.
 */
function argsOf(terms: TermReader, term: number): readonly number[] {
  const n = terms.arity(term);
  if (n === 0) return NONE;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(terms.arg(term, i));
  return out;
}

/** The atom objects of term ids `atoms`, in their order. */
function atomObjects(terms: TermReader, atoms: Int32Array): GroundAtom[] {
  // Pushed: `new Array(n)` past 100,000 entries makes a dictionary, slow to index.
  const out: GroundAtom[] = [];
  for (let i = 0; i < atoms.length; i++) out.push({ term: atoms[i]!, rel: terms.functor(atoms[i]!), args: argsOf(terms, atoms[i]!) });
  return out;
}

/**
 * A ground game of `fields`, the atoms `atoms` (term ids of `fields.terms`, in the contract's
 * order) and the compact rules `rules`; its atom and rule objects are made on first read.
 */
export function gameWithRules(fields: GameFields, atoms: Int32Array, rules: CompactRules): GroundGame {
  let objects: GroundRule[] | undefined;
  let atomList: GroundAtom[] | undefined;
  const game = { ...fields } as GroundGame;
  // Configurable: a test traps the read to check that a stage works on the term ids alone.
  Object.defineProperty(game, 'atoms', { enumerable: true, configurable: true, get: () => (atomList ??= atomObjects(fields.terms, atoms)) });
  Object.defineProperty(game, 'rules', { enumerable: true, get: () => (objects ??= ruleObjects(rules)) });
  Object.defineProperty(game, COMPACT, { value: rules, enumerable: false });
  Object.defineProperty(game, ATOMS, { value: atoms, enumerable: false });
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
export function compareBodies(c: Omit<CompactRules, 'count'>, x: number, y: number): number {
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

/** Order of the positive bodies of rules `x` and `y` of `c`. */
function comparePositive(c: CompactRules, x: number, y: number): number {
  return compareRanges(c.lits, c.starts[x]!, c.negAt[x]!, c.starts[y]!, c.negAt[y]!);
}

/** Order of the negative bodies of rules `x` and `y` of `c`. */
function compareNegative(c: CompactRules, x: number, y: number): number {
  return compareRanges(c.lits, c.negAt[x]!, c.starts[x + 1]!, c.negAt[y]!, c.starts[y + 1]!);
}

/**
 * {@link canonicalRules} for rules that are sorted by head and positive body already and may
 * only have lost negative literals (pruning drops those over unreachable atoms): only a run of
 * rules with the same head and positive body can be out of order or hold duplicates, so only
 * such runs are sorted (by negative body), and the rules are copied only when one was. The
 * canonical order is one total order, so the result is {@link canonicalRules}' exactly; rules
 * not sorted by head and positive body are handed to it. `tick` is called per run.
 */
export function canonicalNegatives(c: CompactRules, atoms: number, tick: () => void): CompactRules {
  let order: Int32Array | undefined;
  const byNegative = (x: number, y: number): number => compareNegative(c, x, y);
  for (let from = 0; from < c.count; ) {
    tick();
    let to = from + 1;
    let sorted = true;
    while (to < c.count && c.heads[to] === c.heads[from] && comparePositive(c, from, to) === 0) {
      if (sorted && compareNegative(c, to - 1, to) >= 0) sorted = false;
      to++;
    }
    // The next run must start above this one (a head or a positive body that is not ascending).
    if (to < c.count && (c.heads[to]! < c.heads[from]! || (c.heads[to] === c.heads[from] && comparePositive(c, from, to) > 0))) return canonicalRules(c, atoms, tick);
    if (!sorted) {
      if (order === undefined) {
        order = new Int32Array(c.count);
        for (let i = 0; i < c.count; i++) order[i] = i;
      }
      order.subarray(from, to).sort(byNegative);
    }
    from = to;
  }
  return order === undefined ? c : copyUnique(c, order, tick);
}
