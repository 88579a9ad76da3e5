/**
 * `gdl-ground ground GAME [-o FILE] [--method prolog|dg] [--format gdl|json] [--json] [--stats]
 * [--timeout S] [--max-atoms N] [--max-rules N] [--no-base-input]`: instantiates a game and
 * writes the ground game as GDL (default) or JSON. The output file is written atomically: after
 * an error or a limit no file (and no partial file) is left. `--stats` prints per-stage time,
 * counts and peak memory on stderr. Exit 0 ok, 1 invalid game, 2 usage error, 3 limit reached.
 */
import type { Command } from 'commander';
import { NO_POS } from '../gdl/ast.js';
import { GdlError, diag, formatDiagnostic } from '../gdl/diagnostics.js';
import { emitGdl } from '../emit/gdl.js';
import { emitJson } from '../emit/json.js';
import { DEFAULT_INSTANTIATE_LIMITS } from '../ground/instantiate.js';
import type { GroundGame } from '../ground/types.js';
import { DEFAULT_PIPELINE_OPTIONS, type PipelineOptions, type ReachMethod, groundNormalGame, loadGame } from '../pipeline.js';
import { DEFAULT_REACH_LIMITS } from '../reach/types.js';
import { StageTimer, formatStages } from '../timer.js';
import { EXIT, UsageError, parsePositive, readGameFile, runCommand, writeOutput } from './io.js';

/** Options of `ground`, as commander parses them. */
interface GroundOptions {
  readonly output?: string;
  readonly method: string;
  readonly format?: string;
  readonly json?: boolean;
  readonly stats?: boolean;
  readonly timeout?: string;
  readonly maxAtoms?: string;
  readonly maxRules?: string;
  readonly baseInput: boolean;
}

/** Everything `ground` needs, resolved once from the command line. */
interface Resolved {
  readonly pipeline: PipelineOptions;
  readonly format: 'gdl' | 'json';
}

function wholeNumber(value: string | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = parsePositive(value, option);
  if (!Number.isInteger(n)) throw new UsageError(`${option} needs a whole number, not '${value}'`);
  return n;
}

function resolveOptions(options: GroundOptions, start: number): Resolved {
  if (options.method !== 'prolog' && options.method !== 'dg') {
    throw new UsageError(`--method must be 'prolog' or 'dg', not '${options.method}'`);
  }
  if (options.format !== undefined && options.format !== 'gdl' && options.format !== 'json') {
    throw new UsageError(`--format must be 'gdl' or 'json', not '${options.format}'`);
  }
  if (options.json === true && options.format === 'gdl') throw new UsageError('--json contradicts --format gdl');
  const timeout = options.timeout === undefined ? Infinity : parsePositive(options.timeout, '--timeout');
  const deadline = start + timeout * 1000;
  const maxAtoms = wholeNumber(options.maxAtoms, '--max-atoms', DEFAULT_REACH_LIMITS.maxAtoms);
  const maxRules = wholeNumber(options.maxRules, '--max-rules', DEFAULT_INSTANTIATE_LIMITS.maxRules);
  return {
    pipeline: {
      ...DEFAULT_PIPELINE_OPTIONS,
      method: options.method as ReachMethod,
      limits: { deadline, maxAtoms },
      ground: {
        ...DEFAULT_INSTANTIATE_LIMITS,
        deadline,
        maxRules,
        maxAtoms: wholeNumber(options.maxAtoms, '--max-atoms', DEFAULT_INSTANTIATE_LIMITS.maxAtoms),
      },
    },
    format: options.json === true || options.format === 'json' ? 'json' : 'gdl',
  };
}

/** Emits the text; a game too large for one string is reported as a limit, not a crash. */
function emit(game: GroundGame, format: 'gdl' | 'json', baseInput: boolean): string {
  try {
    return format === 'json' ? emitJson(game) : emitGdl(game, { baseInput });
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new GdlError([diag('error', game.file, NO_POS, `the ground game is too large to write (${game.rules.length} rules)`)], 'limit');
  }
}

function ground(file: string, options: GroundOptions): number {
  const start = Date.now();
  const resolved = resolveOptions(options, start);
  const text = readGameFile(file);
  const timer = new StageTimer();
  const loaded = loadGame(text, file, resolved.pipeline, timer);
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const game = groundNormalGame(loaded.normal, resolved.pipeline, timer).ground;
  const out = timer.run('emit', () => emit(game, resolved.format, options.baseInput), (s) => ({ bytes: Buffer.byteLength(s) }));
  writeOutput(options.output, out);
  if (options.stats === true) process.stderr.write(`${formatStages(timer.list(), timer.peakRss())}\n`);
  return EXIT.ok;
}

/** Registers `gdl-ground ground`. */
export function registerGround(program: Command): void {
  program
    .command('ground')
    .description('instantiate a game: write an equivalent variable-free game as GDL or JSON')
    .argument('<game>', 'game description in KIF')
    .option('-o, --output <file>', 'write the ground game to a file (atomically) instead of stdout')
    .option('--method <method>', 'supersets by prolog (Algorithm 9.2) or dg (argument dependency graph)', 'prolog')
    .option('--format <format>', 'gdl (default) or json')
    .option('--json', 'same as --format json')
    .option('--stats', 'print per-stage time, counts and peak memory on stderr')
    .option('--timeout <seconds>', 'stop with exit 3 after this many seconds')
    .option('--max-atoms <n>', `stop with exit 3 beyond this many ground atoms (default ${DEFAULT_REACH_LIMITS.maxAtoms})`)
    .option('--max-rules <n>', `stop with exit 3 beyond this many ground rules (default ${DEFAULT_INSTANTIATE_LIMITS.maxRules})`)
    .option('--no-base-input', 'leave out the (base F) and (input R M) declarations of the GDL output')
    .action((file: string, options: GroundOptions) => runCommand(() => ground(file, options)));
}
