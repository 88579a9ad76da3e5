/**
 * `npm run bench [-- options]`: the superset computation (Algorithm 9.2 on Tau-Prolog) over
 * the game corpus, one worker process per game, printing the table of `gdl-ground batch`'s
 * report (src/batch/report.ts: per game fluents, moves, axioms, seconds and peak memory, and
 * iterations and answers), then a summary (median, slowest, limits).
 *
 *   --dir NAME        corpus folder (default ggp-repository-base; `all` for every folder)
 *   --games A,B       only games whose file name contains one of these (A.kif: exactly A.kif)
 *   --timeout S       per-game time limit in seconds (default 60)
 *   --max-atoms N     per-game atom limit (default 2000000)
 *   --swi             also time SWI-Prolog running plain Algorithm 9.2 (needs `swipl`)
 *   --method M        the superset method timed in the main columns: prolog (default),
 *                     prolog-plain (Algorithm 9.2 as the thesis writes it) or dg
 *   --methods         also run both superset methods (prolog, dg) through instantiation and
 *                     ground reachability: seconds per method, DG size before post-processing,
 *                     and whether the final results are identical
 *   --plain           also run prolog-plain beside them (implies --methods): its reach and
 *                     total seconds, and its results count in `same` when it finishes
 *   --clingo          also time clingo on the relaxed game's least model, and show the ratio
 *                     dg-total / clingo per game and its median (implies --methods), in
 *                     elapsed time (`dg/cl`) and in processor time (`dg/cl cpu`, steadier
 *                     on a busy machine)
 *   --mutex           also ground each game and find its mutex groups: fluents, bits per
 *                     state, grounding seconds T, the stage's seconds and whether within
 *                     T + 10, chosen groups proven lifted / ground / observed / unproven,
 *                     proven fluents of the fluents in observed groups, and whether the
 *                     game was ground eagerly or, after a limit that lazy axioms answer,
 *                     with them as `mutex --lazy-axioms` grounds it (docs/mutex.md)
 *   --json FILE       also write all measurements as JSON
 *   --report FILE     also write the per-game table as the batch report: .md, .csv or .json
 *   --playouts        instead: the Monte-Carlo table of slide 4 (src/bench/playouts.ts)
 *   --corpus          instead: the corpus table of issue 17 (src/bench/corpus.ts, docs/corpus.md)
 *   --scale           instead: seconds and MiB per million rules written on the ten largest
 *                     ground games (or the files of --files A,B), beside gringo on the same
 *                     rules (src/bench/scale.ts); with --lazy-axioms, ours grounds with it
 *   --reach-ablation  instead: processor seconds of reach by plain Algorithm 9.2, the optimized
 *                     method, and the optimized method with each optimization switched off in
 *                     turn, supersets asserted equal (src/bench/ablation.ts, docs/reach.md)
 * GDL_GAMES_DIR overrides the corpus location (default ../shared/games beside the checkout).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamesDir, listGames } from '../../scripts/corpus.mjs';
import { methodCells, methodHeaders } from './dg-column.js';
import { ratioCell } from './clingo-column.js';
import { mutexCells, mutexHeaders, withinBound } from './mutex-column.js';
import { haveSwipl } from './swi.js';
import type { Measurement } from './worker-main.js';
import { measurementRow } from './report-row.js';
import { formatReport, markdownReport, reportFormatOf } from '../batch/report.js';
import { runPlayoutBench } from './playouts.js';
import { runCorpusBench } from './corpus.js';
import { runScaleBench } from './scale.js';
import { runAblationBench } from './ablation.js';
import { argValue, positiveArg } from './args.js';
import { failureText, runAll, runChild } from '../batch/runner.js';
import { v8Flags } from '../runtime.js';
import type { ReachMethod } from '../pipeline/stages.js';

const here = dirname(fileURLToPath(import.meta.url));
const WORKER = join(here, 'worker.js');

/** Options of a benchmark run. */
interface BenchOptions {
  readonly dir: string;
  readonly games: readonly string[];
  readonly timeout: number;
  readonly maxAtoms: number;
  readonly swi: boolean;
  readonly methods: boolean;
  readonly plain: boolean;
  readonly method: ReachMethod;
  readonly clingo: boolean;
  readonly mutex: boolean;
  readonly json: string | undefined;
  readonly report: string | undefined;
}

