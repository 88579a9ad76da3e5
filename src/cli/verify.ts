/**
 * `gdl-ground verify GAME [--playouts N] [--seed S] [--max-steps N] [--method prolog|dg] [--mutex] [--ground FILE]
 * [--timeout S] [--max-atoms N] [--max-ground-atoms N] [--max-rules N]`: grounds GAME, then plays N random matches of the original game (the Prolog
 * reasoner) and the ground game (the ground simulator) side by side, comparing in every state
 * the legal moves of each role, terminal, the goal values and the successor after the same
 * joint move; with `--mutex`, also that no proven mutex group is violated (a violation is a bug
 * in the proof, reported with the state). With `--ground FILE`, the ground game of FILE (any
 * output of `ground`, axioms removed or not) is played through the reasoner instead; with `--gddl DIR`, the
 * GDDL game of DIR (`ground --format gddl -o DIR`) through the GDDL simulator; with `--rddl DIR`,
 * the RDDL files of `ground --format rddl` through the RDDL simulator. Exit 0 when identical, 1 with the first difference printed (or an invalid
 * game), 2 usage error, 3 time limit.
 */
import type { Command } from 'commander';
import { type Diagnostic, formatDiagnostic } from '../gdl/diagnostics.js';
import type { PipelineOptions, VerifyOptions } from '../pipeline/stages.js';
import { formatDifference } from '../pipeline/stages-play.js';
import { type VerifyTarget, loadRun, runContext, verifyRecipe } from '../pipeline/recipes/index.js';
import { StageTimer } from '../timer.js';
import { readGddlDir } from './gddl.js';
import { EXIT } from './exit.js';
import { UsageError, gameName, readGameFile, runCommand } from './io.js';
import { readRddlDir } from './rddl.js';
import { type LimitFlags, addLimitOptions, addMethodOption, addLazyOption, addSplitOption, parseWhole, resolveFlags } from './options.js';

/** Options of `verify`, as commander parses them. */
interface VerifyCliOptions extends LimitFlags {
  readonly playouts: string;
  readonly seed: string;
  readonly maxSteps: string;
  readonly method: string;
  readonly mutex?: boolean;
  readonly ground?: string;
  readonly gddl?: string;
  readonly rddl?: string;
}

/** Everything `verify` needs, resolved once from the command line. */
interface Resolved {
  readonly pipeline: PipelineOptions;
  readonly verify: VerifyOptions;
}

function resolveOptions(options: VerifyCliOptions): Resolved {
  return {
    pipeline: resolveFlags(options),
    verify: {
      playouts: parseWhole(options.playouts, '--playouts'),
      seed: parseWhole(options.seed, '--seed', true),
      maxSteps: parseWhole(options.maxSteps, '--max-steps'),
    },
  };
}

function verify(file: string, options: VerifyCliOptions): number {
  const resolved = resolveOptions(options);
  if (options.ground !== undefined && options.mutex === true) throw new UsageError('--mutex checks a grounding made now; it cannot be combined with --ground');
  const ctx = runContext(gameName(file), resolved.pipeline, new StageTimer());
  const loaded = loadRun(ctx, readGameFile(file));
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const other = [options.gddl, options.rddl, options.ground].filter((o) => o !== undefined).length + (options.mutex === true ? 1 : 0);
  if ((options.gddl !== undefined || options.rddl !== undefined) && other > 1) throw new UsageError('--gddl and --rddl cannot be combined with each other, --ground or --mutex');
  const { result, warnings, repairs } = verifyRecipe(ctx, loaded, target(file, options), resolved.verify);
  for (const d of warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  if (repairs.length > 0) process.stdout.write(`${gameName(file)}: ${repairNote(repairs)}\n`);
  const s = result.stats;
  const summary = `${s.playouts} playouts, ${s.states} states, ${s.transitions} joint moves compared (${s.terminals} reached terminal, ${s.stuck} stuck)`;
  if (result.kind === 'same') {
    process.stdout.write(`${gameName(file)}: identical: ${summary}\n`);
    return EXIT.ok;
  }
  process.stdout.write(`${gameName(file)}: ${formatDifference(result.difference)}\n`);
  return EXIT.invalid;
}

/** The line saying that both sides played the game as repaired at loading, with the repairs by kind. */
function repairNote(repairs: readonly Diagnostic[]): string {
  const kinds = new Map<string, number>();
  for (const d of repairs) kinds.set(d.repair!, (kinds.get(d.repair!) ?? 0) + 1);
  const list = [...kinds].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${n} ${k}`).join(', ');
  return `played the repaired game: ${repairs.length} repair${repairs.length === 1 ? '' : 's'} at loading (${list}; warnings above), on both sides; docs/validation.md says why each keeps the game`;
}

/** What the flags ask the original to be played against; the files named are read here. */
function target(file: string, options: VerifyCliOptions): VerifyTarget {
  if (options.gddl !== undefined) return { kind: 'gddl', files: readGddlDir(options.gddl), dir: options.gddl };
  if (options.rddl !== undefined) return { kind: 'rddl', ...readRddlDir(file, options.rddl) };
  if (options.ground !== undefined) return { kind: 'ground-file', text: readGameFile(options.ground), file: gameName(options.ground) };
  return { kind: 'grounding', keepUnused: false, mutex: options.mutex === true };
}

/** Registers `gdl-ground verify`. */
export function registerVerify(program: Command): void {
  const command = program
    .command('verify')
    .description('play random matches of the original and the ground game side by side and compare every state')
    .argument('<game>', 'game description in KIF')
    .option('--playouts <n>', 'number of random matches', '10')
    .option('--seed <s>', 'seed of the random joint moves (a whole number)', '1')
    .option('--max-steps <n>', 'joint moves per match before it is cut off', '200')
    .option('--mutex', 'also hold every proven mutex group (gdl-ground mutex) in every visited state')
    .option('--ground <file>', 'play this ground game file (from gdl-ground ground, axioms removed or not) instead of grounding now')
    .option('--gddl <dir>', 'play the GDDL game in this directory (from gdl-ground ground --format gddl -o DIR) instead of grounding now')
    .option('--rddl <dir>', 'play the RDDL translation in DIR (<game>_mdp.rddl, <game>_inst.rddl from ground --format rddl) instead');
  addMethodOption(command);
  addLazyOption(addSplitOption(addLimitOptions(command, 'ground')))
    .action((file: string, options: VerifyCliOptions) => runCommand(() => verify(file, options)));
}
