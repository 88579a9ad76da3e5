/**
 * The recipes that write the ground game as GDDL (`ground --format gddl`, a batch of GDDL):
 * apart from recipes/ground.ts because they prove mutex groups, so importing them loads the
 * mutex stage and the simulators (about 70 modules), which a run that writes GDL or JSON does
 * without (docs/corpus.md, gt15).
 */
import type { RunContext } from '../context.js';
import { type GddlFiles, type GddlModel, type GddlOptions, GDDL_FILE_NAMES, DEFAULT_GDDL_OPTIONS, gddlFiles, gddlModel, refuseGdl2 } from '../formats.js';
import {
  type AxiomOptions, type AxiomResult, type GroundGame, type LoadedGame, type MutexResult, type MutexSettings, type NormalGame,
  DEFAULT_AXIOM_OPTIONS, DEFAULT_MUTEX_SETTINGS, removeGameAxioms,
} from '../stages.js';
import { mutexGroups } from '../stages-play.js';
import { type GroundRun, groundWritten } from './game.js';
import type { FoundResults, OutputFile } from './ground.js';

/** What `ground --format gddl` needs besides the run. */
interface GddlSettings {
  readonly keepUnused: boolean;
  readonly gddl: GddlOptions;
  readonly axioms: AxiomOptions;
  readonly mutex: MutexSettings;
}

/** `ground --format gddl`: the written game's mutex groups, axioms removed, the three files. */
export function gddlRecipe(ctx: RunContext, loaded: LoadedGame, settings: GddlSettings): { run: GroundRun; output: GddlOutput } {
  refuseGdl2(loaded.game, 'GDDL');
  const run = groundWritten(ctx, loaded, settings.keepUnused);
  return { run, output: gddlOf(ctx, run.game, loaded.normal, settings) };
}


/** {@link gddlRecipe} on a grounding made already (by {@link groundWritten}) of `loaded`. */
export function gddlOutput(ctx: RunContext, loaded: LoadedGame, run: GroundRun, settings: Omit<GddlSettings, 'keepUnused'>, found: FoundResults = {}): GddlOutput {
  refuseGdl2(loaded.game, 'GDDL');
  return gddlOf(ctx, run.game, loaded.normal, settings, found);
}

/** What the GDDL output of a ground game is made of: its mutex groups, its axioms removed, the model, the files. */
export interface GddlOutput {
  readonly mutex: MutexResult;
  readonly axioms: AxiomResult;
  readonly model: GddlModel;
  readonly files: GddlFiles;
}

/**
 * Steps 6 to 8 for GDDL (slides 44-49) on the written game: its mutex groups (proven on
 * `normal`'s rules first, as `mutex` proves them), axiom removal, the model (multi-actions,
 * rewards, partition) and its three files.
 */
function gddlOf(ctx: RunContext, game: GroundGame, normal: NormalGame, settings: Omit<GddlSettings, 'keepUnused'>, found: FoundResults = {}): GddlOutput {
  const mutex = found.mutex ?? mutexGroups(game, normal, ctx.options, settings.mutex, ctx.timer);
  const axioms = found.axioms ?? removeGameAxioms(game, ctx.options, settings.axioms, ctx.timer);
  const model = gddlModel(axioms, mutex.groups, settings.gddl, ctx.options, ctx.timer);
  return { mutex, axioms, model, files: gddlFiles(model, game.file, ctx.options, ctx.timer) };
}

/** The GDDL files of a batch game named `name`, with the default limits (`batchRecipe`'s `gddl`). */
export function gddlBatchFiles(ctx: RunContext, game: GroundGame, normal: NormalGame, name: string): OutputFile[] {
  const settings = { gddl: DEFAULT_GDDL_OPTIONS, axioms: DEFAULT_AXIOM_OPTIONS, mutex: DEFAULT_MUTEX_SETTINGS };
  const files = gddlOf(ctx, game, normal, settings).files;
  return [
    { name: `${name}/${GDDL_FILE_NAMES.domain}`, text: files.domain },
    { name: `${name}/${GDDL_FILE_NAMES.problem}`, text: files.problem },
    { name: `${name}/${GDDL_FILE_NAMES.partition}`, text: files.partition },
  ];
}