/** The `--method` of the main columns (prolog when absent); throws with a message on another word. */
function methodArg(value: string | undefined): ReachMethod {
  if (value === undefined || value === 'prolog' || value === 'prolog-plain' || value === 'dg') return value ?? 'prolog';
  throw new Error(`--method needs prolog, prolog-plain or dg, not '${value}'`);
}

function parseArgs(argv: readonly string[]): BenchOptions {
  const get = (name: string): string | undefined => argValue(argv, name);
  const number = (name: string, fallback: number): number => positiveArg(argv, name, fallback);
  return {
    dir: get('--dir') ?? 'ggp-repository-base',
    games: (get('--games') ?? '').split(',').filter((g) => g !== ''),
    timeout: number('--timeout', 60),
    maxAtoms: number('--max-atoms', 2_000_000),
    swi: argv.includes('--swi'),
    methods: argv.includes('--methods') || argv.includes('--clingo') || argv.includes('--plain'),
    plain: argv.includes('--plain'),
    method: methodArg(get('--method')),
    clingo: argv.includes('--clingo'),
    mutex: argv.includes('--mutex'),
    json: get('--json'),
    report: get('--report'),
  };
}

/** Runs one game in a worker (through the corpus runner); a worker that dies or hangs is reported, never fatal. */
async function runOne(root: string, game: string, o: BenchOptions): Promise<Measurement> {
  const flags = [...(o.swi ? ['swi'] : []), ...(o.methods ? ['methods'] : []), ...(o.plain ? ['plain'] : []), ...(o.clingo ? ['clingo'] : []), ...(o.mutex ? ['mutex'] : []), `method=${o.method}`];
  const args = [WORKER, join(root, game), String(o.timeout), String(o.maxAtoms), ...flags];
  // Room for the worker's own limit plus SWI-Prolog's and the methods', then it is killed. The
  // mutex column counts twice: an eager grounding stopped at a limit, then the one with lazy
  // axioms, each under a deadline of the whole timeout (src/bench/mutex-column.ts).
  const runs = 1 + (o.swi ? 1 : 0) + (o.methods ? 2 : 0) + (o.plain ? 1 : 0) + (o.clingo ? 1 : 0) + (o.mutex ? 2 : 0);
  // The command line's V8 settings, so that the superset stage is measured as `ground` runs it.
  const e = await runChild({ args, execArgv: v8Flags(), stdout: 'keep', killAfterMs: (o.timeout * runs + 30) * 1000 });
  const line = e.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as Measurement;
  } catch {
    return { status: 'error', message: failureText(e), seconds: 0, peakMiB: 0 };
  }
}

/** The benchmark's own columns of a game, beside the report's (src/batch/report.ts). */
function extraCells(m: Measurement, o: BenchOptions): Record<string, string> {
  const out: Record<string, string> = {};
  if (m.swi !== undefined) out['swi s'] = m.swi.kind === 'ok' ? m.swi.seconds.toFixed(2) : m.swi.kind;
  if (m.swi?.kind === 'ok' && m.status === 'ok' && (m.swi.fluents !== m.fluents || m.swi.moves !== m.moves || m.swi.axioms !== m.axioms)) out['swi agrees'] = 'DIFFERS';
  if (o.methods) methodHeaders(o.plain).forEach((h, i) => { out[h] = methodCells(m.methods, o.plain)[i]!; });
  if (o.clingo) {
    out['clingo-s'] = m.clingo === undefined ? '-' : m.clingo.kind === 'ok' ? m.clingo.seconds.toFixed(2) : m.clingo.kind;
    out['dg/cl'] = ratioCell(dgTotal(m), m.clingo);
    out['dg/cl cpu'] = ratioCell(dgCpu(m), m.clingo, true);
  }
  if (o.mutex) mutexHeaders().forEach((h, i) => { out[h] = mutexCells(m.mutex)[i]!; });
  return out;
}

/** The dg method's total seconds (reach, instantiation, ground reachability), when it finished. */
function dgTotal(m: Measurement): number | undefined {
  return m.methods?.dg.status === 'ok' ? m.methods.dg.totalSeconds : undefined;
}

