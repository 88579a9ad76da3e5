/**
 * The RDDL parts of `ground` and `verify` (docs/rddl.md): `ground GAME --format rddl -o DIR
 * [--horizon N]` writes DIR/<game>_mdp.rddl and DIR/<game>_inst.rddl, each atomically and
 * only once both texts are complete; `verify GAME --rddl DIR` plays those files against the
 * original game. Kept apart from ground.ts and verify.ts so that their other formats stay
 * separate edits.
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { RddlSource } from '../pipeline/formats.js';
import type { RddlOutput } from '../pipeline/recipes/index.js';
import { type StageTimer, formatStages } from '../timer.js';
import { EXIT } from './exit.js';
import { UsageError, readGameFile, writeAtomicFiles } from './io.js';
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
function rddlPaths(dir: string, game: string): { domain: string; instance: string } {
  const base = gameBase(game);
  return { domain: join(dir, `${base}_mdp.rddl`), instance: join(dir, `${base}_inst.rddl`) };
}

/** `ground --format rddl`: writes the domain and instance texts the recipe made into the directory of `-o`. */
export function writeRddl(file: string, flags: RddlFlags, out: RddlOutput, timer: StageTimer): number {
  for (const w of out.axioms.warnings) process.stderr.write(`${file}: warning: ${w}\n`);
  const dir = flags.output!;
  const paths = rddlPaths(dir, file);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new UsageError(`cannot create '${dir}': ${(err as Error).message}`);
  }
  // Both files or neither: a signal between two separate writes left a new domain beside an old instance.
  writeAtomicFiles([[paths.domain, out.files.domain], [paths.instance, out.files.instance]]);
  if (flags.stats === true) {
    const u = out.files.unroll;
    process.stderr.write(`${formatStages(timer.list(), timer.peakRss())}\n`);
    process.stderr.write(`rddl: horizon ${out.files.horizon}${out.files.horizonDetected ? ' (from a step counter)' : ''}; unrolled ${u.components} recursive components (${u.atoms} axioms, at most ${u.maxLayers} layers, ${u.rulesAdded} rules added)\n`);
  }
  return EXIT.ok;
}

/** `verify --rddl DIR`: the domain and instance texts of DIR/<game>_mdp.rddl and _inst.rddl. */
export function readRddlDir(file: string, dir: string): { domain: RddlSource; instance: RddlSource } {
  const paths = rddlPaths(dir, file);
  return { domain: { text: readGameFile(paths.domain), file: paths.domain }, instance: { text: readGameFile(paths.instance), file: paths.instance } };
}
