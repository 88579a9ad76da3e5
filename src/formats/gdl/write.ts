/**
 * The ground game as GDL (KIF) text: roles, `base` and `input` declarations, the initial state,
 * then one ground rule per line, sorted — a valid, variable-free game description that any GDL
 * player can read, deterministic byte for byte.
 */
import { Deadline } from '../../deadline.js';
import { deadlineTicker } from '../../gdl/diagnostics.js';
import type { GroundGame } from '../../ground/types.js';
import { type CompactRules, atomTerm, atomTerms, compactRules } from '../../ground/compact.js';
import { ByteLines, type TermBytes, putBytes, termBytes } from './bytes.js';
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
const SPACE = 0x20;
const CLOSE = 0x29;
const NEWLINE = 0x0a;

/**
 * Appends the line of rule `i` of `rules` and its line end; `atoms` holds the atoms' texts by
 * atom id. The line's length is summed first, so the buffer is checked once per line and each
 * piece copied with a plain loop (one call per piece was a third of the rules' writing).
 */
function ruleLine(out: ByteLines, atoms: TermBytes, rules: CompactRules, i: number): void {
  const { starts, negAt, lits, heads } = rules;
  const { bytes, start } = atoms;
  const head = heads[i]!;
  const first = starts[i]!;
  const neg = negAt[i]!;
  const end = starts[i + 1]!;
  // Bytes of the line: head, a space per positive literal, `(not ` and `)` per negative one.
  let size = start[head + 1]! - start[head]! + 1;
  if (first < end) size += RULE_OPEN.length + 1 + (neg - first) + (end - neg) * (NOT_OPEN.length + 1);
  for (let k = first; k < end; k++) size += start[lits[k]! + 1]! - start[lits[k]!]!;
  const buf = out.room(size);
  let at = out.length;
  if (first === end) {
    at = putBytes(buf, at, bytes, start[head]!, start[head + 1]!);
    buf[at++] = NEWLINE;
    out.length = at;
    return;
  }
  at = putBytes(buf, at, RULE_OPEN, 0, RULE_OPEN.length);
  at = putBytes(buf, at, bytes, start[head]!, start[head + 1]!);
  for (let k = first; k < neg; k++) {
    buf[at++] = SPACE;
    at = putBytes(buf, at, bytes, start[lits[k]!]!, start[lits[k]! + 1]!);
  }
  for (let k = neg; k < end; k++) {
    at = putBytes(buf, at, NOT_OPEN, 0, NOT_OPEN.length);
    at = putBytes(buf, at, bytes, start[lits[k]!]!, start[lits[k]! + 1]!);
    buf[at++] = CLOSE;
  }
  buf[at++] = CLOSE;
  buf[at++] = NEWLINE;
  out.length = at;
}

/** The lines before the rules: the comment, roles, `base` and `input`, the initial state. */
function headerLines(game: GroundGame, options: GdlEmitOptions): string[] {
  const text = (t: number): string => game.terms.text(t);
  const lines = ['; ground game written by gdl-grounder'];
  for (const role of game.roles) lines.push(`(role ${text(role)})`);
  if (options.baseInput) {
    const { fluents, moves } = game.vocabulary;
    for (const f of fluents) lines.push(`(base ${text(f.term)})`);
    for (const m of moves) lines.push(`(input ${text(m.role)} ${text(m.action)})`);
  }
  for (const id of game.init) lines.push(`(init ${text(game.terms.arg(atomTerm(game, id), 0))})`);
  return lines;
}

/**
 * The lines of the GDL output, without line ends (for writing large games piecewise); past a
 * limit of `deadline` (looked at per line) it throws a limit error.
 */
export function emitGdlLines(game: GroundGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline): string[] {
  return emitGdl(game, options, deadline).slice(0, -1).split('\n');
}

/**
 * Bytes per chunk of {@link emitGdlChunks}: large enough to write efficiently, and small enough
 * that each chunk's string (and the buffer a file write encodes it into) is an ordinary object
 * of V8's young generation, gone at the next scavenge; a string of 1 MiB went to the large-object
 * space, which only a full collection empties.
 */
const GDL_CHUNK_CHARS = 1 << 16;

/**
 * The GDL output in chunks of whole lines (each about `chunkChars` bytes long, each ending with a
 * line end), made as they are consumed: their concatenation is {@link emitGdl}'s text byte for
 * byte, but no string holds all of it, so games too large for one string can be written.
 */
export function* emitGdlChunks(game: GroundGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline, chunkChars = GDL_CHUNK_CHARS): Generator<string> {
  // Lines are made as UTF-8 bytes in one reused buffer (bytes.ts), a string made per chunk.
  const out = new ByteLines(chunkChars + (chunkChars >> 2));
  for (const line of headerLines(game, options)) {
    out.text(line);
    out.byte(NEWLINE);
    if (out.length >= chunkChars) yield out.take();
  }
  const tick = deadlineTicker(deadline, game.file, 'writing the ground game');
  const atoms = termBytes(game.terms, atomTerms(game));
  const rules = compactRules(game);
  for (let i = 0; i < rules.count; i++) {
    tick();
    ruleLine(out, atoms, rules, i);
    if (out.length >= chunkChars) yield out.take();
  }
  for (const line of lazyLines(game)) {
    out.text(line);
    out.byte(NEWLINE);
    if (out.length >= chunkChars) yield out.take();
  }
  if (out.length > 0) yield out.take();
}

/** The ground game as GDL text, deterministic byte for byte; every line ends with `\n`. */
export function emitGdl(game: GroundGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline): string {
  return [...emitGdlChunks(game, options, deadline)].join('');
}
