/**
 * The ground game as GDL (KIF) text: roles, `base` and `input` declarations, the initial state,
 * then one ground rule per line, sorted — a valid, variable-free game description that any GDL
 * player can read, deterministic byte for byte.
 */
import { Deadline } from '../../deadline.js';
import { TICK_MASK, strideTicker } from '../../gdl/diagnostics.js';
import type { GroundGame } from '../../ground/types.js';
import { type CompactRules, atomTerm, atomTerms, compactRules } from '../../ground/compact.js';
import { ByteLines, type TermBytes, WORD_SLACK, decodeChunks, putBytes, putWords, termBytes, wordView } from './bytes.js';
import { lazyLines } from './lazy.js';

/** Options of the GDL output. */
export interface GdlEmitOptions {
  /**
   * Emit `(base F)` for every fluent and `(input R M)` for every move the ground game mentions.
   * They only declare the vocabulary (GDL gives them no role in play), which some tools want.
   */
  readonly baseInput: boolean;
}

/** Default: with `base` and `input` facts. */
export const DEFAULT_GDL_EMIT_OPTIONS: GdlEmitOptions = { baseInput: true };

/** Bytes of the rule lines' fixed parts. */
const RULE_OPEN = new TextEncoder().encode('(<= ');
const NOT_OPEN = new TextEncoder().encode(' (not ');
/** {@link RULE_OPEN}'s four bytes as one little-endian word: a rule line starts with one write. */
const RULE_OPEN_WORD = wordView(RULE_OPEN).getUint32(0, true);
const SPACE = 0x20;
const CLOSE = 0x29;
const NEWLINE = 0x0a;

/** ` (not ` as a little-endian word and half-word: every literal starts with one write of them. */
const NOT_WORD = wordView(NOT_OPEN).getUint32(0, true);
const NOT_HALF = wordView(NOT_OPEN).getUint16(4, true);
/** Bytes a line may write past its end (its own length not counted): see {@link ruleLine}. */
const LINE_SLACK = 8;

/**
 * Appends the line of rule `i` of `rules` and its line end; `atoms` holds the atoms' texts by
 * atom id, `words` is a view of their bytes. The line's length is summed first, so the buffer
 * is checked once per line; each atom's text is copied four bytes at a time (`putWords`).
 *
 * The same statements run for every rule and literal, with no branch on whether the rule has a
 * body or the literal is negative: this runs once per game, and V8 compiled it again (twice, on
 * amazons) when a rule first took a path that had not run before. So `(<= ` is written before
 * every head, and ` (not ` before every literal, and the position then moves past as many of
 * their bytes as the rule or literal has (4 or 0, 6 or 1); likewise each literal's `)`. *Why the
 * bytes are the same:* every write is at or past the position `at`, and `at` moves past a byte
 * only once its own value is written, left to right; so each byte of the line is written last
 * with its value, and the bytes written past the line's end (at most {@link WORD_SLACK}, within
 * the {@link LINE_SLACK} asked for) lie past `length`, where the next line is written.
 */
function ruleLine(out: ByteLines, atoms: TermBytes, words: DataView, rules: CompactRules, i: number): void {
  const { starts, negAt, lits, heads } = rules;
  const { start, end } = atoms;
  const head = heads[i]!;
  const first = starts[i]!;
  const neg = negAt[i]!;
  const last = starts[i + 1]!;
  const body = first < last ? 1 : 0;
  // Bytes of the line: head and line end; with a body `(<= ` and `)`, a space per literal,
  // `(not ` and `)` more per negative one.
  let size = end[head]! - start[head]! + 1 + body * (RULE_OPEN.length + 1) + (last - first) + (last - neg) * NOT_OPEN.length;
  for (let k = first; k < last; k++) size += end[lits[k]!]! - start[lits[k]!]!;
  const buf = out.room(size + LINE_SLACK);
  const view = out.view();
  let at = out.length;
  view.setUint32(at, RULE_OPEN_WORD, true);
  at = putWords(view, at + 4 * body, words, start[head]!, end[head]!);
  for (let k = first; k < last; k++) {
    const negative = k >= neg ? 1 : 0;
    view.setUint32(at, NOT_WORD, true);
    view.setUint16(at + 4, NOT_HALF, true);
    at = putWords(view, at + 1 + 5 * negative, words, start[lits[k]!]!, end[lits[k]!]!);
    buf[at] = CLOSE;
    at += negative;
  }
  buf[at] = CLOSE;
  at += body;
  buf[at++] = NEWLINE;
  out.length = at;
}

