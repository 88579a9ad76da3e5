/**
 * Writing a grounding in any output format, through the same recipes as `gdl-ground ground`
 * (`--format gdl|json|gddl|rddl`, `--remove-axioms`), so the texts are the command line's byte
 * for byte; the caller decides where they go (the `./node` entry writes them to files).
 */
import { NO_POS } from '../gdl/ast.js';
import { GdlError, diag } from '../gdl/diagnostics.js';
import { DEFAULT_GDDL_OPTIONS, GDDL_FILE_NAMES } from '../pipeline/formats.js';
import { type FoundResults, type GroundRun, type RunContext, gddlOutput, groundOutput, rddlOutput } from '../pipeline/recipes/index.js';
import { type AxiomOptions, DEFAULT_AXIOM_OPTIONS, DEFAULT_MUTEX_SETTINGS, type OutputChunk } from '../pipeline/stages.js';
import type { StageRecord } from '../timer.js';
import { GROUNDED, type Grounding, axiomKey, laterContext, mutexKey } from './ground.js';
import { LOADED } from './load.js';
import { type RunControl, type Settings, afterYield } from './settings.js';

/**
 * The output formats: GDL (`ground`), JSON (`--json`), GDL with the axioms substituted away
 * (`--remove-axioms`), GDDL's three files (`--format gddl`) and RDDL's two (`--format rddl`,
 * single-player games).
 */
export type OutputFormat = 'gdl' | 'json' | 'gdl-no-axioms' | 'gddl' | 'rddl';

/** How to write: each option is the command line's flag of the same meaning, and optional. */
export interface EmitOptions extends Pick<Settings, 'timeoutSeconds' | 'maxMemoryMb'>, RunControl {
  /** GDL: write the `(base F)` and `(input R M)` declarations (default true; CLI `--no-base-input`). */
  readonly baseInput?: boolean;
  /** Axiom removal (gdl-no-axioms, gddl, rddl): largest formula made (CLI `--max-formula`). */
  readonly maxFormula?: number;
  /** Axiom removal: largest total body size reached (CLI `--max-total`). */
  readonly maxTotal?: number;
  /** GDDL: most multi-actions (CLI `--max-actions`). */
  readonly maxActions?: number;
  /** GDDL: most precondition/effect pairs (CLI `--max-effects`). */
  readonly maxEffects?: number;
  /** RDDL: the horizon (default: the game length from a step counter + 1, else 100; CLI `--horizon`). */
  readonly horizon?: number;
}

/** One file of an output: its name (as the command line names it) and its text. */
export interface OutputFile {
  readonly name: string;
  readonly text: string;
}

/** The files of one format, the warnings of axiom removal, and the stages it took. */
export interface Output {
  readonly format: OutputFormat;
  readonly files: readonly OutputFile[];
  readonly warnings: readonly string[];
  readonly stats: readonly StageRecord[];
}

/** `<game>` of output names: the file name without folder and extension (as `--format rddl` names its files). */
function baseName(file: string): string {
  return (file.split(/[\\/]/).pop() ?? file).replace(/\.(kif|gdl|txt)$/i, '');
}

function axiomOptions(options: EmitOptions): AxiomOptions {
  const maxFormula = options.maxFormula ?? DEFAULT_AXIOM_OPTIONS.maxFormula;
  return options.maxTotal === undefined ? { maxFormula } : { maxFormula, maxTotal: options.maxTotal };
}

/** The text of chunks as one string; a text too long for one is a limit, as `emitGround` says. */
function joined(chunks: readonly string[], file: string): string {
  try {
    return chunks.join('');
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new GdlError([diag('error', file, NO_POS, 'the ground game is too large for one string: write it in chunks with the ./node entry')], 'limit', { kind: 'output' });
  }
}

/** The chunks `emit` makes, as strings: UTF-8 bytes come in chunks of whole lines or items, each decodes alone. */
function decoded(emit: (write: (chunk: OutputChunk) => void) => void): string[] {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  emit((c) => chunks.push(typeof c === 'string' ? c : decoder.decode(c)));
  return chunks;
}

/** The GDL or JSON of `ground`, with its axioms. */
function groundFiles(ctx: RunContext, run: GroundRun, format: 'gdl' | 'json', options: EmitOptions): Omit<Output, 'stats'> {
  const out = groundOutput(ctx, run, { format, gdl: { baseInput: options.baseInput !== false } });
  if (out.kind !== 'chunks') throw new Error('the ground game is emitted in chunks');
  return { format, files: [{ name: `${baseName(ctx.file)}.${format}`, text: joined(decoded(out.emit), ctx.file) }], warnings: [] };
}

