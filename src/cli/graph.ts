/**
 * `gdl-ground graph GAME [--relation R] [--format dot|text] [-o FILE]`: the argument dependency
 * graph of the dependency-graph method (Figure 9.2 of the thesis), with the size of every
 * position's domain, so that one can see why a domain is large. `--relation R` keeps only the
 * part R's domains come from. Exit 0 ok, 1 invalid game, 2 usage error, 3 limit reached.
 */
import type { Command } from 'commander';
import { formatDiagnostic } from '../gdl/diagnostics.js';
import { DEFAULT_PIPELINE_OPTIONS, loadGame } from '../pipeline.js';
import { argGraphToDot, argGraphToText } from '../reach/dg/dot.js';
import { dependencyGraph } from '../reach/dg/index.js';
import { DEFAULT_REACH_LIMITS } from '../reach/types.js';
import { EXIT, UsageError, parsePositive, readGameFile, runCommand, writeOutput } from './io.js';

/** Options of `graph`, as commander parses them. */
interface GraphOptions {
  readonly relation?: string;
  readonly format: string;
  readonly timeout?: string;
  readonly maxAtoms?: string;
  readonly output?: string;
}

function graph(file: string, options: GraphOptions): number {
  const start = Date.now();
  if (options.format !== 'dot' && options.format !== 'text') throw new UsageError(`--format must be 'dot' or 'text', not '${options.format}'`);
  const timeout = options.timeout === undefined ? Infinity : parsePositive(options.timeout, '--timeout');
  const maxAtoms = options.maxAtoms === undefined ? DEFAULT_REACH_LIMITS.maxAtoms : parsePositive(options.maxAtoms, '--max-atoms');
  const loaded = loadGame(readGameFile(file), file, DEFAULT_PIPELINE_OPTIONS);
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const { graph: g, domains } = dependencyGraph(loaded.normal, { deadline: start + timeout * 1000, maxAtoms });
  const render = options.format === 'dot' ? argGraphToDot : argGraphToText;
  const out = render(g, domains, { relation: options.relation });
  if (out === undefined) throw new UsageError(`no relation '${options.relation}' in the argument dependency graph of '${file}'`);
  writeOutput(options.output, out);
  return EXIT.ok;
}

/** Registers `gdl-ground graph`. */
export function registerGraph(program: Command): void {
  program
    .command('graph')
    .description('print the argument dependency graph (dependency-graph method) with domain sizes')
    .argument('<game>', 'game description in KIF')
    .option('--relation <name>', 'only the part of the graph this relation (name or name/arity) depends on')
    .option('--format <format>', 'dot (Graphviz) or text (one position a line)', 'dot')
    .option('--timeout <seconds>', 'stop with exit 3 after this many seconds')
    .option('--max-atoms <n>', `stop with exit 3 beyond this many static atoms (default ${DEFAULT_REACH_LIMITS.maxAtoms})`)
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action((file: string, options: GraphOptions) => runCommand(() => graph(file, options)));
}
