/**
 * Sets of term ids as bits. Term ids are dense (`0..size-1`) and the atoms of one relation are
 * mostly interned together (one rule's run, one semi-naive round), so a bit per id over the
 * range a set's ids span is a membership test without hashing: one read of a word near the
 * last one read, where a hash index probes a random slot of a table as large as the set
 * (gt_two_thirds_6p: 721,200 static facts, each inserted into its store's hash index).
 */

/**
 * Membership of term ids: a bit per id over a window of whole words that grows to fit the ids
 * added. {@link add} refuses (returns false, adding nothing) an id that would make the window
 * sparser than its limit of words per id held: the caller then keeps the set another way (a
 * store's hash index), so ids spread over a huge table cost no huge window.
 */
export class IdBits {
  /** The id of the window's first bit, divided by 32. */
  private baseWord = 0;
  private words = new Uint32Array(0);
  private held = 0;

  /**
   * `wordsPerId`: how sparse the window may grow, in words per id held ({@link MAX_WORDS_PER_ID}
   * by default; `Infinity` for a set that must always take its ids, at a bit per id it spans).
   */
  constructor(private readonly wordsPerId = MAX_WORDS_PER_ID) {}

  /** Whether `id` is in the set (false for ids outside the window, negative ones included). */
  has(id: number): boolean {
    const w = (id >> 5) - this.baseWord;
    return id >= 0 && w >= 0 && w < this.words.length && (this.words[w]! & (1 << (id & 31))) !== 0;
  }

  /** Adds `id` (non-negative, not in the set); false, and nothing added, when the window would grow too sparse. */
  add(id: number): boolean {
    let w = (id >> 5) - this.baseWord;
    if (w < 0 || w >= this.words.length) {
      if (!this.cover(id >> 5)) return false;
      w = (id >> 5) - this.baseWord;
    }
    this.words[w] = this.words[w]! | (1 << (id & 31));
    this.held++;
    return true;
  }

  /** Clears the set, keeping its window (a set emptied and refilled, as pending heads are). */
  clear(ids: ArrayLike<number>, n: number): void {
    for (let i = 0; i < n; i++) {
      const w = (ids[i]! >> 5) - this.baseWord;
      if (w >= 0 && w < this.words.length) this.words[w] = 0;
    }
    this.held = 0;
  }

  /** Grows the window to hold word `word` (at least doubling it); false when it would be too sparse. */
  private cover(word: number): boolean {
    const old = this.words.length;
    const lo = old === 0 ? word : Math.min(this.baseWord, word);
    const hi = old === 0 ? word + 1 : Math.max(this.baseWord + old, word + 1);
    const size = Math.max(hi - lo, 2 * old, MIN_WORDS);
    if (size > MIN_WORDS && size > this.wordsPerId * (this.held + 1)) return false;
    // Grown towards the new id: downwards when it lies below the window, else upwards. The
    // first window starts at the first id: ids are interned in ascending order, so the next
    // ones lie above it. (Ending there, it refused the second word with fewer than 7 ids held,
    // and nearly every store fell back to its hash index: gt_two_thirds_6p's 180,901 `sum`
    // atoms over 180,901 consecutive ids, amazons' `does` and `legal`, 173,962 each.)
    const base = word < this.baseWord ? Math.max(0, hi - size) : lo;
    const words = new Uint32Array(size);
    if (old > 0) words.set(this.words, this.baseWord - base);
    this.words = words;
    this.baseWord = base;
    return true;
  }
}

/** The smallest window, in words (1,024 ids), always allowed. */
const MIN_WORDS = 32;

/** A window may span at most this many words (32 ids each) per id held. */
const MAX_WORDS_PER_ID = 8;

/**
 * A set of term ids that only grows, kept in the order added: bits over the window they span
 * ({@link IdBits}), or a hash set once they are spread too thin for one. The supersets' head
 * filters are such sets (amazonsTorus: 1.15 million axiom instances), read once per binding
 * whose head is new: a hash set of numbers that size took a probe of a random slot per look-up
 * and per instance loaded, where a bit is one read of a word.
 */
export class IdSet {
  private readonly bits = new IdBits();
  /** The ids as a hash set, once {@link bits} refused one (then no longer used). */
  private spread: Set<number> | undefined;
  private order = new Int32Array(16);
  private count = 0;

  /** Whether `id` is in the set (false for negative ids). */
  has(id: number): boolean {
    return this.spread === undefined ? this.bits.has(id) : this.spread.has(id);
  }

  /** Adds `id` (non-negative) unless it is there. */
  add(id: number): void {
    if (this.has(id)) return;
    if (this.spread === undefined && !this.bits.add(id)) this.spread = new Set(this.ids());
    this.spread?.add(id);
    if (this.count === this.order.length) {
      const order = new Int32Array(2 * this.count);
      order.set(this.order);
      this.order = order;
    }
    this.order[this.count++] = id;
  }

  /** Number of ids in the set. */
  get size(): number {
    return this.count;
  }

  /** The ids, in the order first added (a view, valid until the next {@link add}). */
  ids(): Int32Array {
    return this.order.subarray(0, this.count);
  }
}
