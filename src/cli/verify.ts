/**
 * `gdl-ground verify GAME [--playouts N] [--seed S] [--max-steps N] [--method prolog|dg] [--mutex]
 * [--timeout S] [--max-atoms N] [--max-ground-atoms N] [--max-rules N]`: grounds GAME, then plays N random matches of the original game (the Prolog
 * reasoner) and the ground game (the ground simulator) side by side, comparing in every state
 * the legal moves of each role, terminal, the goal values and the successor after the same
 * joint move; with `--mutex`, also that no proven mutex group is violated (a violation is a bug
 * in the proof, reported with the state). Exit 0 when identical, 1 with the first difference printed (or an invalid
 * game), 2 usage error, 3 time limit.
 */
import type { Command } from 'commander';
import { formatDiagnostic } from '../gdl/diagnostics.js';
import {
  DEFAULT_MUTEX_SETTINGS, type PipelineOptions, type VerifyOptions, formatDifference, groundNormalGame, loadGame, mutexGroups, verifyGrounding,
} from '../pipeline.js';
import { EXIT, readGameFile, runCommand } from './io.js';
import { type LimitFlags, addLimitOptions, addMethodOption, parseWhole, resolveFlags } from './options.js';

/** Options of `verify`, as commander parses them. */
interface VerifyCliOptions extends LimitFlags {
  readonly playouts: string;
  readonly seed: string;
  readonly maxSteps: string;
  readonly method: string;
  readonly mutex?: boolean;
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
  const loaded = loadGame(readGameFile(file), file, resolved.pipeline);
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const { ground } = groundNormalGame(loaded.normal, resolved.pipeline);
  // With --mutex, every visited state must also satisfy every proven mutex group.
  const groups = options.mutex === true ? mutexGroups(ground, resolved.pipeline, DEFAULT_MUTEX_SETTINGS).groups.filter((g) => g.proven) : undefined;
  const verifyOptions = groups === undefined ? resolved.verify : { ...resolved.verify, groups };
  const result = verifyGrounding(loaded.normal, ground, resolved.pipeline, verifyOptions);
  const s = result.stats;
  const summary = `${s.playouts} playouts, ${s.states} states, ${s.transitions} joint moves compared (${s.terminals} reached terminal, ${s.stuck} stuck)`;
  if (result.kind === 'same') {
    process.stdout.write(`${file}: identical: ${summary}\n`);
    return EXIT.ok;
  }
  process.stdout.write(`${file}: ${formatDifference(result.difference)}\n`);
  return EXIT.invalid;
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
    .option('--mutex', 'also hold every proven mutex group (gdl-ground mutex) in every visited state');
  addMethodOption(command);
  addLimitOptions(command, 'ground')
    .action((file: string, options: VerifyCliOptions) => runCommand(() => verify(file, options)));
}
