/**
 * `npm run bench -- --reach-ablation [--games A,B] [--dir NAME] [--runs N] [--timeout S] [--out FILE]`:
 * the share of each optimization of the `prolog` method (docs/reach.md). Every game runs as
 * plain Algorithm 9.2 (`prolog-plain`), as the optimized method, and as the optimized method
 * with each optimization of src/reach/ablation.ts switched off in turn, each run in a fresh
 * process (src/bench/ablation-worker.ts); the table gives the processor seconds of the superset
 * computation (the median of `--runs`, default 1), the machine's load average before and after,
 * and asserts that every variant that finished printed the very supersets of the optimized
 * method (exit 1 and `DIFFERS` otherwise). Without `--games`, {@link DEFAULT_GAMES}.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamesDir, listGames } from '../../scripts/corpus.mjs';
import { OPTIMIZATIONS } from '../pipeline/stages.js';
import { failureText, runAll, runChild } from '../batch/runner.js';
import { v8Flags } from '../runtime.js';
import { argValue, positiveArg } from './args.js';
import type { AblationRun } from './ablation-main.js';

const WORKER = join(dirname(fileURLToPath(import.meta.url)), 'ablation-worker.js');

/**
 * Small to medium games of ggp-repository-base (the optimized method takes 0.02-2 s of
 * processor time) where every variant of it finishes within a minute on the project's
 * machine; the plain method gives up on some.
 */
const DEFAULT_GAMES = [
  'ticTacToe', 'connectFour', 'nim3', 'chomp', 'hallway', 'breakthrough', 'pentago', 'knightThrough',
  'qyshinsu', 'tictactoe_3d_6player', 'bomberman2p', 'knightfight', 'skirmish', 'othello-comp2007', 'checkers',
];

/** The variants in table order: the plain method, the optimized one, then one per optimization off. */
const VARIANTS: readonly string[] = ['plain', 'optimized', ...OPTIMIZATIONS.map((o) => `no-${o}`)];

/** One game's variants: the median run of each, and whether every finished one agrees. */
interface GameRow {
  readonly game: string;
  readonly runs: ReadonlyMap<string, AblationRun>;
  readonly differs: readonly string[];
}

/** Runs one variant of one game `runs` times; the run with the median processor time. */
async function measure(file: string, variant: string, timeoutS: number, runs: number): Promise<AblationRun> {
  const all: AblationRun[] = [];
  for (let i = 0; i < runs; i++) {
    const e = await runChild({ args: [WORKER, file, variant, String(timeoutS)], execArgv: v8Flags(), stdout: 'keep', killAfterMs: (timeoutS + 30) * 1000 });
    try {
      all.push(JSON.parse(e.stdout.trim().split('\n').pop() ?? '') as AblationRun);
    } catch {
      all.push({ status: 'error', message: failureText(e), cpuMs: 0, wallMs: 0 });
    }
    // A run stopped by a limit will stop again: the others would only cost time.
    if (all[i]!.status !== 'ok') return all[i]!;
  }
  return [...all].sort((a, b) => a.cpuMs - b.cpuMs)[all.length >> 1]!;
}

/** Variants whose supersets differ from the optimized method's (both finished). */
function differing(runs: ReadonlyMap<string, AblationRun>): string[] {
  const want = runs.get('optimized')?.digest;
  if (want === undefined) return [];
  return [...runs].filter(([, r]) => r.digest !== undefined && r.digest !== want).map(([v]) => v);
}

const seconds = (r: AblationRun | undefined): string => (r === undefined ? '-' : r.status === 'ok' ? (r.cpuMs / 1000).toFixed(2) : `${r.status} (${(r.cpuMs / 1000).toFixed(1)})`);

