/**
 * The ground game as GDL (KIF) text: roles, `base` and `input` declarations, the initial state,
 * then one ground rule per line, sorted — a valid, variable-free game description that any GDL
 * player can read, deterministic byte for byte.
 */
import { Deadline } from '../../deadline.js';
import { deadlineTicker } from '../../gdl/diagnostics.js';
import { atomText } from '../../ground/atoms.js';
import type { GroundGame } from '../../ground/types.js';
import { type CompactRules, atomCount, atomTerm, compactRules } from '../../ground/compact.js';
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
 * The texts a rule line is made of, per atom: a ground game mentions each atom in many rules
 * (millions of literals over thousands of atoms), so each literal is one string appended, its
 * leading space (and negation) included, made on its first use (games with many atoms use
 * few of them in bodies).
 */
interface LiteralTexts {
  readonly atom: readonly string[];
  readonly pos: (string | undefined)[];
  readonly neg: (string | undefined)[];
}

function literalTexts(game: GroundGame): LiteralTexts {
  // Filled by push: `new Array(n)` past 100,000 entries makes a dictionary, slow to index.
  const atom: string[] = [];
  const pos: (string | undefined)[] = [];
  const neg: (string | undefined)[] = [];
  const count = atomCount(game);
  for (let id = 0; id < count; id++) {
    atom.push(atomText(game, id));
    pos.push(undefined);
    neg.push(undefined);
  }
  return { atom, pos, neg };
}

/** The line of rule `i` of `rules`. */
function ruleText(texts: LiteralTexts, rules: CompactRules, i: number): string {
  const { starts, negAt, lits } = rules;
  const head = texts.atom[rules.heads[i]!]!;
  const end = starts[i + 1]!;
  if (starts[i] === end) return head;
  let line = `(<= ${head}`;
  const neg = negAt[i]!;
  for (let k = starts[i]!; k < neg; k++) line += (texts.pos[lits[k]!] ??= ` ${texts.atom[lits[k]!]!}`);
  for (let k = neg; k < end; k++) line += (texts.neg[lits[k]!] ??= ` (not ${texts.atom[lits[k]!]!})`);
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
  for (const id of game.init) lines.push(`(init ${text(game.terms.arg(atomTerm(game, id), 0))})`);
  return lines;
}

/** The lines of the GDL output, one at a time; past a limit of `deadline` (looked at per rule) it throws a limit error. */
function* gdlLines(game: GroundGame, options: GdlEmitOptions, deadline: Deadline): Generator<string> {
  yield* headerLines(game, options);
  yield* ruleLines(game, deadline);
  // With lazy axioms, the non-ground part follows (absent otherwise: output unchanged).
  yield* lazyLines(game);
}

/** The rule lines, one at a time; past a limit of `deadline` (looked at per rule) it throws a limit error. */
function* ruleLines(game: GroundGame, deadline: Deadline): Generator<string> {
  const tick = deadlineTicker(deadline, game.file, 'writing the ground game');
  const texts = literalTexts(game);
  const rules = compactRules(game);
  for (let i = 0; i < rules.count; i++) {
    tick();
    yield ruleText(texts, rules, i);
  }
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
  // Lines are appended to the chunk as they are made (no array of lines, no join); the rules,
  // nearly all of the output, without a generator step per line.
  let chunk = '';
  for (const line of headerLines(game, options)) {
    chunk += `${line}\n`;
    if (chunk.length >= chunkChars) {
      yield chunk;
      chunk = '';
    }
  }
  const tick = deadlineTicker(deadline, game.file, 'writing the ground game');
  const texts = literalTexts(game);
  const rules = compactRules(game);
  for (let i = 0; i < rules.count; i++) {
    tick();
    chunk += ruleText(texts, rules, i);
    chunk += '\n';
    if (chunk.length >= chunkChars) {
      yield chunk;
      chunk = '';
    }
  }
  for (const line of lazyLines(game)) {
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
