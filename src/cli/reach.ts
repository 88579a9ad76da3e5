/**
 * `gdl-ground reach GAME [--method prolog|prolog-plain|dg] [--json] [--stats] [--timeout S] [--max-atoms N]
 * [--max-ground-atoms N] [--max-rules N]`:
 * prints the supersets of reachable fluents, moves and axioms (step 3, section 9.1.2) as GDL
 * sentences, one a line, sorted by code point; `--json` prints the three lists as arrays.
 * Exit 0 ok, 1 invalid game, 2 usage error, 3 limit reached (the message names the relation).
 */
import type { Command } from 'commander';
import { formatDiagnostic } from '../gdl/diagnostics.js';
import { type ReachProgress, type ReachResult, type ReachStats, formatSupersets, supersetSentences } from '../pipeline/stages.js';
import { loadRun, reachRecipe, runContext } from '../pipeline/recipes/index.js';
import { StageTimer } from '../timer.js';
import { EXIT } from './exit.js';
import { checkOutputTarget, gameName, readGameFile, runCommand, writeOutput } from './io.js';
import { type LimitFlags, addLimitOptions, addMethodOption, resolveFlags } from './options.js';

/** Options of `reach`, as commander parses them. */
interface ReachOptions extends LimitFlags {
  readonly method: string;
  readonly json?: boolean;
  readonly stats?: boolean;
  readonly output?: string;
}

/** A progress line on stderr, at most once a second and only after two seconds, on a terminal. */
function progressReporter(start: number): { report: (p: ReachProgress) => void; done: () => void } {
  if (!process.stderr.isTTY) return { report: () => undefined, done: () => undefined };
  let last = start;
  let shown = false;
  return {
    report: (p) => {
      const now = Date.now();
      if (now - start < 2000 || now - last < 1000) return;
      last = now;
      shown = true;
      const secs = ((now - start) / 1000).toFixed(0);
      process.stderr.write(`\rreach: ${secs}s, round ${p.round}, ${p.atoms} atoms, largest relation ${p.largest}\x1b[K`);
    },
    done: () => {
      if (shown) process.stderr.write('\r\x1b[K');
    },
  };
}

function formatStats(stats: ReachStats, result: ReachResult): string {
  const s = result.supersets;
  const lines = [
    `method      ${stats.method}`,
    `fluents     ${s.fluents.length}`,
    `moves       ${s.moves.length}`,
    `axioms      ${s.axioms.length}`,
    `iterations  ${stats.iterations}`,
    `answers     ${stats.answers}`,
    `kept        ${stats.kept}`,
    ...(stats.plain === undefined ? [] : [
      `asserted does   ${stats.plain.moves}`,
      `asserted true   ${stats.plain.fluents}`,
      `axiom facts     ${stats.plain.axioms}`,
      `closure rounds  ${stats.plain.closureRounds}`,
    ]),
    ...stats.times.map((t) => `${t.step.padEnd(11)} ${t.ms.toFixed(1)} ms`),
  ];
  return `${lines.join('\n')}\n`;
}

function reach(file: string, options: ReachOptions): number {
  const start = Date.now();
  const pipeline = resolveFlags(options);
  checkOutputTarget(options.output);
  const text = readGameFile(file);
  const ctx = runContext(gameName(file), pipeline, new StageTimer());
  const loaded = loadRun(ctx, text);
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  // Progress lines are the Prolog method's only.
  const progress = pipeline.method === 'prolog' ? progressReporter(start) : undefined;
  let result: ReachResult;
  try {
    result = reachRecipe(ctx, loaded, progress?.report);
  } finally {
    progress?.done();
  }
  const out = options.json === true ? `${JSON.stringify(supersetSentences(result.supersets), null, 2)}\n` : formatSupersets(result.supersets);
  writeOutput(options.output, out);
  if (options.stats === true) process.stderr.write(formatStats(result.stats, result));
  return EXIT.ok;
}

/** Registers `gdl-ground reach`. */
export function registerReach(program: Command): void {
  const command = program
    .command('reach')
    .description('print supersets of reachable fluents (base), moves (input) and axioms of a game')
    .argument('<game>', 'game description in KIF');
  addMethodOption(command)
    .option('--json', 'print the three supersets as JSON arrays')
    .option('--stats', 'print iterations, answers, kept facts and step times on stderr');
  // The dependency-graph method ends with instantiation, so the ground limits apply too.
  addLimitOptions(command, 'ground')
    .option('-o, --output <file>', 'write the supersets to a file instead of stdout')
    .action((file: string, options: ReachOptions) => runCommand(() => reach(file, options)));
}
