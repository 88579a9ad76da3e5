/**
 * The ground rules' text made as UTF-8 bytes rather than strings (issue 27: peak memory per
 * million rules). Each atom's text is encoded once into one byte array, straight from the term
 * table (no string per atom or per term), and each rule line is copied into a reused buffer
 * that becomes one string per chunk. Before, every atom's text, and its text with a leading
 * space and with `(not ...)`, was a string kept for the whole write, and every line a chain of
 * concatenated strings that outlived the young generation: on amazons the heap grew by 150-190
 * MiB while writing 91 MB of text, the largest step of the run's peak.
 */
import type { GroundGame } from '../../ground/types.js';

/** The term table of a ground game (what it may read of it). */
type TermReader = GroundGame['terms'];

const OPEN = 0x28;
const CLOSE = 0x29;
const SPACE = 0x20;

/**
 * The text of UTF-8 chunks as one string (the string writers beside each byte writer). Decoded
 * as one stream, so a chunk that ended inside a character would still decode right.
 */
export function decodeChunks(chunks: Iterable<Uint8Array>): string {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for (const bytes of chunks) parts.push(decoder.decode(bytes, { stream: true }));
  parts.push(decoder.decode());
  return parts.join('');
}

/** Copies `src[from .. to)` into `dst` at `at`; returns the position after them. */
export function putBytes(dst: Uint8Array, at: number, src: Uint8Array, from: number, to: number): number {
  // Atom texts are short: a loop beats making a subarray per literal.
  if (to - from < 64) {
    for (let k = from; k < to; k++) dst[at++] = src[k]!;
    return at;
  }
  dst.set(src.subarray(from, to), at);
  return at + to - from;
}

/**
 * Bytes {@link putWords} may read past a piece's end and write past it: a source it reads is
 * that much longer than its texts, and a caller asks for that much more room.
 */
export const WORD_SLACK = 3;

/** A view of all of `bytes`, to read and write it four bytes at a time. */
export function wordView(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Copies `src[from .. to)` into `dst` at `at` four bytes at a time (a third of the time of a
 * byte loop on atom texts of 20 to 30 bytes); returns the position after them. It reads up to
 * {@link WORD_SLACK} bytes past `to` and writes as many past the copy, which the caller then
 * overwrites or leaves past the buffer's length. The bytes are read and written little-endian,
 * so their order is kept whatever the host's.
 */
export function putWords(dst: DataView, at: number, src: DataView, from: number, to: number): number {
  for (let k = from; k < to; k += 4) dst.setUint32(at + k - from, src.getUint32(k, true), true);
  return at + to - from;
}

/** A growing byte buffer that text is appended to; {@link take} hands over what it holds. */
export class ByteLines {
  private bytes: Uint8Array<ArrayBuffer>;
  /** A view of `bytes` (made again when it grows), for {@link putWords}. */
  private words: DataView;
  /** Bytes held: `bytes[0 .. length)`. */
  length = 0;
  private readonly encoder = new TextEncoder();

  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(Math.max(16, capacity));
    this.words = wordView(this.bytes);
  }

  /** Room for `n` more bytes. */
  private ensure(n: number): void {
    const need = this.length + n;
    if (need <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < need) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.words = wordView(grown);
  }

  /**
   * The buffer, with room for `n` more bytes at `length`: a caller writing a whole line fills
   * them itself and sets `length`, without a call and a bounds check per piece.
   */
  room(n: number): Uint8Array {
    this.ensure(n);
    return this.bytes;
  }

  /** The view of the buffer {@link room} returned last, for {@link putWords}. */
  view(): DataView {
    return this.words;
  }

  /** Appends one byte (ASCII). */
  byte(b: number): void {
    this.ensure(1);
    this.bytes[this.length++] = b;
  }

  /** Appends `src[from .. to)`. */
  copy(src: Uint8Array, from: number, to: number): void {
    this.ensure(to - from);
    const bytes = this.bytes;
    this.length = putBytes(bytes, this.length, src, from, to);
  }

  /** Appends `text` in UTF-8. */
  text(text: string): void {
    // At most three bytes per UTF-16 unit.
    this.ensure(3 * text.length);
    this.length += this.encoder.encodeInto(text, this.bytes.subarray(this.length)).written;
  }

  /** The bytes held, and the buffer emptied: a view, valid until the next append. */
  take(): Uint8Array {
    const held = this.bytes.subarray(0, this.length);
    this.length = 0;
    return held;
  }
}

/**
 * The UTF-8 text of terms, each one after the other: term `i` of the list is `bytes[start[i] ..
 * start[i + 1])`; `bytes` ends with {@link WORD_SLACK} bytes more, for {@link putWords}.
 */
export interface TermBytes {
  readonly bytes: Uint8Array;
  readonly start: Int32Array;
}

/**
 * The KIF texts of `roots` (term ids of `terms`) as {@link TermBytes}, byte for byte what
 * `terms.text` gives (`(f a b)`, single spaces), written without recursion (terms nest deep)
 * and without a string per term: only each symbol's name is encoded, once. The texts' lengths
 * are summed first, so the bytes are one array of their exact size (growing it by doublings and
 * copying it out allocated four times its size, and each 64 MiB of such memory starts a full
 * collection of the heap). A compound term is walked once: its bytes, where they were first
 * written, are copied for every later occurrence (the `(move ...)` of a `legal` and of its
 * `does`, the `(cell ...)` of a `true` and of its `next`).
 */
