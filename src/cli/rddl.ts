/**
 * The RDDL parts of `ground` and `verify` (docs/rddl.md): `ground GAME --format rddl -o DIR
 * [--horizon N]` writes DIR/<game>_mdp.rddl and DIR/<game>_inst.rddl, each atomically and
 * only once both texts are complete; `verify GAME --rddl DIR` plays those files against the
 * original game. Kept apart from ground.ts and verify.ts so that their other formats stay
 * separate edits.
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  type AxiomOptions, type GroundGame, type NormalGame, type PipelineOptions, type VerifyOptions, type VerifyResult, removeGameAxioms,
} from '../pipeline/stages.js';
import { emitRddlGround, verifyRddl } from '../pipeline/formats.js';
import { type StageTimer, formatStages } from '../timer.js';
import { EXIT, UsageError, readGameFile, writeAtomic } from './io.js';
import { parseWhole } from './options.js';

/** The flags of `ground` that RDDL output reads. */
export interface RddlFlags {
  readonly output?: string;
  readonly horizon?: string;
  readonly stats?: boolean;
}

/** Usage errors of `--format rddl`, found before any work. */
export function checkRddlFlags(flags: RddlFlags): void {
  if (flags.output === undefined || flags.output === '-') throw new UsageError('--format rddl writes two files: give a directory with -o DIR');
  if (flags.horizon !== undefined) parseWhole(flags.horizon, '--horizon');
}

/** `<game>` of the output files: the game file's name without its extension. */
export function gameBase(file: string): string {
  return basename(file).replace(/\.(kif|gdl|txt)$/i, '');
}

/** The two file paths of the RDDL translation of `game` in `dir`. */
export function rddlPaths(dir: string, game: string): { domain: string; instance: string } {
  const base = gameBase(game);
  return { domain: join(dir, `${base}_mdp.rddl`), instance: join(dir, `${base}_inst.rddl`) };
}

/**
 * `ground --format rddl`, after `ground` has loaded, ground and pruned the game: removes axioms,
 * unrolls recursion, writes both files.
 */
export function writeRddl(file: string, flags: RddlFlags, game: GroundGame, pipeline: PipelineOptions, axiomOptions: AxiomOptions, timer: StageTimer): number {
  const axioms = removeGameAxioms(game, pipeline, axiomOptions, timer);
  for (const w of axioms.warnings) process.stderr.write(`${file}: warning: ${w}\n`);
  const horizon = flags.horizon === undefined ? undefined : parseWhole(flags.horizon, '--horizon');
  const out = emitRddlGround(axioms.game, gameBase(file), horizon === undefined ? {} : { horizon }, pipeline, timer);
  const dir = flags.output!;
  const paths = rddlPaths(dir, file);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new UsageError(`cannot create '${dir}': ${(err as Error).message}`);
  }
  writeAtomic(paths.domain, out.domain);
  writeAtomic(paths.instance, out.instance);
  if (flags.stats === true) {
    const u = out.unroll;
    process.stderr.write(`${formatStages(timer.list(), timer.peakRss())}\n`);
    process.stderr.write(`rddl: horizon ${out.horizon}${out.horizonDetected ? ' (from a step counter)' : ''}; unrolled ${u.components} recursive components (${u.atoms} axioms, at most ${u.maxLayers} layers, ${u.rulesAdded} rules added)\n`);
  }
  return EXIT.ok;
}

/** `verify --rddl DIR`: the original game against DIR/<game>_mdp.rddl and _inst.rddl. */
export function verifyAgainstRddl(normal: NormalGame, file: string, dir: string, pipeline: PipelineOptions, verify: VerifyOptions): VerifyResult {
  const paths = rddlPaths(dir, file);
  const domain = { text: readGameFile(paths.domain), file: paths.domain };
  const instance = { text: readGameFile(paths.instance), file: paths.instance };
  return verifyRddl(normal, domain, instance, pipeline, verify);
}
