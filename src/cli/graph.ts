/**
 * `gdl-ground graph GAME [--relation R] [--format dot|text] [--timeout S] [--max-atoms N]
 * [-o FILE]`: the argument dependency graph of the dependency-graph method (Figure 9.2 of the
 * thesis), with the size of every position's domain, so that one can see why a domain is
 * large. `--relation R` keeps only the part R's domains come from. Exit 0 ok, 1 invalid game,
 * 2 usage error, 3 limit reached.
 */
import type { Command } from 'commander';
import { formatDiagnostic } from '../gdl/diagnostics.js';
import { graphRecipe, loadRun, runContext } from '../pipeline/recipes/index.js';
import { StageTimer } from '../timer.js';
import { EXIT } from './exit.js';
import { UsageError, checkOutputTarget, gameName, readGameFile, runCommand, writeOutput } from './io.js';
import { type LimitFlags, addLimitOptions, parseChoice, resolveFlags } from './options.js';

/** Options of `graph`, as commander parses them. */
interface GraphOptions extends LimitFlags {
  readonly relation?: string;
  readonly format: string;
  readonly output?: string;
}

function graph(file: string, options: GraphOptions): number {
  const format = parseChoice(options.format, '--format', ['dot', 'text'] as const);
  const pipeline = resolveFlags({ ...options, method: 'dg' });
  checkOutputTarget(options.output);
  const ctx = runContext(gameName(file), pipeline, new StageTimer());
  const loaded = loadRun(ctx, readGameFile(file));
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const out = graphRecipe(ctx, loaded, format, options.relation);
  if (out === undefined) throw new UsageError(`no relation '${options.relation}' in the argument dependency graph of '${file}'`);
  writeOutput(options.output, out);
  return EXIT.ok;
}

/** Registers `gdl-ground graph`. */
export function registerGraph(program: Command): void {
  const command = program
    .command('graph')
    .description('print the argument dependency graph (dependency-graph method) with domain sizes')
    .argument('<game>', 'game description in KIF')
    .option('--relation <name>', 'only the part of the graph this relation (name or name/arity) depends on')
    .option('--format <format>', 'dot (Graphviz) or text (one position a line)', 'dot');
  addLimitOptions(command, 'reach')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action((file: string, options: GraphOptions) => runCommand(() => graph(file, options)));
}
