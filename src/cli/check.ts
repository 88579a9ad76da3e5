/**
 * `gdl-ground check GAME [--json]`: validates a game and prints a short summary. Diagnostics
 * (errors, and warnings for repairs) go to stderr, sorted by position, in both modes; the
 * summary, or with --json an object holding it, goes to stdout. Exit 0 valid, 1 invalid, 3 a
 * limit (`--timeout`, `--max-memory`, `--max-disjuncts`, `--max-term-depth`) reached.
 */
import type { Command } from 'commander';
import { type Diagnostic, GdlError, formatDiagnostic } from '../gdl/diagnostics.js';
import { type GameSummary, formatSummary } from '../pipeline/stages.js';
import { checkRecipe, loadRun, runContext } from '../pipeline/recipes/index.js';
import { StageTimer } from '../timer.js';
import { EXIT } from './exit.js';
import { gameName, readGameFile, runCommand } from './io.js';
import { addLoadOptions, addMemoryOption, addTermDepthOption, resolveFlags } from './options.js';

/** Options of `check`, as commander parses them. */
interface CheckOptions {
  readonly json?: boolean;
  readonly timeout?: string;
  readonly maxMemory?: string;
  readonly maxDisjuncts?: string;
  readonly maxTermDepth?: string;
}

/** The JSON document of `check --json`. */
interface CheckReport {
  readonly file: string;
  readonly valid: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly summary?: GameSummary;
}

function printDiagnostics(list: readonly Diagnostic[]): void {
  for (const d of list) process.stderr.write(`${formatDiagnostic(d)}\n`);
}

function check(file: string, options: CheckOptions): number {
  const { timeout, maxMemory, maxDisjuncts, maxTermDepth } = options;
  const pipeline = resolveFlags({ timeout, maxMemory, maxDisjuncts, maxTermDepth });
  const text = readGameFile(file);
  try {
    const loaded = loadRun(runContext(gameName(file), pipeline, new StageTimer()), text);
    printDiagnostics(loaded.warnings);
    const summary = checkRecipe(loaded);
    const report: CheckReport = { file: gameName(file), valid: true, diagnostics: loaded.warnings, summary };
    process.stdout.write(options.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatSummary(summary));
    return EXIT.ok;
  } catch (err) {
    // Limits and internal failures are runCommand's to report; an invalid game is reported here,
    // so that --json can describe it on stdout too.
    if (!(err instanceof GdlError) || err.code !== 'invalid') throw err;
    printDiagnostics(err.diagnostics);
    if (options.json === true) {
      const report: CheckReport = { file: gameName(file), valid: false, diagnostics: err.diagnostics };
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    }
    return EXIT.invalid;
  }
}

/** Registers `gdl-ground check`. */
export function registerCheck(program: Command): void {
  const command = program
    .command('check')
    .description('validate a game and print a summary (roles, relation and rule counts, fluents, moves, static relations, axioms)')
    .argument('<game>', 'game description in KIF')
    .option('--json', 'print the result as JSON');
  addTermDepthOption(addMemoryOption(addLoadOptions(command)))
    .action((file: string, options: CheckOptions) => runCommand(() => check(file, options)));
}
