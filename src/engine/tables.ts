/**
 * The storage of the engine's tables of ground facts (`own.ts` answers calls on them): every
 * fact's arguments in one flat array per table, `arity` entries a fact, and hash indexes that
 * map the arguments' keys to row numbers. Not an array per fact: a table's facts live as long
 * as the engine, and amazons' superset stage kept 560,000 such arrays (65 of its 88 MiB of
 * heap), each copied twice by the young generation's collector before it settled; a flat
 * array past a few thousand entries is allocated where the collector never copies it, and
 * rows in the indexes are small integers, which it does not trace. Like `own.ts`, this module
 * does not import tau-prolog.
 */
import type { TauTerm } from './term.js';

/** A table of ground facts answered from JavaScript. */
export interface JsTable {
  readonly arity: number;
  /**
   * The facts' arguments, fact after fact, in the order added. Replaced, never emptied, when
   * the table is cleared: an enumeration under way keeps reading the array it started on.
   */
  data: TauTerm[];
  /** Number of facts (a table of arity 0 holds its one fact in no entry of `data`). */
  count: number;
  /**
   * The bitmasks of bound argument positions that have an index, and the indexes, at the same
   * positions (see {@link Index}). Arrays, not a map: a table has a few, and every fact added
   * walks them all.
   */
  masks: number[];
  indexes: Index[];
  /** The indexes that reach inside a compound argument (see {@link InnerIndex}). */
  inner: InnerIndex[];
  /** Tables holding the distinct projections of this one's facts, kept up to date. */
  readonly projections: Projection[];
}

/**
 * An index of a table on some argument positions: a map from the KIF text of the first
 * position's argument to the next position's map, and so on, the last one's to the rows of the
 * facts, ascending. Maps nested by position rather than one map keyed by the texts joined: a
 * look-up then makes no string (kalaha_2009's calls of `plus` bind two arguments), and the
 * texts' hashes are cached in them.
 */
type Index = Map<string, Index | number[]>;

/**
 * An index on the arguments in `mask` and, inside argument `at` when it is a compound term
 * `name/arity`, on that term's arguments in `inner`: keyed on the first ones' texts in order,
 * then the inner ones'. Only facts whose argument `at` has that functor are in it (no other
 * fact unifies with a call that has it there). A call like `legal2(P, move(Pc, U, V, 'e', '4'))`
 * (chess's relaxed legal rules, a move's destination bound) otherwise has only the player, or
 * nothing, to look up by, and tries every move of the table. Its rows are ascending like any
 * index's, so a call answers in the same order whichever index serves it.
 */
interface InnerIndex {
  readonly mask: number;
  readonly at: number;
  readonly name: string;
  readonly arity: number;
  readonly inner: number;
  readonly index: Index;
}

/** Where a call's bound arguments inside a compound argument are (see {@link InnerIndex}). */
export interface InnerKey {
  readonly at: number;
  readonly name: string;
  readonly arity: number;
  readonly inner: number;
}

/** A projection of a table onto some argument positions: each distinct tuple once. */
interface Projection {
  readonly keep: readonly number[];
  readonly table: JsTable;
  readonly seen: Set<string>;
  /** Seen tuples survive the base being emptied (see `ProjectionHistory` in types.ts). */
  readonly lasting: boolean;
}

/** Argument positions an index can cover (a bit each in a 32-bit mask). */
export const MAX_INDEXED = 30;

/** Shared, never-modified empty row list. */
const NO_ROWS: readonly number[] = Object.freeze([]);