/** The per-game table: processor seconds per variant, and the check of the supersets. */
function gameTable(rows: readonly GameRow[]): string[] {
  const head = `| game | ${VARIANTS.join(' | ')} | supersets |`;
  const rule = `|---|${VARIANTS.map(() => '---:').join('|')}|---|`;
  const lines = rows.map((r) => `| ${r.game} | ${VARIANTS.map((v) => seconds(r.runs.get(v))).join(' | ')} | ${r.differs.length === 0 ? 'same' : `DIFFERS: ${r.differs.join(', ')}`} |`);
  return [head, rule, ...lines];
}

/**
 * The summary per variant: its total over the games where it and the optimized method both
 * finished, the same games' optimized total, their ratio, and the game it slows down most.
 */
function summaryTable(rows: readonly GameRow[]): string[] {
  const out = ['| variant | games finished | CPU s | optimized CPU s, same games | ratio | largest ratio (game) |', '|---|---:|---:|---:|---:|---|'];
  for (const v of VARIANTS.filter((x) => x !== 'optimized')) {
    const both = rows.filter((r) => r.runs.get(v)?.status === 'ok' && r.runs.get('optimized')?.status === 'ok');
    const sum = (name: string): number => both.reduce((s, r) => s + r.runs.get(name)!.cpuMs, 0) / 1000;
    const ratios = both.map((r) => ({ game: r.game, x: r.runs.get(v)!.cpuMs / Math.max(1, r.runs.get('optimized')!.cpuMs) }));
    const worst = ratios.sort((a, b) => b.x - a.x)[0];
    const ratio = sum('optimized') > 0 ? (sum(v) / sum('optimized')).toFixed(2) : '-';
    out.push(`| ${v} | ${both.length} of ${rows.length} | ${sum(v).toFixed(2)} | ${sum('optimized').toFixed(2)} | ${ratio} | ${worst === undefined ? '-' : `${worst.x.toFixed(1)} (${worst.game})`} |`);
  }
  return out;
}

/** Runs the ablation; resolves to the exit code (1 when some variant's supersets differ). */
export async function runAblationBench(argv: readonly string[]): Promise<number> {
  let timeoutS: number;
  let runs: number;
  try {
    timeoutS = positiveArg(argv, '--timeout', 60);
    runs = positiveArg(argv, '--runs', 1, true);
  } catch (err) {
    process.stderr.write(`bench --reach-ablation: ${(err as Error).message}\n`);
    return 2;
  }
  const filter = (argValue(argv, '--games') ?? DEFAULT_GAMES.map((g) => `${g}.kif`).join(',')).split(',').filter((g) => g !== '');
  const root = gamesDir();
  const games = listGames(root, { folder: argValue(argv, '--dir') ?? 'ggp-repository-base', filter }).filter((g) => argv.includes('--games') || filter.some((f) => g.endsWith(`/${f}`)));
  const loadBefore = loadavg()[0]!;
  const started = Date.now();
  const rows = await runAll(games, 1, async (game): Promise<GameRow> => {
    const results = new Map<string, AblationRun>();
    for (const v of VARIANTS) {
      results.set(v, await measure(join(root, game), v, timeoutS, runs));
      process.stderr.write(`${game.padEnd(44)} ${v.padEnd(18)} ${seconds(results.get(v))}\n`);
    }
    return { game: game.replace(/^.*\//, '').replace(/\.kif$/, ''), runs: results, differs: differing(results) };
  });
  const load = `load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after; ${((Date.now() - started) / 60000).toFixed(0)} min; ${runs} run(s) per variant, the median; timeout ${timeoutS} s`;
  const text = [`Processor seconds of the superset computation (\`reach\`), each run in a fresh process; ${load}.`, '', ...gameTable(rows), '', ...summaryTable(rows), ''].join('\n');
  process.stdout.write(text);
  const out = argValue(argv, '--out');
  if (out !== undefined) writeFileSync(out, text);
  const bad = rows.filter((r) => r.differs.length > 0);
  if (bad.length > 0) process.stderr.write(`bench --reach-ablation: supersets differ in ${bad.map((r) => r.game).join(', ')}\n`);
  return bad.length > 0 ? 1 : 0;
}
