/**
 * The rows of bounded relations (lifted-bounds.ts) held against a case of the lifted proofs
 * (docs/mutex.md, 2a, "Bounds of derived relations" and "Bounds: absent facts and pairs"): an
 * atom with no fitting row, or two atoms sharing two variables with no two rows fitting together,
 * close the case. The matching of terms against ground rows is shared with lifted-core.ts' search
 * over static facts.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { type Subst, ground, key, walk } from './lifted-terms.js';

/**
 * Rows that contain every atom of a derived relation true in any reachable state (lifted-bounds.ts),
 * indexed per position by the text of the argument there. A superset: an atom among them may
 * still be false, so only a positive atom with no fitting row closes a case.
 */
export interface Bound {
  /** The positions of the relation the rows keep (the others were left out: any value). */
  readonly keep: readonly number[];
  readonly rows: readonly (readonly Term[])[];
  readonly index: readonly ReadonlyMap<string, readonly (readonly Term[])[]>[];
  /** Whether some row fits, per pattern of an atom's arguments (filled as the proof asks). */
  readonly memo: Map<string, boolean>;
  /** The rows' texts (their arguments' {@link key}s joined by spaces), made at the first lookup of a ground row. */
  keys?: Set<string>;
  /** The relation reads no state nor move (lifted-bounds.ts' stateFree): its rows are its definition's, the same in every state. */
  readonly stateFree?: boolean;
  /** What lifted-domains.ts found per pattern of a case's bounded atoms (this bound's atom first): the values it binds, or 'conflict'. */
  forced?: Map<string, readonly (readonly [string, Term])[] | 'conflict'>;
}

/** The names of the variables of `t` under `s` (with repeats). */
export function varsOf(t: Term, s: Subst): string[] {
  const u = walk(t, s);
  if (u.kind === 'var') return [u.name];
  return u.kind === 'fn' ? u.args.flatMap((a) => varsOf(a, s)) : [];
}

/**
 * Whether some row of the bound fits the atom's arguments (cut to the kept positions) under `s`.
 * Arguments that are distinct variables fit any row; otherwise the smallest bucket of a ground
 * argument (or all rows) is scanned, and the answer kept per pattern of the arguments.
 */
export function boundFits(b: Bound, args: readonly Term[], s: Subst): boolean {
  const cut = b.keep.map((i) => args[i]!);
  if (b.rows.length === 0) return false;
  const names = new Map<string, string>();
  let plain = true;
  const pattern = cut.map((t) => patternText(t, s, names, () => (plain = false))).join(' ');
  if (plain) return true;
  const known = b.memo.get(pattern);
  if (known !== undefined) return known;
  const fits = rowFits(b, cut, s);
  b.memo.set(pattern, fits);
  return fits;
}

/** The rows of a bound an atom's arguments (cut) may take under `s`: the smallest bucket of a ground argument, or all. */
function rowsFor(b: Bound, cut: readonly Term[], s: Subst): readonly (readonly Term[])[] {
  let rows = b.rows;
  cut.forEach((x, i) => {
    if (!ground(x, s)) return;
    const bucket = b.index[i]!.get(key(x, s)) ?? [];
    if (bucket.length < rows.length) rows = bucket;
  });
  return rows;
}

/** Whether some row of the bound fits the arguments (cut to its kept positions) under `s`. */
function rowFits(b: Bound, cut: readonly Term[], s: Subst): boolean {
  return rowsFor(b, cut, s).some((row) => {
    const local = new Map<string, Term>();
    return cut.every((x, j) => matchesGround(x, row[j]!, s, local));
  });
}

/** Rows of a bound the pair check scans for its first atom (a state-free bound's most; past it the pair is not checked). */
const MAX_PAIR_ROWS = 65_536;

/**
 * Whether every two atoms of one bounded relation that share two variables (of two relations: three)
 * have rows that fit them together (docs/mutex.md, 2a, "Bounds in pairs"): colonelBlotto's `(gt ?x ?y) (gt ?y ?x)`, each
 * fitting its rows alone. Each true atom is a row of its bound (cut to the kept positions), so a θ
 * making both true gives two rows fitting together; a pair with none rules out no θ that exists.
 * The answer is kept per pattern of the two atoms, in the first one's bound.
 */