/**
 * Appends the lines of the rules from `i` on until the buffer holds `chunk` bytes or the rules
 * end; returns the index of the next rule. A plain function, so that the loop over the rules
 * is optimized as one and not resumed as a generator's.
 */
function ruleLines(out: ByteLines, texts: TermBytes, rules: CompactRules, i: number, chunk: number, tick: () => void): number {
  const words = wordView(texts.bytes);
  for (; i < rules.count && out.length < chunk; i++) {
    if ((i & TICK_MASK) === 0) tick();
    ruleLine(out, texts, words, rules, i);
  }
  return i;
}

/** Bytes of the header lines' fixed parts. */
const ROLE_OPEN = new TextEncoder().encode('(role ');
const BASE_OPEN = new TextEncoder().encode('(base ');
const INPUT_OPEN = new TextEncoder().encode('(input ');
const INIT_OPEN = new TextEncoder().encode('(init ');
const HEADER_COMMENT = '; ground game written by gdl-grounder';

/** What the lines before the rules read of a game (a game without axioms has them too). */
type HeaderSource = Omit<GroundGame, 'rules'>;

/**
 * The terms of the lines before the rules, in their order: roles, then (with `base` and
 * `input`) each fluent and each move's role and action, then each initial fluent.
 */
function headerTerms(game: HeaderSource, options: GdlEmitOptions): number[] {
  const out: number[] = [...game.roles];
  if (options.baseInput) {
    const { fluents, moves } = game.vocabulary;
    for (const f of fluents) out.push(f.term);
    for (const m of moves) out.push(m.role, m.action);
  }
  for (const id of game.init) out.push(game.terms.arg(atomTerm(game, id), 0));
  return out;
}

/**
 * The bytes of every atom's term (at the atom's id) and of the header's terms (after them), in
 * one table, so that a compound term is written once: what {@link headerBytes} (from `first`,
 * the atom count) and the rule lines read, for the ground game and the game without axioms
 * (formula.ts) alike.
 */
export function atomAndHeaderBytes(game: HeaderSource, options: GdlEmitOptions): { texts: TermBytes; first: number } {
  const atomIds = atomTerms(game);
  const header = headerTerms(game, options);
  const roots = new Int32Array(atomIds.length + header.length);
  roots.set(atomIds);
  roots.set(header, atomIds.length);
  return { texts: termBytes(game.terms, roots), first: atomIds.length };
}

/**
 * Appends `open`, the texts of `texts` number `a` (and `b`, after a space, unless -1), `)` and a
 * line end; `words` is a view of the texts' bytes, copied four bytes at a time as in
 * {@link ruleLine} (amazons: 173,962 `input` lines).
 */
function termLine(out: ByteLines, open: Uint8Array, texts: TermBytes, words: DataView, a: number, b = -1): void {
  const { start, end } = texts;
  const size = open.length + end[a]! - start[a]! + (b < 0 ? 0 : 1 + end[b]! - start[b]!) + 2;
  const buf = out.room(size + WORD_SLACK);
  const view = out.view();
  let at = putBytes(buf, out.length, open, 0, open.length);
  at = putWords(view, at, words, start[a]!, end[a]!);
  if (b >= 0) {
    buf[at++] = SPACE;
    at = putWords(view, at, words, start[b]!, end[b]!);
  }
  buf[at++] = CLOSE;
  buf[at++] = NEWLINE;
  out.length = at;
}