/** The dg method's processor seconds for the same, when it finished. */
function dgCpu(m: Measurement): number | undefined {
  return m.methods?.dg.status === 'ok' ? m.methods.dg.cpuSeconds : undefined;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function summary(results: readonly { game: string; m: Measurement }[], o: BenchOptions): string {
  // A game stopped by a limit counts as taking the whole time limit.
  const time = (m: Measurement): number => (m.status === 'ok' ? m.seconds : o.timeout);
  const lines = [`games ${results.length}, ok ${results.filter((r) => r.m.status === 'ok').length}`];
  lines.push(`median seconds (limits count as ${o.timeout}): ${median(results.map((r) => time(r.m))).toFixed(3)}`);
  const slow = [...results].sort((a, b) => time(b.m) - time(a.m)).slice(0, 10);
  lines.push(`slowest: ${slow.map((r) => `${r.game} ${r.m.status === 'ok' ? r.m.seconds.toFixed(1) : r.m.status}`).join(', ')}`);
  for (const status of ['limit', 'invalid', 'error'] as const) {
    const hit = results.filter((r) => r.m.status === status);
    if (hit.length > 0) lines.push(`${status} (${hit.length}): ${hit.map((r) => r.game).join(', ')}`);
  }
  if (o.swi) {
    const swiTime = (m: Measurement): number => (m.swi?.kind === 'ok' ? m.swi.seconds : o.timeout);
    lines.push(`SWI-Prolog plain Algorithm 9.2, median seconds: ${median(results.map((r) => swiTime(r.m))).toFixed(3)}`);
    const both = results.filter((r) => r.m.status === 'ok' && r.m.swi?.kind === 'ok');
    lines.push(`both finished: ${both.length}; faster than SWI-Prolog on ${both.filter((r) => r.m.seconds <= swiTime(r.m)).length}`);
    const differ = both.filter((r) => r.m.swi?.kind === 'ok' && (r.m.swi.fluents !== r.m.fluents || r.m.swi.moves !== r.m.moves || r.m.swi.axioms !== r.m.axioms));
    lines.push(`counts differing from SWI-Prolog: ${differ.length}${differ.length > 0 ? ` (${differ.map((r) => r.game).join(', ')})` : ''}`);
  }
  if (o.clingo) {
    const both = results.filter((r) => dgTotal(r.m) !== undefined && r.m.clingo?.kind === 'ok');
    const ratios = both.map((r) => dgTotal(r.m)! / Math.max((r.m.clingo as { seconds: number }).seconds, 1e-4));
    lines.push(`dg total / clingo, median over the ${both.length} games both finished: ${median(ratios).toFixed(2)}`);
    const cpuRatios = both.map((r) => dgCpu(r.m)! / Math.max((r.m.clingo as { cpuSeconds: number }).cpuSeconds, 1e-4));
    lines.push(`dg total / clingo in processor time, median over the same games: ${median(cpuRatios).toFixed(2)}`);
  }
  if (o.mutex) lines.push(...mutexSummary(results));
  return lines.join('\n');
}

/** Totals of the mutex columns: games, fluents against bits, proven share, median time. */
function mutexSummary(results: readonly { game: string; m: Measurement }[]): string[] {
  const ok = results.flatMap((r) => (r.m.mutex?.status === 'ok' ? [r.m.mutex] : []));
  const sum = (f: (m: (typeof ok)[number]) => number): number => ok.reduce((s, m) => s + f(m), 0);
  const fluents = sum((m) => m.fluents!);
  const bits = sum((m) => m.bits!);
  const ratios = ok.filter((m) => m.fluents! > 0).map((m) => m.bits! / m.fluents!);
  const share = (m: (typeof ok)[number]): number => (m.observedFluents === 0 ? 1 : m.provenFluents! / m.observedFluents!);
  const late = ok.filter((m) => !withinBound(m));
  const low = results.filter((r) => r.m.mutex?.status === 'ok' && share(r.m.mutex) < 0.9);
  const lazy = results.filter((r) => r.m.mutex?.mode === 'lazy');
  const lazyOk = lazy.filter((r) => r.m.mutex?.status === 'ok');
  return [
    `mutex: within T + 10 s on ${ok.length - late.length} of ${ok.length}; proven >= 90% of the fluents in observed groups on ${ok.length - low.length}${low.length > 0 ? ` (not: ${low.map((r) => r.game).join(', ')})` : ''}`,
    `mutex: chosen groups ${sum((m) => m.lifted!)} proven lifted, ${sum((m) => m.ground!)} proven ground, ${sum((m) => m.observed!)} observed only, ${sum((m) => m.unproven!)} unproven for lack of budget; proven fluents ${sum((m) => m.provenFluents!)} of ${sum((m) => m.observedFluents!)} in observed groups`,
    `mutex: ${ok.length} of ${results.length} games; fluents ${fluents}, bits ${bits} (${((100 * bits) / Math.max(1, fluents)).toFixed(1)}%), median bits/fluents ${median(ratios).toFixed(3)}`,
    `mutex: fluents in proven groups ${sum((m) => m.provenFluents!)} (${((100 * sum((m) => m.provenFluents!)) / Math.max(1, fluents)).toFixed(1)}%), groups proven ${sum((m) => m.provenGroups!)} of ${sum((m) => m.groups!)}`,
    `mutex: median seconds (sampling and proof) ${median(ok.map((m) => m.seconds)).toFixed(3)}, slowest ${Math.max(0, ...ok.map((m) => m.seconds)).toFixed(1)}`,
    `mutex: ground with lazy axioms after the eager grounding stopped at a limit: ${lazy.length} games, ${lazyOk.length} measured (counted above)${lazy.length > 0 ? `: ${lazy.map((r) => `${r.game}${r.m.mutex?.status === 'ok' ? '' : ` ${r.m.mutex?.status}`}`).join(', ')}` : ''}`,
  ];
}

async function main(): Promise<number> {
  let o: BenchOptions;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    return 2;
  }
  const root = gamesDir();
  if (!existsSync(root)) {
    process.stderr.write(`bench: no game corpus at ${root} (set GDL_GAMES_DIR)\n`);
    return 2;
  }
  if (o.swi && !haveSwipl()) {
    process.stderr.write('bench: --swi needs swipl (apt-get install swi-prolog-nox)\n');
    return 2;
  }
  // A name ending in .kif names one game: checkers.kif, not cylinder-checkers.kif.
  const exact = (g: string): boolean => o.games.some((f) => f.endsWith('.kif') ? g.endsWith(`/${f}`) : g.slice(g.lastIndexOf('/') + 1).includes(f));
  const games = listGames(root, { folder: o.dir, filter: o.games }).filter(exact);
  // One game at a time: the benchmark measures time and peak memory, which parallel games would disturb.
  const results = await runAll(games, 1, async (game) => {
    const m = await runOne(root, game, o);
    process.stderr.write(`${game.padEnd(50)} ${m.status} ${m.seconds.toFixed(2)} s\n`);
    return { game, m };
  });
  // The per-game table is the batch report's (Markdown on stdout; --report FILE.md|csv|json too).
  const rows = results.map((r) => measurementRow(r.game, r.m, extraCells(r.m, o)));
  process.stdout.write(markdownReport(rows));
  if (o.report !== undefined) writeFileSync(o.report, formatReport(rows, reportFormatOf(o.report) ?? 'md'));
  process.stdout.write(`\n${summary(results, o)}\n`);
  if (o.json !== undefined) writeFileSync(o.json, `${JSON.stringify(results, null, 2)}\n`);
  return 0;
}

// `--playouts`: the Monte-Carlo table of slide 4 (src/bench/playouts.ts), a mode of its own.
// `--corpus`: the corpus table of issue 17 (src/bench/corpus.ts), asynchronous (the batch runner).
// `--reach-ablation`: the share of each optimization of the prolog method (src/bench/ablation.ts).
if (process.argv.includes('--reach-ablation')) process.exitCode = await runAblationBench(process.argv.slice(2));
else if (process.argv.includes('--corpus')) process.exitCode = await runCorpusBench(process.argv.slice(2));
else if (process.argv.includes('--scale')) process.exitCode = await runScaleBench(process.argv.slice(2));
else process.exitCode = process.argv.includes('--playouts') ? await runPlayoutBench(process.argv.slice(2)) : await main();
