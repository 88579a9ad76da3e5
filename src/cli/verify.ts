/**
 * `gdl-ground verify GAME [--playouts N] [--seed S] [--max-steps N] [--method prolog|dg]
 * [--timeout S]`: grounds GAME, then plays N random matches of the original game (the Prolog
 * reasoner) and the ground game (the ground simulator) side by side, comparing in every state
 * the legal moves of each role, terminal, the goal values and the successor after the same
 * joint move. Exit 0 when identical, 1 with the first difference printed (or an invalid
 * game), 2 usage error, 3 time limit.
 */
import type { Command } from 'commander';
import { formatDiagnostic } from '../gdl/diagnostics.js';
import { DEFAULT_PIPELINE_OPTIONS, type PipelineOptions, type ReachMethod, groundNormalGame, loadGame } from '../pipeline.js';
import { createGroundSimulator } from '../sim/ground-sim.js';
import { createReasoner } from '../sim/reasoner.js';
import { type VerifyOptions, formatDifference, verifyGame } from '../sim/verify.js';
import { EXIT, UsageError, parsePositive, readGameFile, runCommand } from './io.js';

/** Options of `verify`, as commander parses them. */
interface VerifyCliOptions {
  readonly playouts: string;
  readonly seed: string;
  readonly maxSteps: string;
  readonly method: string;
  readonly timeout?: string;
}

/** Everything `verify` needs, resolved once from the command line. */
interface Resolved {
  readonly pipeline: PipelineOptions;
  readonly verify: VerifyOptions;
  readonly deadline: number;
}

function wholeNumber(value: string, option: string, allowZero: boolean): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || (!allowZero && n === 0)) {
    throw new UsageError(`${option} needs a whole number${allowZero ? '' : ' above 0'}, not '${value}'`);
  }
  return n;
}

function resolveOptions(options: VerifyCliOptions, start: number): Resolved {
  if (options.method !== 'prolog' && options.method !== 'dg') {
    throw new UsageError(`--method must be 'prolog' or 'dg', not '${options.method}'`);
  }
  const timeout = options.timeout === undefined ? Infinity : parsePositive(options.timeout, '--timeout');
  const deadline = start + timeout * 1000;
  return {
    pipeline: {
      ...DEFAULT_PIPELINE_OPTIONS,
      method: options.method as ReachMethod,
      limits: { ...DEFAULT_PIPELINE_OPTIONS.limits, deadline },
      ground: { ...DEFAULT_PIPELINE_OPTIONS.ground, deadline },
    },
    verify: {
      playouts: wholeNumber(options.playouts, '--playouts', false),
      seed: wholeNumber(options.seed, '--seed', true),
      maxSteps: wholeNumber(options.maxSteps, '--max-steps', false),
    },
    deadline,
  };
}

function verify(file: string, options: VerifyCliOptions): number {
  const resolved = resolveOptions(options, Date.now());
  const loaded = loadGame(readGameFile(file), file, resolved.pipeline);
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const { ground } = groundNormalGame(loaded.normal, resolved.pipeline);
  const original = createReasoner(loaded.normal, { deadline: resolved.deadline });
  const result = verifyGame(original, createGroundSimulator(ground), resolved.verify);
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
  program
    .command('verify')
    .description('play random matches of the original and the ground game side by side and compare every state')
    .argument('<game>', 'game description in KIF')
    .option('--playouts <n>', 'number of random matches', '10')
    .option('--seed <s>', 'seed of the random joint moves (a whole number)', '1')
    .option('--max-steps <n>', 'joint moves per match before it is cut off', '200')
    .option('--method <method>', 'supersets by prolog (Algorithm 9.2) or dg (argument dependency graph)', 'prolog')
    .option('--timeout <seconds>', 'stop with exit 3 after this many seconds')
    .action((file: string, options: VerifyCliOptions) => runCommand(() => verify(file, options)));
}