/** The operations on tables, with `keyOf` the (cached) KIF text of a ground term, the indexes' key. */
export function tableStore(keyOf: (t: TauTerm) => string) {
  // The arguments of a projected tuple, copied into the projection's table (which copies them).
  let scratch: TauTerm[] = [];

  function create(arity: number): JsTable {
    return { arity, data: [], count: 0, masks: [], indexes: [], inner: [], projections: [] };
  }

  /** Adds the fact whose arguments are `args[from]`, ..., `args[from + arity - 1]` (copied). */
  function add(table: JsTable, args: readonly TauTerm[], from: number): void {
    const row = table.count++;
    const data = table.data;
    for (let i = 0; i < table.arity; i++) data.push(args[from + i]!);
    for (let k = 0; k < table.masks.length; k++) addToIndex(table, table.indexes[k]!, table.masks[k]!, row);
    for (let k = 0; k < table.inner.length; k++) addToInner(table, table.inner[k]!, row);
    for (let k = 0; k < table.projections.length; k++) project(table.projections[k]!, data, row * table.arity);
  }

  /** The index of a table on the arguments in `mask`, built on first use. */
  function indexFor(table: JsTable, mask: number): Index {
    const k = table.masks.indexOf(mask);
    if (k >= 0) return table.indexes[k]!;
    const index: Index = new Map();
    table.masks.push(mask);
    table.indexes.push(index);
    for (let row = 0; row < table.count; row++) addToIndex(table, index, mask, row);
    return index;
  }

  /** The rows of `index` (on `mask`) whose facts agree with `args` at the positions of `mask`. */
  function indexed(index: Index, mask: number, args: readonly (TauTerm | null | undefined)[]): readonly number[] {
    let node: Index | number[] | undefined = index;
    // Up to the highest bound position, not MAX_INDEXED: a call binds its first few arguments.
    for (let i = 0, rest = mask; rest !== 0 && node !== undefined; i++, rest >>>= 1) {
      if ((rest & 1) !== 0) node = (node as Index).get(keyOf(args[i]!));
    }
    return (node as number[] | undefined) ?? NO_ROWS;
  }

  function addToIndex(table: JsTable, index: Index, mask: number, row: number): void {
    const base = row * table.arity;
    // The level of each indexed position but the last: a map from its key to the next level.
    let node = index;
    const last = 31 - Math.clz32(mask);
    for (let i = 0; i < last; i++) {
      if ((mask & (1 << i)) === 0) continue;
      const key = keyOf(table.data[base + i]!);
      let next = node.get(key) as Index | undefined;
      if (next === undefined) node.set(key, (next = new Map()));
      node = next;
    }
    const key = keyOf(table.data[base + last]!);
    const list = node.get(key) as number[] | undefined;
    if (list === undefined) node.set(key, [row]);
    else list.push(row);
  }

  /** The index of a table on the arguments in `mask` and those of `key` inside one, built on first use. */
  function innerIndexFor(table: JsTable, mask: number, key: InnerKey): InnerIndex {
    for (const x of table.inner) if (x.mask === mask && x.at === key.at && x.name === key.name && x.arity === key.arity && x.inner === key.inner) return x;
    const x: InnerIndex = { mask, ...key, index: new Map() };
    table.inner.push(x);
    for (let row = 0; row < table.count; row++) addToInner(table, x, row);
    return x;
  }

  /**
   * The rows of `x` whose facts agree with `args` at the positions of its mask and, inside
   * `args[x.at]`, at the inner positions.
   */
  function innerIndexed(x: InnerIndex, args: readonly TauTerm[]): readonly number[] {
    const keys = innerKeys(x, args, 0, innerArgs(args[x.at]!));
    let node: Index | number[] | undefined = x.index;
    for (let k = 0; k < keys.length && node !== undefined; k++) node = (node as Index).get(keys[k]!);
    return (node as number[] | undefined) ?? NO_ROWS;
  }

  function addToInner(table: JsTable, x: InnerIndex, row: number): void {
    const base = row * table.arity;
    const inner = innerArgs(table.data[base + x.at]!);
    // A fact with another term there unifies with no call this index serves.
    if (inner === undefined || (table.data[base + x.at] as unknown as { id: string }).id !== x.name || inner.length !== x.arity) return;
    const keys = innerKeys(x, table.data, base, inner);
    let node = x.index;
    for (let k = 0; k < keys.length - 1; k++) {
      let next = node.get(keys[k]!) as Index | undefined;
      if (next === undefined) node.set(keys[k]!, (next = new Map()));
      node = next;
    }
    const list = node.get(keys[keys.length - 1]!) as number[] | undefined;
    if (list === undefined) node.set(keys[keys.length - 1]!, [row]);
    else list.push(row);
  }

  /** The keys of an inner index for the arguments at `args[base]`...: the mask's, then the inner ones'. */
  function innerKeys(x: InnerIndex, args: readonly TauTerm[], base: number, inner: readonly TauTerm[] | undefined): string[] {
    const keys: string[] = [];
    for (let i = 0, rest = x.mask; rest !== 0; i++, rest >>>= 1) if ((rest & 1) !== 0) keys.push(keyOf(args[base + i]!));
    for (let j = 0, rest = x.inner; rest !== 0; j++, rest >>>= 1) if ((rest & 1) !== 0) keys.push(keyOf(inner![j]!));
    return keys;
  }

  /** True when the table has a fact agreeing with every non-null argument of `pattern`. */
  function has(table: JsTable, pattern: readonly (TauTerm | null)[]): boolean {
    let mask = 0;
    for (let i = 0; i < Math.min(pattern.length, MAX_INDEXED); i++) if (pattern[i] !== null && pattern[i] !== undefined) mask |= 1 << i;
    if (mask === 0) return table.count > 0;
    return indexed(indexFor(table, mask), mask, pattern).length > 0;
  }

  /** Adds the projection of the fact at `data[base]` to `p`'s table unless its tuple was seen. */
  function project(p: Projection, data: readonly TauTerm[], base: number): void {
    const key = projectionKey(p.keep, data, base);
    if (p.seen.has(key)) return;
    p.seen.add(key);
    for (let j = 0; j < p.keep.length; j++) scratch[j] = data[base + p.keep[j]!]!;
    add(p.table, scratch, 0);
  }

  /** The key of a projected tuple among those seen: its arguments' texts joined by NUL (one: its own). */
  function projectionKey(keep: readonly number[], data: readonly TauTerm[], base: number): string {
    let key = keyOf(data[base + keep[0]!]!);
    for (let j = 1; j < keep.length; j++) key += `\u0000${keyOf(data[base + keep[j]!]!)}`;
    return key;
  }

  /**
   * Makes `to` the projection of `from` onto the positions `keep`: each distinct tuple once,
   * now and as `from` grows; the tuples of the first `before.count` facts of table
   * `before.table` count as seen, and survive `from` being emptied, when `before` is given.
   */
  function projectInto(from: JsTable, keep: readonly number[], to: JsTable, before?: { readonly table: JsTable; readonly count: number }): void {
    if (scratch.length < keep.length) scratch = new Array<TauTerm>(keep.length);
    const seen = new Set<string>();
    if (before !== undefined) {
      const t = before.table;
      for (let row = 0; row < before.count; row++) seen.add(projectionKey(keep, t.data, row * t.arity));
    }
    const p: Projection = { keep, table: to, seen, lasting: before !== undefined };
    from.projections.push(p);
    for (let row = 0; row < from.count; row++) project(p, from.data, row * from.arity);
  }

  /** Empties a table and its projections (whose seen tuples go too, unless lasting). */
  function clear(table: JsTable): void {
    empty(table);
    for (const p of table.projections) {
      if (!p.lasting) p.seen.clear();
      empty(p.table);
    }
  }

  return { create, add, indexFor, indexed, innerIndexFor, innerIndexed, has, projectInto, clear };
}

/** A table without facts or indexes (its projections are the caller's). */
function empty(table: JsTable): void {
  table.data = [];
  table.count = 0;
  table.masks = [];
  table.indexes = [];
  table.inner = [];
}

/** The arguments of a compound term (undefined for a constant or a number). */
function innerArgs(t: TauTerm): readonly TauTerm[] | undefined {
  const args = (t as unknown as { args?: readonly TauTerm[] }).args;
  return args === undefined || args.length === 0 ? undefined : args;
}