/** The GDL of `ground --remove-axioms`, and the axiom removal it rests on (kept for later calls). */
function noAxiomsFiles(ctx: RunContext, run: GroundRun, options: EmitOptions, found: FoundResults): { files: Omit<Output, 'stats'>; made: FoundResults } {
  const gdl = { baseInput: options.baseInput !== false };
  const out = groundOutput(ctx, run, { format: 'gdl', gdl, removeAxioms: axiomOptions(options) }, found);
  if (out.kind !== 'formula') throw new Error('axiom removal gives the game without axioms');
  const files = { format: 'gdl-no-axioms' as const, files: [{ name: `${baseName(ctx.file)}-no-axioms.gdl`, text: joined(decoded(out.emit), ctx.file) }], warnings: out.axioms.warnings };
  return { files, made: { axioms: out.axioms } };
}

/** The results made already on this grounding with these settings (see `FoundStore`). */
function foundFor(grounding: Grounding, axioms: AxiomOptions): FoundResults {
  const { found } = grounding[GROUNDED];
  const mutex = found.mutex.get(mutexKey(DEFAULT_MUTEX_SETTINGS));
  const removed = found.axioms.get(axiomKey(axioms));
  return { ...(mutex === undefined ? {} : { mutex }), ...(removed === undefined ? {} : { axioms: removed }) };
}

/** Keeps what an output made for later calls on the same grounding. */
function keep(grounding: Grounding, axioms: AxiomOptions, made: FoundResults): void {
  const { found } = grounding[GROUNDED];
  if (made.mutex !== undefined) found.mutex.set(mutexKey(DEFAULT_MUTEX_SETTINGS), made.mutex);
  if (made.axioms !== undefined) found.axioms.set(axiomKey(axioms), made.axioms);
}

/** The files of `format` for a grounding, over the call's context. */
function filesOf(ctx: RunContext, grounding: Grounding, format: OutputFormat, options: EmitOptions): Omit<Output, 'stats'> {
  const { game, run } = grounding[GROUNDED];
  if (format === 'gdl' || format === 'json') return groundFiles(ctx, run, format, options);
  const axioms = axiomOptions(options);
  const found = foundFor(grounding, axioms);
  if (format === 'gdl-no-axioms') {
    const out = noAxiomsFiles(ctx, run, options, found);
    keep(grounding, axioms, out.made);
    return out.files;
  }
  if (format === 'rddl') {
    const base = baseName(ctx.file);
    const out = rddlOutput(ctx, game[LOADED], run, { axioms, base, rddl: options.horizon === undefined ? {} : { horizon: options.horizon } }, found);
    keep(grounding, axioms, { axioms: out.axioms });
    return { format, files: [{ name: `${base}_mdp.rddl`, text: out.files.domain }, { name: `${base}_inst.rddl`, text: out.files.instance }], warnings: out.axioms.warnings };
  }
  const gddl = { maxActions: options.maxActions ?? DEFAULT_GDDL_OPTIONS.maxActions, maxEffects: options.maxEffects ?? DEFAULT_GDDL_OPTIONS.maxEffects };
  const out = gddlOutput(ctx, game[LOADED], run, { gddl, axioms, mutex: DEFAULT_MUTEX_SETTINGS }, found);
  keep(grounding, axioms, { mutex: out.mutex, axioms: out.axioms });
  const parts = ['domain', 'problem', 'partition'] as const;
  return { format, files: parts.map((p) => ({ name: GDDL_FILE_NAMES[p], text: out.files[p] })), warnings: out.axioms.warnings };
}

function emitWith(ctx: RunContext, grounding: Grounding, format: OutputFormat, options: EmitOptions): Output {
  return { ...filesOf(ctx, grounding, format, options), stats: ctx.timer.list() };
}


/**
 * Writes a grounding in `format`: the texts `gdl-ground ground` writes for the same game and
 * flags, byte for byte. Throws `GdlError` on a game the format cannot describe (GDDL and RDDL
 * refuse GDL-II games, RDDL games of several roles), past a limit, or when aborted.
 */
export function emitGame(grounding: Grounding, format: OutputFormat, options: EmitOptions = {}): Output {
  return emitWith(laterContext(grounding, options), grounding, format, options);
}

/** {@link emitGame} after yielding to the event loop once (docs/library.md, "Async"). */
export async function emitGameAsync(grounding: Grounding, format: OutputFormat, options: EmitOptions = {}): Promise<Output> {
  const ctx = laterContext(grounding, options);
  return afterYield(ctx, `writing ${format}`, () => emitWith(ctx, grounding, format, options));
}
