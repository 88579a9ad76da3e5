/**
 * The recipes that write the ground game: `ground` (GDL, JSON, `--remove-axioms`), `ground
 * --format rddl` and the batch job (`--format gddl`: recipes/gddl.ts). Each starts from
 * {@link groundWritten} and returns what to write; the caller writes it.
 */
import type { GdlEmitOptions } from '../../formats/gdl/write.js';
import type { RunContext } from '../context.js';
import { type RddlFiles, type RddlOptions, type UnrollStats, rddlFiles, refuseGdl2, unrollForRddl } from '../formats.js';
import {
  type AxiomOptions, type AxiomResult, type GroundFormat, type GroundGame, type LoadedGame, type MutexResult, type NormalGame, type OutputChunk, type Supersets,
  DEFAULT_AXIOM_OPTIONS, emitFormulaGroundStream, emitGroundStream, readBackSupersets, removeGameAxioms,
} from '../stages.js';
import { type GroundRun, groundWritten, groundWrittenWhole } from './game.js';

/** What `ground` writes as GDL or JSON. */
interface GroundSettings {
  readonly keepUnused: boolean;
  readonly format: GroundFormat;
  readonly gdl: GdlEmitOptions;
  /** With `--remove-axioms`: the limits of axiom removal (GDL with formula bodies). */
  readonly removeAxioms?: AxiomOptions;
}

/**
 * The output of `ground`, streamed: `emit` hands the text to `write` in chunks, timed as `emit`;
 * the ground game (GDL or JSON), or the game without axioms with the axiom removal it rests on.
 */
type GroundOutput =
  | { readonly kind: 'chunks'; readonly run: GroundRun; readonly emit: (write: (chunk: OutputChunk) => void) => void }
  | { readonly kind: 'formula'; readonly run: GroundRun; readonly axioms: AxiomResult; readonly emit: (write: (chunk: OutputChunk) => void) => void };

/**
 * Results a caller made already on the same run with the same settings (the library's
 * grounding keeps them): reused, so several outputs of one grounding prove the mutex groups
 * and remove the axioms once.
 */
export interface FoundResults {
  readonly mutex?: MutexResult;
  readonly axioms?: AxiomResult;
}

/**
 * `ground` as GDL or JSON, or GDL without axioms: the text is streamed, `emit` hands it to
 * `write` in chunks (racer's 4.7M rules are too large for one string), timed as `emit`.
 */
export function groundRecipe(ctx: RunContext, loaded: LoadedGame, settings: GroundSettings): GroundOutput {
  return groundOutput(ctx, groundWritten(ctx, loaded, settings.keepUnused), settings);
}

/**
 * {@link groundRecipe} on a grounding made already (by {@link groundWritten}): the library emits
 * several formats of one grounding without grounding again.
 */
export function groundOutput(ctx: RunContext, run: GroundRun, settings: Omit<GroundSettings, 'keepUnused'>, found: FoundResults = {}): GroundOutput {
  if (settings.removeAxioms === undefined) {
    return { kind: 'chunks', run, emit: (write) => emitGroundStream(run.game, settings.format, settings.gdl, write, ctx.timer, ctx.options) };
  }
  const axioms = found.axioms ?? removeGameAxioms(run.game, ctx.options, settings.removeAxioms, ctx.timer);
  return { kind: 'formula', run, axioms, emit: (write) => emitFormulaGroundStream(axioms.game, settings.gdl, write, ctx.options, ctx.timer) };
}


/** What `ground --format rddl` needs besides the run. */
interface RddlSettings {
  readonly keepUnused: boolean;
  readonly axioms: AxiomOptions;
  /** `<game>` of the file names. */
  readonly base: string;
  readonly rddl: RddlOptions;
}

/** The RDDL translation of a run: axioms removed, recursion unrolled, domain and instance. */
export interface RddlOutput {
  readonly run: GroundRun;
  readonly axioms: AxiomResult;
  readonly files: RddlFiles & { unroll: UnrollStats };
}

/** `ground --format rddl`: the written game without axioms, unrolled, as RDDL texts. */
export function rddlRecipe(ctx: RunContext, loaded: LoadedGame, settings: RddlSettings): RddlOutput {
  refuseGdl2(loaded.game, 'RDDL');
  const run = groundWritten(ctx, loaded, settings.keepUnused);
  return { run, ...rddlOf(ctx, run.game, settings.axioms, settings.base, settings.rddl) };
}