/**
 * The lines before the rules (`comment`, roles, `base` and `input`, the initial state) as
 * bytes; `texts` holds the header's terms ({@link headerTerms}) from number `first` on.
 * Yields the buffer's bytes (a view, see {@link emitGdlBytes}) whenever it holds `chunk` or more.
 */
export function* headerBytes(game: HeaderSource, options: GdlEmitOptions, out: ByteLines, texts: TermBytes, first: number, chunk: number, comment = HEADER_COMMENT): Generator<Uint8Array> {
  out.text(comment);
  out.byte(NEWLINE);
  const { fluents, moves } = game.vocabulary;
  // Per group of lines: its opening, its number of lines, terms per line.
  const groups: [Uint8Array, number, number][] = [[ROLE_OPEN, game.roles.length, 1]];
  if (options.baseInput) groups.push([BASE_OPEN, fluents.length, 1], [INPUT_OPEN, moves.length, 2]);
  groups.push([INIT_OPEN, game.init.length, 1]);
  const words = wordView(texts.bytes);
  let i = first;
  for (const [open, n, width] of groups) {
    for (const stop = i + n * width; i < stop;) {
      i = termLines(out, open, texts, words, i, stop, width, chunk);
      if (out.length >= chunk) yield out.take();
    }
  }
}

/**
 * Appends the lines of one group of {@link headerBytes} (`open`, `width` terms a line) from
 * term `i` on until term `stop` or until the buffer holds `chunk` bytes; returns the next term.
 * A plain function, as {@link ruleLines}: the generator's own code is compiled apart from it.
 */
function termLines(out: ByteLines, open: Uint8Array, texts: TermBytes, words: DataView, i: number, stop: number, width: number, chunk: number): number {
  for (; i < stop && out.length < chunk; i += width) termLine(out, open, texts, words, i, width === 2 ? i + 1 : -1);
  return i;
}

/**
 * Bytes per chunk of {@link emitGdlBytes}: large enough to write efficiently, and small enough
 * that each chunk's string (where one is made) is an ordinary object of V8's young generation,
 * gone at the next scavenge; a string of 1 MiB went to the large-object space, which only a
 * full collection empties.
 */
const GDL_CHUNK_CHARS = 1 << 16;

/**
 * The GDL output as UTF-8 bytes in chunks of whole lines (each about `chunkBytes` long, each
 * ending with a line end), made as they are consumed: their concatenation is {@link emitGdl}'s
 * text byte for byte. Each chunk is a view of one reused buffer, valid until the next is asked
 * for: a consumer that keeps chunks copies them. Writing bytes spares decoding each chunk to a
 * string and the file write's encoding it again (amazonsTorus: 174 MB, about 0.15 s).
 */
export function* emitGdlBytes(game: GroundGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline, chunkBytes = GDL_CHUNK_CHARS): Generator<Uint8Array> {
  const out = new ByteLines(chunkBytes + (chunkBytes >> 2));
  const tick = strideTicker(deadline, game.file, 'writing the ground game');
  const { texts, first } = atomAndHeaderBytes(game, options);
  yield* headerBytes(game, options, out, texts, first, chunkBytes);
  const rules = compactRules(game);
  for (let i = 0; i < rules.count; ) {
    i = ruleLines(out, texts, rules, i, chunkBytes, tick);
    if (out.length >= chunkBytes) yield out.take();
  }
  for (const line of lazyLines(game)) {
    out.text(line);
    out.byte(NEWLINE);
    if (out.length >= chunkBytes) yield out.take();
  }
  if (out.length > 0) yield out.take();
}

/** The ground game as GDL text, deterministic byte for byte; every line ends with `\n`. */
export function emitGdl(game: GroundGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline): string {
  return decodeChunks(emitGdlBytes(game, options, deadline));
}
