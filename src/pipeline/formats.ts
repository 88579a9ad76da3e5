/**
 * Step 8 beyond GDL and JSON: the planners' formats, GDDL (docs/gddl.md) and RDDL
 * (docs/rddl.md); playing them back against the original game is formats-verify.ts's. Above the
 * pipeline, like compare.ts: it strings together the pipeline's stages (mutex groups, axiom
 * removal) and the writers, readers and simulators of the two formats.
 */
import type { AxiomResult, MutexResult, PipelineOptions } from './stages.js';
import { DEFAULT_UNROLL_OPTIONS, unrollRecursion } from '../axioms/unroll.js';
import { type GddlModel, buildGddl } from '../formats/gddl/model.js';
import type { GddlFiles, GddlOptions } from '../formats/gddl/options.js';
import { writeGddl } from '../formats/gddl/write.js';
import { type RddlFiles, type RddlOptions, emitRddl } from '../formats/rddl/write.js';
import { NO_POS } from '../gdl/ast.js';
import { GdlError, diag } from '../gdl/diagnostics.js';
import { StageTimer, utf8Length } from '../timer.js';

export type { RddlFiles, RddlOptions } from '../formats/rddl/write.js';
export type { UnrollStats } from '../axioms/unroll.js';
export type { RddlSource } from '../formats/rddl/read.js';

// ---- GDDL output and read-back (issue 14, docs/gddl.md) ----

export type { GddlModel } from '../formats/gddl/model.js';
export { DEFAULT_GDDL_OPTIONS, GDDL_FILE_NAMES, type GddlFiles, type GddlOptions, refuseGdl2 } from './format-basics.js';


/**
 * Step 8 for GDDL, the model (slides 44-49): multi-actions, rewards and the partition, of a game
 * without axioms and its mutex groups; a limit error beyond `gddl.maxActions` multi-actions and
 * past the run's deadline. The recipes sequence it after mutex groups and axiom removal.
 */
export function gddlModel(axioms: AxiomResult, groups: MutexResult['groups'], gddl: GddlOptions, options: PipelineOptions, timer: StageTimer): GddlModel {
  return timer.run('gddl', () => buildGddl(axioms.game, groups, gddl, options.deadline), (m) => ({ actions: m.actions.length }));
}

/** The three GDDL files of `model` (`file` names the game in the domain); a limit past the deadline or when too large. */
export function gddlFiles(model: GddlModel, file: string, options: PipelineOptions, timer: StageTimer): GddlFiles {
  return timer.run('emit', () => {
    try {
      return writeGddl(model, file, options.deadline);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      throw new GdlError([diag('error', file, NO_POS, `the GDDL domain is too large to write (${model.actions.length} multi-actions)`)], 'limit', { kind: 'output' });
    }
  }, (f) => ({ bytes: utf8Length(f.domain) + utf8Length(f.problem) + utf8Length(f.partition) }));
}


// --- RDDL output (issue 15) ---

/**
 * Step 8b for RDDL: the recursive axioms of a game without axioms unrolled into layers
 * (`src/axioms/unroll.ts`); past the run's deadline a limit error.
 */
export function unrollForRddl(game: AxiomResult['game'], options: PipelineOptions, timer: StageTimer): ReturnType<typeof unrollRecursion> {
  return timer.run('unroll', () => unrollRecursion(game, DEFAULT_UNROLL_OPTIONS, options.deadline), (r) => ({ layers: r.stats.maxLayers, rules: r.stats.rulesAdded }));
}

/**
 * Step 8 for RDDL: an unrolled game as an RDDL domain and instance named after `base`. One role
 * only (an invalid-input error otherwise); past the run's deadline, or too large, a limit error.
 */
export function rddlFiles(unrolled: AxiomResult['game'], base: string, rddl: RddlOptions, options: PipelineOptions, timer: StageTimer): RddlFiles {
  return timer.run('emit-rddl', () => {
    try {
      return emitRddl(unrolled, base, rddl, options.deadline);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      throw new GdlError([diag('error', unrolled.file, NO_POS, `the RDDL translation is too large to write (${unrolled.rules.length} rules)`)], 'limit', { kind: 'output' });
    }
  }, (f) => ({ bytes: f.domain.length + f.instance.length }));
}
