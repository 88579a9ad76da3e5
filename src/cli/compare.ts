/**
 * `gdl-ground compare GAME [--timeout S] [--max-atoms N] [--max-ground-atoms N] [--max-rules N]
 * [--json] [--no-plain]`: runs Algorithm 9.2 as the thesis writes it (prolog-plain; not with
 * --no-plain), the optimized Prolog method and the dependency-graph method, each followed by
 * instantiation and ground reachability, and prints side by side the superset sizes before post-processing, the time of
 * each step and whether the final supersets and ground games are identical.
 * Exit 0 identical, 1 different (or invalid game), 2 usage error, 3 prolog or dg reached a
 * limit (prolog-plain reaching one is reported, but the verdict is then the other two's).
 */
import type { Command } from 'commander';
import type { Comparison, MethodRun } from '../pipeline/compare.js';
import { formatDiagnostic } from '../gdl/diagnostics.js';
import type { SupersetSizes } from '../pipeline/stages.js';
import { compareRecipe, loadRun, runContext } from '../pipeline/recipes/index.js';
import { StageTimer } from '../timer.js';
import { EXIT } from './exit.js';
import { checkOutputTarget, gameName, readGameFile, runCommand, writeOutput } from './io.js';
import { type LimitFlags, addLimitOptions, addSplitOption, limitSettings, resolveFlags } from './options.js';

/** Options of `compare`, as commander parses them. */
interface CompareOptions extends LimitFlags {
  readonly json?: boolean;
  readonly output?: string;
  /** False with `--no-plain`: only prolog and dg, as before the plain method existed. */
  readonly plain?: boolean;
}

function num(n: number | undefined): string {
  if (n === undefined) return '-';
  return n === Infinity ? 'infinite' : n >= 1e15 ? n.toExponential(2) : String(n);
}

function sizeRows(title: string, runs: readonly (SupersetSizes | undefined)[]): string[] {
  return [title, ...(['fluents', 'moves', 'axioms'] as const).map((k) => row(`  ${k}`, ...runs.map((r) => num(r?.[k]))))];
}

/** A line of the report: a label, then one column per method. */
function row(label: string, ...cells: string[]): string {
  return `${label.padEnd(30)}${cells.map((c) => c.padStart(14)).join('')}`;
}

function stepMs(run: MethodRun, step: string): string {
  const t = run.times.find((x) => x.step === step);
  return t === undefined ? '-' : t.ms.toFixed(1);
}

function totalMs(run: MethodRun): number {
  return run.times.reduce((s, t) => s + t.ms, 0);
}

function finalSizes(run: MethodRun): SupersetSizes | undefined {
  const s = run.supersets;
  return s === undefined ? undefined : { fluents: s.fluents.length, moves: s.moves.length, axioms: s.axioms.length };
}

/** The side-by-side report. */
function formatComparison(file: string, c: Comparison): string {
  // Plain Algorithm 9.2 first when it ran: the reproduction, then the improvements.
  const runs = [...(c.plain === undefined ? [] : [c.plain]), c.prolog, c.dg];
  const cells = (f: (r: MethodRun) => string): string[] => runs.map(f);
  const lines = [
    `game ${file}`,
    row('', ...cells((r) => r.method)),
    row('status', ...cells((r) => r.status)),
    ...sizeRows('supersets before post-processing', runs.map((r) => r.before)),
    ...sizeRows('supersets given to instantiation', runs.map((r) => r.reduced)),
    ...(c.dg.upward ? [row('dg components reduced upward', ...cells((r) => (r.method === 'dg' ? String(c.dg.upward) : '')))] : []),
    'time (ms)',
    ...['reach', 'instantiate', 'prune'].map((s) => row(`  ${s}`, ...cells((r) => stepMs(r, s)))),
    row('  total', ...cells((r) => totalMs(r).toFixed(1))),
    row('ground rules', ...cells((r) => num(r.ground?.rules.length))),
    ...sizeRows('final supersets', runs.map(finalSizes)),
  ];
  for (const run of runs) if (run.status !== 'ok') lines.push(`${run.method}: ${run.message}`);
  for (const n of c.notes) lines.push(`note: ${n}`);
  if (c.identical === true) lines.push('result: identical');
  else if (c.identical === false) lines.push('result: different', ...c.differences.map((d) => `  ${d}`));
  else lines.push('result: not compared (a method did not finish)');
  return `${lines.join('\n')}\n`;
}

/** The comparison as JSON, without the (large) supersets and ground games. */
function comparisonJson(file: string, c: Comparison): string {
  const strip = (r: MethodRun): object => ({
    status: r.status, message: r.message, times: r.times, before: r.before, reduced: r.reduced, upward: r.upward,
    final: finalSizes(r), groundRules: r.ground?.rules.length,
  });
  const plain = c.plain === undefined ? {} : { 'prolog-plain': strip(c.plain) };
  const json = { file, identical: c.identical ?? null, differences: c.differences, notes: c.notes, prolog: strip(c.prolog), dg: strip(c.dg), ...plain };
  return `${JSON.stringify(json, null, 2)}\n`;
}

function exitCode(c: Comparison): number {
  if (c.identical === true) return EXIT.ok;
  if (c.identical === false) return EXIT.invalid;
  const statuses = [c.prolog.status, c.dg.status];
  if (statuses.includes('error')) return EXIT.internal;
  if (statuses.includes('limit')) return EXIT.limit;
  return EXIT.invalid;
}

function compare(file: string, options: CompareOptions): number {
  // Each method resolves its own options (and deadline) from these settings when it starts.
  const settings = limitSettings(options);
  checkOutputTarget(options.output);
  // Loading and repair run under the flags' limits too: --timeout covers them.
  const ctx = runContext(gameName(file), resolveFlags(options), new StageTimer());
  const loaded = loadRun(ctx, readGameFile(file));
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const c = compareRecipe(loaded, settings, options.plain !== false);
  writeOutput(options.output, options.json === true ? comparisonJson(gameName(file), c) : formatComparison(gameName(file), c));
  return exitCode(c);
}

/** Registers `gdl-ground compare`. */
export function registerCompare(program: Command): void {
  const command = program
    .command('compare')
    .description('run prolog-plain, prolog and dg side by side and check that their results are identical')
    .argument('<game>', 'game description in KIF');
  // The limits apply to each method separately: each gets the whole budget for itself.
  // --split-above and --frame-above: both methods must agree at any threshold (docs/ground.md).
  addSplitOption(addLimitOptions(command, 'ground'))
    .option('--json', 'print the comparison as JSON')
    .option('--no-plain', 'leave out prolog-plain (Algorithm 9.2 as the thesis writes it), which gives up on larger games')
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .action((file: string, options: CompareOptions) => runCommand(() => compare(file, options)));
}
