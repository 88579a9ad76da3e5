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

/** A growing byte buffer that text is appended to; {@link take} turns what it holds into a string. */
export class ByteLines {
  private bytes: Uint8Array<ArrayBuffer>;
  /** Bytes held: `bytes[0 .. length)`. */
  length = 0;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(Math.max(16, capacity));
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
    let at = this.length;
    // Atom texts are short: a loop beats making a subarray per literal.
    if (to - from < 64) for (let k = from; k < to; k++) bytes[at++] = src[k]!;
    else {
      bytes.set(src.subarray(from, to), at);
      at += to - from;
    }
    this.length = at;
  }

  /** Appends `text` in UTF-8. */
  text(text: string): void {
    // At most three bytes per UTF-16 unit.
    this.ensure(3 * text.length);
    this.length += this.encoder.encodeInto(text, this.bytes.subarray(this.length)).written;
  }

  /** The text held, as a string, and the buffer emptied. */
  take(): string {
    const text = this.decoder.decode(this.bytes.subarray(0, this.length));
    this.length = 0;
    return text;
  }

  /** The bytes held (a view, valid until the next append). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** The UTF-8 text of terms, each one after the other: term `i` of the list is `bytes[start[i] .. start[i + 1])`. */
export interface TermBytes {
  readonly bytes: Uint8Array;
  readonly start: Int32Array;
}

/**
 * The KIF texts of `roots` (term ids of `terms`) as {@link TermBytes}, byte for byte what
 * `terms.text` gives (`(f a b)`, single spaces), written without recursion (terms nest deep)
 * and without a string per term: only each symbol's name is encoded, once.
 */
export function termBytes(terms: TermReader, roots: ArrayLike<number>): TermBytes {
  const out = new ByteLines(Math.max(1 << 16, roots.length * 16));
  const encoder = new TextEncoder();
  const names: (Uint8Array | undefined)[] = [];
  while (names.length < terms.symbolCount) names.push(undefined);
  const name = (t: number): void => {
    const sym = terms.functor(t);
    const b = (names[sym] ??= encoder.encode(terms.symbolName(sym)));
    out.copy(b, 0, b.length);
  };
  const start = new Int32Array(roots.length + 1);
  // Pairs (term, next argument to write; -1: not opened yet).
  const stack: number[] = [];
  for (let i = 0; i < roots.length; i++) {
    start[i] = out.length;
    stack.push(roots[i]!, -1);
    while (stack.length > 0) {
      const at = stack.pop()!;
      const t = stack.pop()!;
      const n = terms.arity(t);
      if (n === 0) name(t);
      else if (at === -1) {
        out.byte(OPEN);
        name(t);
        stack.push(t, 0);
      } else if (at === n) out.byte(CLOSE);
      else {
        out.byte(SPACE);
        stack.push(t, at + 1, terms.arg(t, at), -1);
      }
    }
  }
  start[roots.length] = out.length;
  return { bytes: out.view().slice(), start };
}