export function termBytes(terms: TermReader, roots: ArrayLike<number>): TermBytes {
  const names = symbolBytes(terms);
  const sizes = textSizes(terms, names);
  const start = new Int32Array(roots.length + 1);
  for (let i = 0; i < roots.length; i++) start[i + 1] = start[i]! + sizes(roots[i]!);
  const bytes = new Uint8Array(start[roots.length]! + WORD_SLACK);
  writeTexts(terms, names, sizes, roots, bytes);
  return { bytes, start };
}

/**
 * Writes the texts of `roots` one after the other into `bytes` (sized for them). One loop with
 * its position in a local variable: written by closures, the position lived in a context
 * object, read and written through memory at every byte (most of the texts' time).
 */
function writeTexts(terms: TermReader, names: SymbolBytes, sizes: (t: number) => number, roots: ArrayLike<number>, bytes: Uint8Array): void {
  const nameStart = names.start;
  // Names and earlier texts are copied four bytes at a time: both arrays have the slack for it,
  // and a text is repeated only once it is complete, before the position written.
  const nameWords = wordView(names.bytes);
  const words = wordView(bytes);
  // Where each compound term's bytes were first written (-1: not yet); their length is `sizes`'.
  const at = new Int32Array(terms.size).fill(-1);
  // Pairs (compound term, next argument to write).
  const stack = new PairStack();
  let p = 0;
  for (let i = 0; i < roots.length; i++) {
    // The term to write next (-1: none, go on with the open term on top of the stack).
    let t = roots[i]!;
    for (;;) {
      if (t >= 0) {
        const n = terms.arity(t);
        const from = n === 0 ? -1 : at[t]!;
        if (from !== -1) {
          p = putWords(words, p, words, from, from + sizes(t));
        } else {
          if (n > 0) {
            at[t] = p;
            bytes[p++] = OPEN;
            stack.push(t);
          }
          const f = terms.functor(t);
          p = putWords(words, p, nameWords, nameStart[f]!, nameStart[f + 1]!);
        }
        t = -1;
      }
      if (stack.depth === 0) break;
      const open = stack.term();
      const next = stack.advance();
      if (next === terms.arity(open)) {
        bytes[p++] = CLOSE;
        stack.pop();
        continue;
      }
      bytes[p++] = SPACE;
      t = terms.arg(open, next);
    }
  }
}

/**
 * A stack of pairs (a value, a counter from 0) in one typed array: a plain array truncated by
 * setting its length gave its room back and took it again on the next push, an allocation
 * per term (most of the texts' time).
 */
class PairStack {
  private items = new Int32Array(64);
  /** Pairs held. */
  depth = 0;

  /** Pushes `value` with its counter at 0. */
  push(value: number): void {
    if (2 * this.depth + 2 > this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[2 * this.depth] = value;
    this.items[2 * this.depth + 1] = 0;
    this.depth++;
  }

  /** The value on top. */
  term(): number {
    return this.items[2 * this.depth - 2]!;
  }

  /** The top's counter, which then goes up by one. */
  advance(): number {
    return this.items[2 * this.depth - 1]!++;
  }

  /** Adds `n` to the value on top. */
  add(n: number): void {
    this.items[2 * this.depth - 2]! += n;
  }

  /** Drops the top pair. */
  pop(): void {
    this.depth--;
  }
}

/**
 * The length of each term's text in bytes, memoized per compound term: a function of the
 * term id, computed without recursion the first time it is asked for.
 */
function textSizes(terms: TermReader, names: SymbolBytes): (t: number) => number {
  const nameStart = names.start;
  const nameLength = (sym: number): number => nameStart[sym + 1]! - nameStart[sym]!;
  // 0: not known yet (every text has at least one byte).
  const size = new Int32Array(terms.size);
  // Per open term: its next argument, and the sum of its text's bytes known so far.
  const stack = new PairStack();
  const sum = new PairStack();
  const known = (t: number): number => (terms.arity(t) === 0 ? nameLength(terms.functor(t)) : size[t]!);
  const open = (t: number): void => {
    stack.push(t);
    // Parentheses, the name, a space before each argument.
    sum.push(2 + nameLength(terms.functor(t)) + terms.arity(t));
  };
  return (root: number): number => {
    const s = known(root);
    if (s !== 0) return s;
    open(root);
    while (stack.depth > 0) {
      const t = stack.term();
      const next = stack.advance();
      if (next === terms.arity(t)) {
        const total = sum.term();
        size[t] = total;
        stack.pop();
        sum.pop();
        if (sum.depth > 0) sum.add(total);
        continue;
      }
      const a = terms.arg(t, next);
      const k = known(a);
      if (k !== 0) sum.add(k);
      else open(a);
    }
    return size[root]!;
  };
}

/** Each symbol's name in UTF-8: symbol `s`'s is `bytes[start[s] .. start[s + 1])`. */
interface SymbolBytes {
  readonly bytes: Uint8Array;
  readonly start: Int32Array;
}

/** Each symbol's name in UTF-8, by symbol id, in one array ({@link WORD_SLACK} bytes longer). */
function symbolBytes(terms: TermReader): SymbolBytes {
  const encoder = new TextEncoder();
  const names: Uint8Array[] = [];
  const start = new Int32Array(terms.symbolCount + 1);
  for (let sym = 0; sym < terms.symbolCount; sym++) {
    names.push(encoder.encode(terms.symbolName(sym)));
    start[sym + 1] = start[sym]! + names[sym]!.length;
  }
  const bytes = new Uint8Array(start[terms.symbolCount]! + WORD_SLACK);
  for (let sym = 0; sym < names.length; sym++) bytes.set(names[sym]!, start[sym]!);
  return { bytes, start };
}