export function boundPairsFit(bounded: readonly (readonly [Atom, Bound])[], s: Subst): boolean {
  const vars = bounded.map(([a, b]) => new Set(b.keep.flatMap((i) => varsOf(a.args[i]!, s))));
  for (let i = 0; i < bounded.length; i++) {
    for (let j = i + 1; j < bounded.length; j++) {
      // One relation, two shared variables at least (`(gt ?x ?y) (gt ?y ?x)`): a chain through one
      // variable (`(next_rank ?y1 ?v) (next_rank ?v ?y2)`) rarely closes, and checkers' cases are
      // full of them and of pairs of two relations (cost: its lifted proof took 48 processor
      // seconds with every pair sharing a variable, about 1 more than without pairs with these).
      // Two relations when they share three variables at least: checkersTiny's `(kingmove black ?u ?v
      // ?x ?y) (kingjump black ?u ?v ?x ?y)`, a step and a jump between the same squares, took about
      // 200 cases of unfolding (over a second) per pair of `piece_count` rules to close otherwise.
      const shared = [...vars[i]!].filter((v) => vars[j]!.has(v)).length;
      if (shared < (bounded[i]![0].rel === bounded[j]![0].rel ? 2 : 3)) continue;
      if (!pairFits(bounded[i]!, bounded[j]!, s)) return false;
    }
  }
  return true;
}

/** Whether some row of the first bound fits its atom with a row of the second fitting the other (see boundPairsFit). */
function pairFits([a, ba]: readonly [Atom, Bound], [b, bb]: readonly [Atom, Bound], s: Subst): boolean {
  const cut = ba.keep.map((i) => a.args[i]!);
  const names = new Map<string, string>();
  const pattern = `pair ${cut.map((t) => patternText(t, s, names, () => undefined)).join(' ')} / ${b.rel} ${bb.keep.map((i) => patternText(b.args[i]!, s, names, () => undefined)).join(' ')}`;
  const known = ba.memo.get(pattern);
  if (known !== undefined) return known;
  const rows = rowsFor(ba, cut, s);
  const other = bb.keep.map((i) => b.args[i]!);
  const fits = rows.length > MAX_PAIR_ROWS || someRowsFit(rows, cut, bb, other, s);
  ba.memo.set(pattern, fits);
  return fits;
}

/**
 * Whether some row of `rows` fits `cut` with a row of `b` fitting `other` under its bindings. A
 * row's bindings that make `other` ground look its text up; else a bucket of `b` is scanned,
 * until the buckets scanned would pass the rows `other` may take alone: then those rows' values of
 * the variables shared with `cut` are collected once, and each row after that is one look-up. The
 * same answer (a row of `b` fits under the bindings exactly when it fits alone with the same values
 * of the shared variables), at most about twice the rows either way would scan. chess's
 * `(knight_move ?p ?x ?y ?kx ?ky ?o)` against `(legal2 ?o (move ?p ?u ?v ?x ?y))` (the second
 * argument not ground, so indexed by ?o alone): 337 rows each scanning a bucket of 3,808, 1.3
 * million rows and 3.9 processor s of one rule pair of `check`, where one pass over the 7,616 of
 * `legal2` suffices.
 */
function someRowsFit(rows: readonly (readonly Term[])[], cut: readonly Term[], b: Bound, other: readonly Term[], s: Subst): boolean {
  let left: number | undefined;
  let shared: SharedValues | undefined;
  for (const row of rows) {
    // The first atom's bindings are kept apart from `s` (a copy of `s` per row cost checkers 1.4 s).
    const local = new Map<string, Term>();
    if (!cut.every((x, k) => matchesGround(x, row[k]!, s, local))) continue;
    if (shared !== undefined) {
      if (shared.values.has(valuesText(shared.names, local, s))) return true;
      continue;
    }
    // Arguments all ground: one lookup of the row's text. Scanning a bucket with a copy of `local`
    // per row took 6.5 million rows and 2.5 of PROPJOE_S's 3 processor seconds of lifted proofs
    // (held-out 2006, a 5-ary bound of 18,432 rows paired with itself).
    const text = groundText(other, s, local);
    if (text !== undefined) {
      if (rowKeys(b).has(text)) return true;
      continue;
    }
    const bucket = bucketWith(b, other, s, local);
    left ??= rowsFor(b, other, s).length;
    if (bucket.length <= left) {
      left -= bucket.length;
      if (bucket.some((r) => fitsWith(r, other, s, local))) return true;
      continue;
    }
    shared = sharedValues(b, other, s, local);
    if (shared.values.has(valuesText(shared.names, local, s))) return true;
  }
  return false;
}