/** {@link rddlRecipe} on a grounding made already (by {@link groundWritten}) of `loaded`; `found.axioms` is reused. */
export function rddlOutput(ctx: RunContext, loaded: LoadedGame, run: GroundRun, settings: Omit<RddlSettings, 'keepUnused'>, found: FoundResults = {}): RddlOutput {
  refuseGdl2(loaded.game, 'RDDL');
  return { run, ...rddlOf(ctx, run.game, settings.axioms, settings.base, settings.rddl, found.axioms) };
}

function rddlOf(ctx: RunContext, game: GroundGame, axiomOptions: AxiomOptions, base: string, rddl: RddlOptions, found?: AxiomResult): Omit<RddlOutput, 'run'> {
  const axioms = found ?? removeGameAxioms(game, ctx.options, axiomOptions, ctx.timer);
  const unrolled = unrollForRddl(axioms.game, ctx.options, ctx.timer);
  return { axioms, files: { ...rddlFiles(unrolled.game, base, rddl, ctx.options, ctx.timer), unroll: unrolled.stats } };
}

// ---- the batch job ----------------------------------------------------------------------

/** The formats a batch writes. */
type BatchOutputFormat = 'gdl' | 'json' | 'gddl' | 'rddl';

/** One output file of a batch: its path relative to `--out`, and its text (GDL: in chunks, UTF-8 bytes). */
export interface OutputFile {
  readonly name: string;
  readonly text: string | readonly OutputChunk[];
}

/** The batch job's result: the run, the supersets read back, the files to write. */
interface BatchResult {
  readonly run: GroundRun;
  readonly final: Supersets;
  readonly files: readonly OutputFile[];
}

/**
 * How a batch makes a game's GDDL files: recipes/gddl.ts's `gddlBatchFiles`, which the caller
 * loads only for a batch of GDDL (it proves mutex groups: the mutex stage's modules).
 */
export type GddlBatchFiles = (ctx: RunContext, game: GroundGame, normal: NormalGame, name: string) => OutputFile[];

/**
 * One game of a batch: the game `ground` writes, the supersets read back from the pruned
 * game (under the run's deadline), and its files in `format`, named after `name`, with the
 * default limits of each format; `gddl` makes them for `format` 'gddl'.
 */
export function batchRecipe(ctx: RunContext, loaded: LoadedGame, format: BatchOutputFormat, name: string, gddl?: GddlBatchFiles): BatchResult {
  if (format === 'gddl' || format === 'rddl') refuseGdl2(loaded.game, format === 'gddl' ? 'GDDL' : 'RDDL');
  const whole = groundWrittenWhole(ctx, loaded, false);
  const final = readBackSupersets(loaded.normal, whole.reach.supersets, whole.full, ctx.options);
  // Only the game written is kept from here on (GroundRun).
  const run: GroundRun = whole.unused === undefined ? { game: whole.game } : { game: whole.game, unused: whole.unused };
  return { run, final, files: batchFiles(ctx, run.game, loaded.normal, format, name, gddl) };
}

function batchFiles(ctx: RunContext, game: GroundGame, normal: NormalGame, format: BatchOutputFormat, name: string, gddl?: GddlBatchFiles): OutputFile[] {
  const gdl = { baseInput: true };
  if (format === 'gdl' || format === 'json') {
    const chunks: OutputChunk[] = [];
    // Byte chunks are views of the writer's buffer: kept, they are copied.
    emitGroundStream(game, format, gdl, (c) => chunks.push(typeof c === 'string' ? c : c.slice()), ctx.timer, ctx.options);
    return [{ name: `${name}.${format}`, text: chunks }];
  }
  if (format === 'rddl') {
    const files = rddlOf(ctx, game, DEFAULT_AXIOM_OPTIONS, name, {}).files;
    return [{ name: `${name}_mdp.rddl`, text: files.domain }, { name: `${name}_inst.rddl`, text: files.instance }];
  }
  if (gddl === undefined) throw new Error('a batch of GDDL needs its GDDL writer (recipes/gddl.ts, gddlBatchFiles)');
  return gddl(ctx, game, normal, name);
}
