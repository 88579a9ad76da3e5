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
 * The UTF-8 text of terms: term `i` of the list is `bytes[start[i] .. end[i])`; `bytes` ends
 * with {@link WORD_SLACK} bytes more, for {@link putWords}. Two terms of the list may share
 * their bytes (the same term, or one the text of a term within the other).
 */
export interface TermBytes {
  readonly bytes: Uint8Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
}

/**
 * The KIF texts of `roots` (term ids of `terms`) as {@link TermBytes}, byte for byte what
 * `terms.text` gives (`(f a b)`, single spaces), without recursion (terms nest deep) and
 * without a string per term: only each symbol's name is encoded, once. A term's arguments have
 * lower ids than the term (the table interns them first), so the texts are made bottom-up in
 * plain loops over the ids, with no stack and no call per term: the terms the roots contain
 * are marked going down, their sizes summed going up, and each text written going up, `(`, its
 * name, then each argument's text copied from where it was written. Every distinct term's text
 * is written once, a root's where its term's is. Where texts written per term would take more
 * than twice the roots' own (terms nested deep, whose every subterm's text would be kept
 * apart), the roots' texts are written one after the other instead ({@link contiguousTexts}).
 *
 * Each loop is a function of its own: this runs once per game, and V8 compiles a hot loop
 * where it runs (on-stack replacement); a function of several loops was compiled again for
 * each, after leaving the one before at code it had not seen run (six compiles here).
 */
export function termBytes(terms: TermReader, roots: ArrayLike<number>): TermBytes {
  const names = symbolBytes(terms);
  const marked = new Uint8Array(idsBelow(roots));
  markEach(marked, roots);
  markArguments(terms, marked);
  const size = new Int32Array(marked.length);
  const at = new Int32Array(marked.length);
  const total = placeTexts(terms, names.start, marked, size, at);
  const own = sizeOf(size, roots);
  if (total > 2 * own) return contiguousTexts(terms, names, roots, size, own);
  const bytes = new Uint8Array(total + WORD_SLACK);
  writeTermTexts(terms, names, marked, size, at, bytes);
  const start = new Int32Array(roots.length);
  const end = new Int32Array(roots.length);
  rootRanges(roots, size, at, start, end);
  return { bytes, start, end };
}

/** One more than the highest id of `ids` (0 when none). */
function idsBelow(ids: ArrayLike<number>): number {
  let top = 0;
  for (let i = 0; i < ids.length; i++) if (ids[i]! >= top) top = ids[i]! + 1;
  return top;
}

/** Marks every id of `ids`. */
function markEach(marked: Uint8Array, ids: ArrayLike<number>): void {
  for (let i = 0; i < ids.length; i++) marked[ids[i]!] = 1;
}

/** Marks the arguments of every marked term, going down the ids: so every term a marked one contains. */
function markArguments(terms: TermReader, marked: Uint8Array): void {
  for (let t = marked.length - 1; t >= 0; t--) {
    if (marked[t] === 0) continue;
    for (let i = 0, n = terms.arity(t); i < n; i++) marked[terms.arg(t, i)] = 1;
  }
}

/**
 * Each marked term's text length into `size` and its place into `at`, one after the other in
 * id order (the arguments' lengths are known first); the bytes of all of them.
 */
function placeTexts(terms: TermReader, nameStart: Int32Array, marked: Uint8Array, size: Int32Array, at: Int32Array): number {
  let total = 0;
  for (let t = 0, top = marked.length; t < top; t++) {
    if (marked[t] === 0) continue;
    const f = terms.functor(t);
    const n = terms.arity(t);
    // Parentheses and a space before each argument.
    let s = nameStart[f + 1]! - nameStart[f]! + (n === 0 ? 0 : 2 + n);
    for (let i = 0; i < n; i++) s += size[terms.arg(t, i)]!;
    size[t] = s;
    at[t] = total;
    total += s;
  }
  return total;
}

/** The sum of `size` over `ids`. */
function sizeOf(size: Int32Array, ids: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < ids.length; i++) sum += size[ids[i]!]!;
  return sum;
}

/** Where each root's text is: `start[i]` to `end[i]`, from its term's place and length. */
function rootRanges(roots: ArrayLike<number>, size: Int32Array, at: Int32Array, start: Int32Array, end: Int32Array): void {
  for (let i = 0; i < roots.length; i++) {
    const t = roots[i]!;
    start[i] = at[t]!;
    end[i] = at[t]! + size[t]!;
  }
}

/**
 * Writes the text of each term `marked` marks at `at[t]` (`size[t]` bytes), in id order: an
 * argument's text, written before its term's, is copied from its own place four bytes at a
 * time. *Why the bytes are right:* an argument's whole text lies before its term's (lower id,
 * so lower place), written completely, so every byte a copy reads inside its piece is final.
 * The up to {@link WORD_SLACK} bytes a copy reads past its piece, whatever they are, are
 * written only past the copy's end: where the text goes on (the next space or `)`), in a later
 * term's text (every byte of which is written afterwards, left to right), or in the slack past
 * the last text.
 */
function writeTermTexts(terms: TermReader, names: SymbolBytes, marked: Uint8Array, size: Int32Array, at: Int32Array, bytes: Uint8Array): void {
  const nameStart = names.start;
  const nameWords = wordView(names.bytes);
  const words = wordView(bytes);
  for (let t = 0, top = marked.length; t < top; t++) {
    if (marked[t] === 0) continue;
    const f = terms.functor(t);
    const n = terms.arity(t);
    let p = at[t]!;
    if (n === 0) {
      putWords(words, p, nameWords, nameStart[f]!, nameStart[f + 1]!);
      continue;
    }
    bytes[p++] = OPEN;
    p = putWords(words, p, nameWords, nameStart[f]!, nameStart[f + 1]!);
    for (let i = 0; i < n; i++) {
      const a = terms.arg(t, i);
      bytes[p++] = SPACE;
      p = putWords(words, p, words, at[a]!, at[a]! + size[a]!);
    }
    bytes[p] = CLOSE;
  }
}

/**
 * The texts of `roots` one after the other (`own` bytes; `size` holds each marked term's text
 * length), each compound written once where it first occurs and copied for every later
 * occurrence ({@link writeTexts}): for terms nested so deep that a text per term would not pay.
 */
function contiguousTexts(terms: TermReader, names: SymbolBytes, roots: ArrayLike<number>, size: Int32Array, own: number): TermBytes {
  const start = new Int32Array(roots.length);
  const end = new Int32Array(roots.length);
  let p = 0;
  for (let i = 0; i < roots.length; i++) {
    start[i] = p;
    p += size[roots[i]!]!;
    end[i] = p;
  }
  const bytes = new Uint8Array(own + WORD_SLACK);
  writeTexts(terms, names, (t) => size[t]!, roots, bytes);
  return { bytes, start, end };
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

  /** Drops the top pair. */
  pop(): void {
    this.depth--;
  }
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
