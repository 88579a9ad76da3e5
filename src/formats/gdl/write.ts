/**
 * The ground game as GDL (KIF) text: roles, `base` and `input` declarations, the initial state,
 * then one ground rule per line, sorted — a valid, variable-free game description that any GDL
 * player can read, deterministic byte for byte.
 */
import { Deadline } from '../../deadline.js';
import { deadlineTicker } from '../../gdl/diagnostics.js';
import { atomText } from '../../ground/atoms.js';
import type { GroundGame, GroundRule } from '../../ground/types.js';
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

/**
 * The text of every atom of `game`, made once: a ground game mentions each atom in many rules
 * (millions of literals over thousands of atoms), so its rules are written from this array.
 */
function atomTexts(game: GroundGame): string[] {
  const texts = new Array<string>(game.atoms.length);
  for (let id = 0; id < texts.length; id++) texts[id] = atomText(game, id);
  return texts;
}

function ruleText(texts: readonly string[], r: GroundRule): string {
  const head = texts[r.head]!;
  if (r.pos.length === 0 && r.neg.length === 0) return head;
  let line = `(<= ${head}`;
  for (let i = 0; i < r.pos.length; i++) line += ` ${texts[r.pos[i]!]!}`;
  for (let i = 0; i < r.neg.length; i++) line += ` (not ${texts[r.neg[i]!]!})`;
  return `${line})`;
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
  for (const id of game.init) lines.push(`(init ${text(game.atoms[id]!.args[0]!)})`);
  return lines;
}

/** The lines of the GDL output, one at a time; past a limit of `deadline` (looked at per rule) it throws a limit error. */
function* gdlLines(game: GroundGame, options: GdlEmitOptions, deadline: Deadline): Generator<string> {
  const tick = deadlineTicker(deadline, game.file, 'writing the ground game');
  yield* headerLines(game, options);
  const texts = atomTexts(game);
  for (const r of game.rules) {
    tick();
    yield ruleText(texts, r);
  }
  // With lazy axioms, the non-ground part follows (absent otherwise: output unchanged).
  yield* lazyLines(game);
}

/**
 * The lines of the GDL output, without line ends (for writing large games piecewise); past a
 * limit of `deadline` (looked at per line) it throws a limit error.
 */
export function emitGdlLines(game: GroundGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline): string[] {
  return [...gdlLines(game, options, deadline)];
}

/** Characters per chunk of {@link emitGdlChunks}: large enough to write efficiently, far below V8's string limit. */
const GDL_CHUNK_CHARS = 1 << 20;

/**
 * The GDL output in chunks of whole lines (each about `chunkChars` long, each ending with a
 * line end), made as they are consumed: their concatenation is {@link emitGdl}'s text byte for
 * byte, but no string holds all of it, so games too large for one string can be written.
 */
export function* emitGdlChunks(game: GroundGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline, chunkChars = GDL_CHUNK_CHARS): Generator<string> {
  // Lines are appended to the chunk as they are made (no array of lines, no join).
  let chunk = '';
  for (const line of gdlLines(game, options, deadline)) {
    chunk += `${line}\n`;
    if (chunk.length >= chunkChars) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** The ground game as GDL text, deterministic byte for byte; every line ends with `\n`. */
export function emitGdl(game: GroundGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline): string {
  return `${emitGdlLines(game, options, deadline).join('\n')}\n`;
}
