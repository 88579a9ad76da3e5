/**
 * The recipes that write the ground game: `ground` (GDL, JSON, `--remove-axioms`) and the batch
 * job (`--format gddl`: recipes/gddl.ts, `--format rddl`: recipes/rddl.ts, each loaded by its
 * caller only for its format). Each starts from {@link groundWritten} and returns what to write;
 * the caller writes it.
 */
import type { GdlEmitOptions } from '../../formats/gdl/write.js';
import type { RunContext } from '../context.js';
import { refuseGdl2 } from '../format-basics.js';
import {
  type AxiomOptions, type AxiomResult, type GroundFormat, type GroundGame, type LoadedGame, type MutexResult, type NormalGame, type OutputChunk, type Supersets,
  emitFormulaGroundStream, emitGroundStream, readBackSupersets, removeGameAxioms,
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
 * How a batch makes a game's GDDL or RDDL files: recipes/gddl.ts's `gddlBatchFiles` or
 * recipes/rddl.ts's `rddlBatchFiles`, which the caller loads only for a batch of that format
 * (GDDL proves mutex groups: the mutex stage's modules; both load the formats' writers).
 */
export type PlannerBatchFiles = (ctx: RunContext, game: GroundGame, normal: NormalGame, name: string) => OutputFile[];

/**
 * One game of a batch: the game `ground` writes, the supersets read back from the pruned
 * game (under the run's deadline), and its files in `format`, named after `name`, with the
 * default limits of each format; `planner` makes them for `format` 'gddl' or 'rddl'.
 */
export function batchRecipe(ctx: RunContext, loaded: LoadedGame, format: BatchOutputFormat, name: string, planner?: PlannerBatchFiles): BatchResult {
  if (format === 'gddl' || format === 'rddl') refuseGdl2(loaded.game, format === 'gddl' ? 'GDDL' : 'RDDL');
  const whole = groundWrittenWhole(ctx, loaded, false);
  const final = readBackSupersets(loaded.normal, whole.reach.supersets, whole.full, ctx.options);
  // Only the game written is kept from here on (GroundRun).
  const run: GroundRun = whole.unused === undefined ? { game: whole.game } : { game: whole.game, unused: whole.unused };
  return { run, final, files: batchFiles(ctx, run.game, loaded.normal, format, name, planner) };
}

function batchFiles(ctx: RunContext, game: GroundGame, normal: NormalGame, format: BatchOutputFormat, name: string, planner?: PlannerBatchFiles): OutputFile[] {
  const gdl = { baseInput: true };
  if (format === 'gdl' || format === 'json') {
    const chunks: OutputChunk[] = [];
    // Byte chunks are views of the writer's buffer: kept, they are copied.
    emitGroundStream(game, format, gdl, (c) => chunks.push(typeof c === 'string' ? c : c.slice()), ctx.timer, ctx.options);
    return [{ name: `${name}.${format}`, text: chunks }];
  }
  if (planner === undefined) throw new Error(`a batch of ${format.toUpperCase()} needs its writer (recipes/${format}.ts, ${format}BatchFiles)`);
  return planner(ctx, game, normal, name);
}
