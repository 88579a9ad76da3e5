/**
 * A set of bitset states of one game, numbered in the order added, stored in one growing array
 * of words and found by an open-addressing hash table: the breadth-first search of
 * reachable.ts keeps up to a million states, which as one typed array and one key string each
 * cost about ten times the memory and most of the search's time in garbage collection.
 */
import type { GroundState } from './ground-sim.js';

/** Table slots per state at most (the table doubles past it). */
const LOAD = 0.5;

/** A 32-bit hash of `words` words of `data` from `at` (FNV-1a over words, then a final mix). */
function hashWords(data: Uint32Array, at: number, words: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < words; i++) h = Math.imul(h ^ data[at + i]!, 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

/** Distinct states, each numbered by when it was first added (0: the first). */
export class StateSet {
  private readonly words: number;
  private data: Uint32Array;
  /**
   * Per state, its hash: the table doubles about 20 times on the way to a million states, and
   * hashing every state again at each took a tenth of snake_2009's search; a probe compares the
   * hashes before the words.
   */
  private hashes: Uint32Array;
  /** Per slot, the number of the state in it plus one; 0 for an empty slot. */
  private table: Int32Array;
  private count = 0;

  /** A set holding `first` (state 0); every state added must have as many words. */
  constructor(first: GroundState) {
    this.words = first.length;
    this.data = new Uint32Array(Math.max(1, this.words) * 1024);
    this.hashes = new Uint32Array(1024);
    this.table = new Int32Array(2048);
    this.add(first);
  }

  /** The number of states. */
  get size(): number {
    return this.count;
  }

  /** Adds `state` (copied); true when it was not in the set. */
  add(state: GroundState): boolean {
    const w = this.words;
    if (this.count * w + w > this.data.length) this.grow();
    // Written past the last state first, so that it is compared and hashed where it will stay.
    this.data.set(state, this.count * w);
    const mask = this.table.length - 1;
    const hash = hashWords(this.data, this.count * w, w);
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = this.table[slot]!;
      if (at === 0) {
        this.hashes[this.count] = hash;
        this.table[slot] = ++this.count;
        if (this.count > this.table.length * LOAD) this.rehash();
        return true;
      }
      if (this.hashes[at - 1] === hash && this.sameAs(at - 1)) return false;
    }
  }

  /** Copies state `i` into `into` (as many words as a state) and returns it: no view made. */
  copyState(i: number, into: GroundState): GroundState {
    const w = this.words;
    for (let k = 0, at = i * w; k < w; k++) into[k] = this.data[at + k]!;
    return into;
  }

  /** State `i` (a view of the set's storage: valid until the next {@link add}; copy it to keep it). */
  state(i: number): GroundState {
    return this.data.subarray(i * this.words, (i + 1) * this.words);
  }

  /** The first `limit` states (default all), in the order added, through `map` (which sees each as a view, see {@link state}). */
  all<T>(map: (state: GroundState) => T, limit = this.count): T[] {
    const out: T[] = [];
    for (let i = 0; i < Math.min(limit, this.count); i++) out.push(map(this.state(i)));
    return out;
  }

  /** Whether state `i` equals the words just written past the last state. */
  private sameAs(i: number): boolean {
    const w = this.words;
    const a = i * w;
    const b = this.count * w;
    for (let k = 0; k < w; k++) if (this.data[a + k] !== this.data[b + k]) return false;
    return true;
  }

  private grow(): void {
    const bigger = new Uint32Array(this.data.length * 2);
    bigger.set(this.data);
    this.data = bigger;
    const hashes = new Uint32Array(this.hashes.length * 2);
    hashes.set(this.hashes);
    this.hashes = hashes;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let i = 0; i < this.count; i++) {
      let slot = this.hashes[i]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = i + 1;
    }
    this.table = table;
  }
}
