/**
 * `gdl-ground batch PATH... [--jobs N] [--timeout S] [--max-memory MB] [--method prolog|dg]
 * [--format gdl|json|gddl|rddl] [--out DIR] [--report FILE.md|FILE.csv|FILE.json]`: grounds every game
 * under the paths (files, or folders searched recursively for .kif and .gdl files), N at a
 * time, each in its own worker process with its own time and memory limit, and writes a
 * report (Markdown on stdout without `--report`). Output files are named after the games,
 * written atomically under `--out`. Ctrl-C kills the workers, removes their temporary files,
 * writes no report and exits 130. Exit 0 when every game was ground, 3 when the only failures
 * are limits, 1 when a game was invalid or crashed its worker, 2 on a usage error.
 */
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { MissingPathError, discoverGames } from '../batch/discover.js';
import { BATCH_FORMAT_NAMES } from '../batch/outputs.js';
import { Progress } from '../batch/progress.js';
import { type ReportFormat, formatReport, reportFormatOf, summarize, summaryLines } from '../batch/report.js';
import { type BatchOptions, defaultMaxMemoryMb, runBatch } from '../batch/run.js';
import type { GameRow } from '../batch/types.js';
import { EXIT } from './exit.js';
import { UsageError, checkOutputTarget, runCommand, writeAtomic } from './io.js';
import { type LimitFlags, addLazyOption, addLimitOptions, addMethodOption, limitSettings, parseChoice, parseMethod, parseWhole } from './options.js';

/** Exit code after Ctrl-C (128 + SIGINT), and after SIGTERM. */
const EXIT_INTERRUPTED: Readonly<Record<'SIGINT' | 'SIGTERM', number>> = { SIGINT: 130, SIGTERM: 143 };

/** Options of `batch`, as commander parses them. */
interface BatchFlags extends LimitFlags {
  readonly jobs?: string;
  readonly maxMemory?: string;
  readonly method: string;
  readonly format: string;
  readonly out?: string;
  readonly report?: string;
}

/** Everything `batch` needs, resolved once. */
interface Resolved {
  readonly batch: BatchOptions;
  readonly report: { readonly path: string; readonly format: ReportFormat } | undefined;
}

function resolveOptions(flags: BatchFlags): Resolved {
  const limits = limitSettings(flags);
  const jobs = flags.jobs === undefined ? availableParallelism() : parseWhole(flags.jobs, '--jobs');
  const maxMemoryMb = flags.maxMemory === undefined ? defaultMaxMemoryMb(jobs) : parseWhole(flags.maxMemory, '--max-memory');
  let report: Resolved['report'];
  if (flags.report !== undefined) {
    const format = reportFormatOf(flags.report);
    if (format === undefined) throw new UsageError(`--report needs a file ending in .md, .csv or .json, not '${flags.report}'`);
    report = { path: flags.report, format };
  }
  const batch: BatchOptions = {
    jobs,
    timeoutSeconds: limits.timeoutSeconds,
    maxMemoryMb,
    method: parseMethod(flags.method),
    format: parseChoice(flags.format, '--format', BATCH_FORMAT_NAMES),
    out: flags.out,
    ...(limits.maxReachAtoms === undefined ? {} : { maxReachAtoms: limits.maxReachAtoms }),
    ...(limits.maxGroundAtoms === undefined ? {} : { maxGroundAtoms: limits.maxGroundAtoms }),
    ...(limits.maxGroundRules === undefined ? {} : { maxGroundRules: limits.maxGroundRules }),
    ...(limits.lazyAxioms === true ? { lazyAxioms: true } : {}),
  };
  return { batch, report };
}

/** 0 when every game was ground, 3 when every failure is a limit, else 1. */
function exitCode(rows: readonly GameRow[]): number {
  if (rows.every((r) => r.status === 'ok')) return EXIT.ok;
  return rows.every((r) => r.status === 'ok' || r.status === 'limit' || r.status === 'memory') ? EXIT.limit : EXIT.invalid;
}

async function batch(paths: readonly string[], flags: BatchFlags): Promise<number> {
  const resolved = resolveOptions(flags);
  checkOutputTarget(flags.out, 'folders');
  checkOutputTarget(flags.report);
  let games;
  try {
    games = discoverGames(paths);
  } catch (err) {
    if (err instanceof MissingPathError) throw new UsageError(err.message);
    throw err;
  }
  // An empty batch would write an empty report and exit 0: a wrong folder would pass unseen.
  if (games.length === 0) throw new UsageError(`no games (.kif or .gdl files) found under ${paths.map((p) => `'${p}'`).join(', ')}`);
  const controller = new AbortController();
  let stoppedBy: 'SIGINT' | 'SIGTERM' | undefined;
  const stop = (sig: 'SIGINT' | 'SIGTERM') => (): void => {
    stoppedBy ??= sig;
    controller.abort();
  };
  const onInt = stop('SIGINT');
  const onTerm = stop('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  const progress = new Progress(games.length);
  try {
    const result = await runBatch(games, resolved.batch, controller.signal, { onStart: (g) => progress.started(g), onDone: (r) => progress.finished(r) });
    progress.stop();
    if (result.interrupted) {
      process.stderr.write(`gdl-ground: batch interrupted after ${result.rows.length} of ${games.length} games; no report written\n`);
      return EXIT_INTERRUPTED[stoppedBy ?? 'SIGINT'];
    }
    const text = formatReport(result.rows, resolved.report?.format ?? 'md');
    if (resolved.report === undefined) process.stdout.write(text);
    else {
      writeAtomic(resolved.report.path, text);
      process.stderr.write(`${summaryLines(summarize(result.rows)).join('\n')}\n`);
    }
    return exitCode(result.rows);
  } finally {
    progress.stop();
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}

/** Registers `gdl-ground batch`. */
export function registerBatch(program: Command): void {
  const command = program
    .command('batch')
    .description('ground every game under the paths, N at a time, each in its own worker with its own limits, and report')
    .argument('<paths...>', 'game files, or folders searched recursively for .kif and .gdl files')
    .option('--jobs <n>', 'games ground at the same time (default: the number of processors)')
    .option('--max-memory <mb>', 'V8 heap of each worker in MB (default: half the machine\'s memory divided by --jobs, at least 256)');
  addMethodOption(command)
    .option('--format <format>', `output format: ${BATCH_FORMAT_NAMES.join(' or ')}`, 'gdl')
    .option('--out <dir>', 'write each ground game under this folder, named after the game (atomically); without it nothing is written')
    .option('--report <file>', 'write the report here: Markdown (.md), CSV (.csv) or JSON (.json); default Markdown on stdout');
  addLazyOption(addLimitOptions(command, 'ground', false))
    .action((paths: string[], flags: BatchFlags) => runCommand(() => batch(paths, flags)));
}
