/**
 * The recipe that writes the ground game as RDDL (`ground --format rddl`, a batch of RDDL): apart
 * from recipes/ground.ts so that a run writing GDL or JSON loads neither the RDDL writer nor
 * the unrolling of recursive axioms (docs/corpus.md, fred20).
 */
import type { RunContext } from '../context.js';
import { type RddlFiles, type RddlOptions, type UnrollStats, rddlFiles, refuseGdl2, unrollForRddl } from '../formats.js';
import { type AxiomOptions, type AxiomResult, type GroundGame, type LoadedGame, type NormalGame, DEFAULT_AXIOM_OPTIONS, removeGameAxioms } from '../stages.js';
import { type GroundRun, groundWritten } from './game.js';
import type { FoundResults, OutputFile } from './ground.js';

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

/** The RDDL files of a batch game named `name`, with the default limits (`batchRecipe`'s `planner`). */
export function rddlBatchFiles(ctx: RunContext, game: GroundGame, _normal: NormalGame, name: string): OutputFile[] {
  const files = rddlOf(ctx, game, DEFAULT_AXIOM_OPTIONS, name, {}).files;
  return [{ name: `${name}_mdp.rddl`, text: files.domain }, { name: `${name}_inst.rddl`, text: files.instance }];
}
