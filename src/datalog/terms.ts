/**
 * The one table of ground terms: every distinct ground term (constant or compound) gets one
 * integer id, so term equality is id equality and joins hash plain numbers. Symbols (constant,
 * function and relation names) get ids of their own. A ground atom is a term whose functor is
 * its relation symbol (`terminal` is the constant `terminal`), so an atom id is a term id.
 *
 * Storage is flat: per term its functor symbol and a slice of one shared argument pool, found
 * through an open-addressing hash table keyed by (functor, arguments). Finding or creating a
 * term allocates nothing but the pool's growth, which matters in the join's inner loop.
 */
import type { Term } from '../gdl/ast.js';
import { NO_POS } from '../gdl/ast.js';
import { foldTerm } from '../gdl/fold.js';

const NO_ARGS: readonly number[] = Object.freeze([]);

/** Grows a typed array to at least `need` entries (doubling, so appends are amortized O(1)). */
export function grow(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  let n = a.length * 2;
  while (n < need) n *= 2;
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/**
 * Extends a memo array with `undefined` up to `n` entries. Written far past its end, a V8
 * array turns into a dictionary and every later read is a hash lookup; memos are indexed by
 * term id and first written at high ids, so they are filled densely first.
 */
function fillTo<T>(memo: (T | undefined)[], n: number): void {
  while (memo.length < n) memo.push(undefined);
}

/**
 * The reading half of a {@link TermTable}: what a stage that receives terms may do with them
 * (look terms up, take them apart, print them) without adding any. The ground game hands its
 * table to the emitters and simulators through this interface.
 */
export interface TermReader {
  /** Number of terms interned so far. */
  readonly size: number;
  /** The id of a symbol name, or -1 when it was never interned. */
  findSymbol(name: string): number;
  /** The name of symbol `sym`. */
  symbolName(sym: number): string;
  /** Number of symbols interned so far (their ids are `0..symbolCount-1`). */
  readonly symbolCount: number;
  /** The id of `sym(args...)` (the first `n` entries of `args`), or -1 when no such term was interned. */
  find(sym: number, args?: ArrayLike<number>, n?: number): number;
  /** The id of `name(args...)`, or -1 when either the name or the term is unknown. */
  lookup(name: string, args?: ArrayLike<number>): number;
  /** Functor (or constant) symbol of term `id`. */
  functor(id: number): number;
  /** Functor (or constant) name of term `id`. */
  name(id: number): string;
  /** Number of arguments of term `id` (0 for a constant). */
  arity(id: number): number;
  /** Argument `i` (0-based) of term `id`. */
  arg(id: number, i: number): number;
  /** Argument ids of term `id` (empty for a constant). */
  args(id: number): readonly number[];
  /** Id of a ground syntax-tree term, or -1 when it (or a subterm) was never interned. */
  findTerm(term: Term): number;
  /** The syntax-tree term of `id`. */
  toTerm(id: number): Term;
  /** KIF text of term `id` with single spaces, `(cell 1 2 b)`. */
  text(id: number): string;
}

/**
 * The writing half: what an evaluator that makes new terms needs (the pattern matcher of
 * pattern.ts). {@link TermTable} is one; the lazy evaluators of play/ use an overlay over the
 * ground game's read-only table, so that playing never adds to the game's terms.
 */
export interface TermWriter extends TermReader {
  /** The id of a symbol name, created when new. */
  symbol(name: string): number;
  /** The id of `sym(args...)` (the first `n` entries of `args`), created when new. */
  make(sym: number, args?: ArrayLike<number>, n?: number): number;
  /** The id of constant `name`, created when new. */
  constant(name: string): number;
  /** The id of `name(args...)`, created when new. */
  compound(name: string, args: ArrayLike<number>): number;
}

/**
 * An append-only table of ground terms. Ids are dense (`0..size-1`) and never change, so a
 * table may be handed from stage to stage: later stages only add terms. Not thread-safe and
 * not meant to be shared between independent runs.
 */
export class TermTable implements TermWriter {
  private symbolNames: string[] = [];
  private readonly symbolIds = new Map<string, number>();
  private functors: Int32Array<ArrayBuffer>;
  private argStart: Int32Array<ArrayBuffer>;
  private argCount: Int32Array<ArrayBuffer>;
  private pool: Int32Array<ArrayBuffer>;
  private poolSize = 0;
  private count = 0;
  /** Hash slots holding term id + 1 (0 = empty); the length is a power of two. */
  private slots: Int32Array<ArrayBuffer>;
  /** A term's home slot is its hash's top bits, `hash >>> shift` (32 - log2 of the slots). */
  private shift: number;
  /**
   * Each term's hash, so that growing the slots reads no argument pool (gt_two_thirds_6p: 10⁶
   * terms re-placed by the doublings, each hash re-read from scattered pool entries).
   */
  private hashes: Int32Array<ArrayBuffer>;
  /** The empty slot where the last {@link find} that missed ended, and the hash it probed: {@link make} inserts there. */
  private free = -1;
  private freeHash = 0;
  private readonly asts: (Term | undefined)[] = [];
  private readonly texts: (string | undefined)[] = [];
  private readonly argLists: (readonly number[] | undefined)[] = [];

  /**
   * An empty table with room for `terms` terms and `argEntries` arguments in all (a caller that
   * knows how many it will intern: each typed array allocated once instead of doubled from 1024,
   * since every array allocated counts towards V8's next full collection, which walks the whole
   * heap). Ids and order are the same whatever the room.
   */
  constructor(terms = 1024, argEntries = 4 * terms) {
    const n = Math.max(1024, terms);
    this.functors = new Int32Array(n);
    this.argStart = new Int32Array(n);
    this.argCount = new Int32Array(n);
    this.hashes = new Int32Array(n);
    this.pool = new Int32Array(Math.max(4096, argEntries));
    // Under one half full, as add keeps it.
    let slots = 2048;
    while (slots < 2 * n) slots *= 2;
    this.slots = new Int32Array(slots);
    this.shift = Math.clz32(slots) + 1;
  }

  /**
   * A copy with room for `moreTerms` terms and `moreArgs` argument entries more: the same ids and
   * symbols, no memoized texts or trees. Each instantiation run starts from one of the superset
   * stage's table (src/reach/handover.ts): a run adds terms, and supersets may be ground twice.
   */
  clone(moreTerms = 0, moreArgs = 0): TermTable {
    const c = new TermTable(this.count + moreTerms, this.poolSize + moreArgs);
    c.symbolNames = [...this.symbolNames];
    for (let i = 0; i < c.symbolNames.length; i++) c.symbolIds.set(c.symbolNames[i]!, i);
    for (const [to, from] of [[c.functors, this.functors], [c.argStart, this.argStart], [c.argCount, this.argCount], [c.hashes, this.hashes]] as const) to.set(from.subarray(0, this.count));
    c.pool.set(this.pool.subarray(0, this.poolSize));
    [c.poolSize, c.count] = [this.poolSize, this.count];
    // Placed anew from the hashes: the copy may have more slots.
    const mask = c.slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let s = c.hashes[id]! >>> c.shift;
      while (c.slots[s] !== 0) s = (s + 1) & mask;
      c.slots[s] = id + 1;
    }
    return c;
  }

  /** Number of terms interned so far. */
  get size(): number {
    return this.count;
  }

  /** Number of symbols interned so far. */
  get symbolCount(): number {
    return this.symbolNames.length;
  }

  /** The id of a symbol name, created when new. */
  symbol(name: string): number {
    let id = this.symbolIds.get(name);
    if (id === undefined) {
      id = this.symbolNames.length;
      this.symbolNames.push(name);
      this.symbolIds.set(name, id);
    }
    return id;
  }

  /** The id of a symbol name, or -1 when it was never interned. */
  findSymbol(name: string): number {
    return this.symbolIds.get(name) ?? -1;
  }

  /** The name of symbol `sym`. */
  symbolName(sym: number): string {
    return this.symbolNames[sym]!;
  }

  /**
   * The id of `sym(args...)` (a constant when `args` is empty), created when new. `n`: only the
   * first `n` entries of `args` are the arguments (so callers can reuse one buffer).
   */
  make(sym: number, args: ArrayLike<number> = NO_ARGS, n = args.length): number {
    const found = this.find(sym, args, n);
    return found >= 0 ? found : this.add(sym, args, n, this.free);
  }

  /** The id of constant `name`, created when new. */
  constant(name: string): number {
    return this.make(this.symbol(name), NO_ARGS);
  }

  /** The id of `name(args...)`, created when new. */
  compound(name: string, args: ArrayLike<number>): number {
    return this.make(this.symbol(name), args);
  }

  /** The id of `sym(args...)` (the first `n` entries of `args`), or -1 when never interned. */
  find(sym: number, args: ArrayLike<number> = NO_ARGS, n = args.length): number {
    const mask = this.slots.length - 1;
    const h = this.hash(sym, args, n);
    for (let s = h >>> this.shift; ; s = (s + 1) & mask) {
      const v = this.slots[s]!;
      if (v === 0) {
        this.free = s;
        this.freeHash = h;
        return -1;
      }
      // The stored hash first: most slots of the chain hold another term.
      if (this.hashes[v - 1] === h && this.matches(v - 1, sym, args, n)) return v - 1;
    }
  }

  /** The id of `name(args...)`, or -1 when either the name or the term is unknown. */
  lookup(name: string, args: ArrayLike<number> = NO_ARGS): number {
    const sym = this.findSymbol(name);
    return sym < 0 ? -1 : this.find(sym, args);
  }

  /** Functor (or constant) symbol of term `id`. */
  functor(id: number): number {
    return this.functors[id]!;
  }

  /** Functor (or constant) name of term `id`. */
  name(id: number): string {
    return this.symbolNames[this.functors[id]!]!;
  }

  /** Number of arguments of term `id` (0 for a constant). */
  arity(id: number): number {
    return this.argCount[id]!;
  }

  /** Argument `i` (0-based) of term `id`. */
  arg(id: number, i: number): number {
    return this.pool[this.argStart[id]! + i]!;
  }

  /** Argument ids of term `id` (a frozen array, memoized; empty for a constant). */
  args(id: number): readonly number[] {
    const n = this.argCount[id]!;
    if (n === 0) return NO_ARGS;
    let list = this.argLists[id];
    if (list === undefined) {
      const start = this.argStart[id]!;
      list = Object.freeze(Array.from(this.pool.subarray(start, start + n)));
      fillTo(this.argLists, id + 1);
      this.argLists[id] = list;
    }
    return list;
  }

  /** Interns a ground syntax-tree term (iteratively: terms nest deep); throws on a variable. */
  fromTerm(term: Term): number {
    if (term.kind === 'const') return this.make(this.symbol(term.name), NO_ARGS);
    return foldTerm<number>(term, (t, args) => {
      if (t.kind === 'var') throw new Error(`TermTable: variable ${t.name} in a ground term`);
      return this.make(this.symbol(t.name), args);
    });
  }

  /** Id of a ground syntax-tree term, or -1 when it (or a subterm) was never interned. */
  findTerm(term: Term): number {
    return foldTerm<number>(term, (t, args) => {
      if (t.kind === 'var' || args.includes(-1)) return -1;
      const sym = this.findSymbol(t.name);
      return sym < 0 ? -1 : this.find(sym, args);
    });
  }

  /** The syntax-tree term of `id` (memoized; shared subterms are shared objects). */
  toTerm(root: number): Term {
    return this.postOrder(root, this.asts, (id) => {
      const name = this.name(id);
      return this.argCount[id] === 0
        ? { kind: 'const', name, pos: NO_POS }
        : { kind: 'fn', name, args: this.args(id).map((a) => this.asts[a]!), pos: NO_POS };
    });
  }

  /** KIF text of term `id` with single spaces, `(cell 1 2 b)` (memoized). */
  text(root: number): string {
    return this.postOrder(root, this.texts, (id) => {
      const name = this.name(id);
      const n = this.argCount[id]!;
      if (n === 0) return name;
      const parts = [`(${name}`];
      for (let i = 0; i < n; i++) parts.push(this.texts[this.arg(id, i)]!);
      return `${parts.join(' ')})`;
    });
  }

  /**
   * The value of `root` in `memo`, computed bottom-up without recursion (terms nest thousands
   * deep): `make(id)` runs once all of id's arguments have their value in `memo`.
   */
  private postOrder<T>(root: number, memo: (T | undefined)[], make: (id: number) => T): T {
    const done = memo[root];
    if (done !== undefined) return done;
    // A term's arguments were interned before it (lower ids), so the walk writes no id past the
    // root's: filling the memo up to the table's size made a million-entry array for the text
    // of a constant (the text order's segments, amazons: 1.4 million terms, 20 ms).
    fillTo(memo, root + 1);
    const stack: number[] = [root];
    while (stack.length > 0) {
      const id = stack[stack.length - 1]!;
      if (memo[id] !== undefined) {
        stack.pop();
        continue;
      }
      const start = this.argStart[id]!;
      let missing = false;
      for (let i = this.argCount[id]! - 1; i >= 0; i--) {
        const a = this.pool[start + i]!;
        if (memo[a] === undefined) {
          stack.push(a);
          missing = true;
        }
      }
      if (missing) continue;
      stack.pop();
      memo[id] = make(id);
    }
    return memo[root]!;
  }

  /** The hash of `sym(args...)`, as a signed 32-bit integer (what {@link hashes} holds). */
  private hash(sym: number, args: ArrayLike<number>, n: number): number {
    let h = Math.imul(sym + 0x27d4eb2d, 0x9e3779b1) ^ n;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ args[i]!, 0x85ebca6b) + 0x1b873593;
    h ^= h >>> 15;
    return Math.imul(h, 0xc2b2ae35);
  }

  private matches(id: number, sym: number, args: ArrayLike<number>, n: number): boolean {
    if (this.functors[id] !== sym || this.argCount[id] !== n) return false;
    const start = this.argStart[id]!;
    for (let i = 0; i < n; i++) if (this.pool[start + i] !== args[i]) return false;
    return true;
  }

  /** Adds a term that {@link find} just missed, into `slot`, the empty slot where that probe ended. */
  private add(sym: number, args: ArrayLike<number>, n: number, slot: number): number {
    const id = this.count++;
    if (id >= this.functors.length) {
      this.functors = grow(this.functors, id + 1);
      this.argStart = grow(this.argStart, id + 1);
      this.argCount = grow(this.argCount, id + 1);
      this.hashes = grow(this.hashes, id + 1);
    }
    this.pool = grow(this.pool, this.poolSize + n);
    this.functors[id] = sym;
    this.argStart[id] = this.poolSize;
    this.argCount[id] = n;
    for (let i = 0; i < n; i++) this.pool[this.poolSize++] = args[i]!;
    this.hashes[id] = this.freeHash;
    // Keep the load factor under one half so probe runs stay short.
    if (this.count * 2 > this.slots.length) this.rehash(id);
    else this.slots[slot] = id + 1;
    return id;
  }

  /**
   * Doubles the slots. Homes are the hashes' top bits, so the old slots, read in order, are
   * written in order (each term at or just after the one before it): one pass over the new
   * slots instead of a cache miss per term. Only the hashes are read out of order. `added`, the
   * term just added, is in no slot yet: it is placed last.
   */
  private rehash(added: number): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length - 1;
    const hashes = this.hashes;
    this.shift--;
    for (let t = 0; t < old.length; t++) {
      const v = old[t]!;
      if (v === 0) continue;
      let s = hashes[v - 1]! >>> this.shift;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = v;
    }
    let s = hashes[added]! >>> this.shift;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = added + 1;
    this.slots = slots;
  }
}
