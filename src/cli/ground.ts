/**
 * `gdl-ground ground GAME [-o FILE] [--method prolog|dg] [--format gdl|json] [--json] [--stats]
 * [--timeout S] [--max-atoms N] [--max-ground-atoms N] [--max-rules N] [--no-base-input]`:
 * instantiates a game and writes the ground game as GDL (default) or JSON. The output file is
 * written atomically: after an error or a limit no file (and no partial file) is left.
 * `--stats` prints per-stage time, counts and peak memory on stderr. Exit 0 ok, 1 invalid
 * game, 2 usage error, 3 limit reached.
 */
import type { Command } from 'commander';
import { formatDiagnostic } from '../gdl/diagnostics.js';
import { type GroundFormat, type PipelineOptions, emitGround, groundNormalGame, loadGame } from '../pipeline.js';
import { StageTimer, formatStages } from '../timer.js';
import { EXIT, UsageError, readGameFile, runCommand, writeOutput } from './io.js';
import { type LimitFlags, addLimitOptions, addMethodOption, parseChoice, resolveFlags } from './options.js';

/** Options of `ground`, as commander parses them. */
interface GroundOptions extends LimitFlags {
  readonly output?: string;
  readonly method: string;
  readonly format?: string;
  readonly json?: boolean;
  readonly stats?: boolean;
  readonly baseInput: boolean;
}

/** Everything `ground` needs, resolved once from the command line. */
interface Resolved {
  readonly pipeline: PipelineOptions;
  readonly format: GroundFormat;
}

function resolveOptions(options: GroundOptions): Resolved {
  const pipeline = resolveFlags(options);
  const format = options.format === undefined ? undefined : parseChoice(options.format, '--format', ['gdl', 'json'] as const);
  if (options.json === true && format === 'gdl') throw new UsageError('--json contradicts --format gdl');
  return { pipeline, format: options.json === true || format === 'json' ? 'json' : 'gdl' };
}

function ground(file: string, options: GroundOptions): number {
  const resolved = resolveOptions(options);
  const text = readGameFile(file);
  const timer = new StageTimer();
  const loaded = loadGame(text, file, resolved.pipeline, timer);
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const game = groundNormalGame(loaded.normal, resolved.pipeline, timer).ground;
  const out = emitGround(game, resolved.format, { baseInput: options.baseInput }, timer);
  writeOutput(options.output, out);
  if (options.stats === true) process.stderr.write(`${formatStages(timer.list(), timer.peakRss())}\n`);
  return EXIT.ok;
}

/** Registers `gdl-ground ground`. */
export function registerGround(program: Command): void {
  const command = program
    .command('ground')
    .description('instantiate a game: write an equivalent variable-free game as GDL or JSON')
    .argument('<game>', 'game description in KIF')
    .option('-o, --output <file>', 'write the ground game to a file (atomically) instead of stdout');
  addMethodOption(command)
    .option('--format <format>', 'gdl (default) or json')
    .option('--json', 'same as --format json')
    .option('--stats', 'print per-stage time, counts and peak memory on stderr');
  addLimitOptions(command, 'ground')
    .option('--no-base-input', 'leave out the (base F) and (input R M) declarations of the GDL output')
    .action((file: string, options: GroundOptions) => runCommand(() => ground(file, options)));
}