/** The smallest bucket of `b` by an argument of `cut` ground under `s` and `local` (all rows when none is). */
function bucketWith(b: Bound, cut: readonly Term[], s: Subst, local: ReadonlyMap<string, Term>): readonly (readonly Term[])[] {
  let rows = b.rows;
  cut.forEach((x, i) => {
    const u = walk(x, s);
    const g = u.kind === 'var' ? local.get(u.name) : ground(u, s) ? u : undefined;
    if (g === undefined) return;
    const bucket = b.index[i]!.get(key(g, s)) ?? [];
    if (bucket.length < rows.length) rows = bucket;
  });
  return rows;
}

/** Whether the row fits the arguments (cut) under `s` and the ground bindings `local` (left as they are). */
function fitsWith(row: readonly Term[], cut: readonly Term[], s: Subst, local: ReadonlyMap<string, Term>): boolean {
  const more = new Map(local);
  return cut.every((x, j) => matchesGround(x, row[j]!, s, more));
}

/** The variables an atom shares with the one it is paired with, and their values (texts) over the rows that fit it. */
interface SharedValues {
  readonly names: readonly string[];
  readonly values: ReadonlySet<string>;
}

/** Per row of `b` that fits `cut` under `s` alone, the values of its variables that `local` binds (the first atom's). */
function sharedValues(b: Bound, cut: readonly Term[], s: Subst, local: ReadonlyMap<string, Term>): SharedValues {
  const names = [...new Set(cut.flatMap((t) => varsOf(t, s)))].filter((v) => local.has(v));
  const values = new Set<string>();
  for (const row of rowsFor(b, cut, s)) {
    const mine = new Map<string, Term>();
    if (cut.every((x, j) => matchesGround(x, row[j]!, s, mine))) values.add(valuesText(names, mine, s));
  }
  return { names, values };
}

/** The texts of the variables' ground values in `binding`, joined by spaces. */
function valuesText(names: readonly string[], binding: ReadonlyMap<string, Term>, s: Subst): string {
  return names.map((v) => key(binding.get(v)!, s)).join(' ');
}

/** The text of a row whose arguments (cut) are ground under `s` and `local`, as {@link rowKeys} has it; undefined when one is not. */
function groundText(cut: readonly Term[], s: Subst, local: ReadonlyMap<string, Term>): string | undefined {
  const parts: string[] = [];
  for (const x of cut) {
    const u = walk(x, s);
    const g = u.kind === 'var' ? local.get(u.name) : ground(u, s) ? u : undefined;
    if (g === undefined) return undefined;
    parts.push(key(g, s));
  }
  return parts.join(' ');
}

/** The texts of the bound's rows (their ground arguments' keys joined by spaces), made once per bound. */
function rowKeys(b: Bound): Set<string> {
  const none: Subst = new Map();
  b.keys ??= new Set(b.rows.map((row) => row.map((t) => key(t, none)).join(' ')));
  return b.keys;
}

/**
 * The text of a term under `s` with its variables named by first occurrence (`names`, shared by
 * the atom's arguments); `constrained` is called when the term is not a variable seen first here.
 */
export function patternText(t: Term, s: Subst, names: Map<string, string>, constrained: () => void): string {
  const u = walk(t, s);
  if (u.kind === 'var') {
    const seen = names.get(u.name);
    if (seen !== undefined) constrained();
    return seen ?? (names.set(u.name, `_${names.size}`), `_${names.size - 1}`);
  }
  constrained();
  if (u.kind === 'const') return u.name;
  return `(${u.name} ${u.args.map((a) => patternText(a, s, names, () => undefined)).join(' ')})`;
}

/**
 * Whether `x` under `s` can be made equal to the ground term `g`, binding variables only in
 * `local` (no copy of `s`): a variable bound twice must get equal terms.
 */
export function matchesGround(x: Term, g: Term, s: Subst, local: Map<string, Term>): boolean {
  const stack: [Term, Term][] = [[x, g]];
  while (stack.length > 0) {
    const [x0, h] = stack.pop()!;
    let u = walk(x0, s);
    if (u.kind === 'var') {
      const b = local.get(u.name);
      if (b === undefined) {
        local.set(u.name, h);
        continue;
      }
      u = b;
    }
    if (u.kind === 'var' || u.kind !== h.kind || u.name !== h.name) return false;
    if (u.kind === 'fn' && h.kind === 'fn') {
      if (u.args.length !== h.args.length) return false;
      u.args.forEach((ua, i) => stack.push([ua, h.args[i]!]));
    }
  }
  return true;
}
