/**
 * `node dist/bench/compare-corpus.js [--dir NAME|all] [--games A,B] [--timeout S] [--shard I/N] [--json FILE] [--no-plain]`:
 * `gdl-ground compare` over the game corpus, one process per game, then one line per game
 * (verdict, superset sizes exact / DG products / DG reduced, seconds of each method, the
 * plain Algorithm 9.2's reach seconds or the limit it stopped on; `--no-plain` leaves it out)
 * and a summary (identical, different, limit, invalid). `--shard I/N` takes every N-th game from the
 * I-th (0-based), to spread a run over several processes. Exit 1 when any game differs.
 * GDL_GAMES_DIR overrides the corpus location (default ../shared/games beside the checkout).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamesDir, listGames } from '../../scripts/corpus.mjs';
import { runAll, runChild } from '../batch/runner.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '..', 'cli', 'main.js');

interface Sizes {
  readonly fluents: number | null;
  readonly moves: number | null;
  readonly axioms: number | null;
}

interface RunJson {
  readonly status: string;
  readonly message: string;
  readonly times: readonly { readonly step: string; readonly ms: number }[];
  readonly before?: Sizes;
  readonly reduced?: Sizes;
}

/** What one game's `compare --json` printed, or why it printed nothing. */
interface GameResult {
  readonly game: string;
  readonly verdict: 'identical' | 'different' | 'limit' | 'invalid' | 'error';
  readonly prolog?: RunJson;
  readonly dg?: RunJson;
  /** Algorithm 9.2 as the thesis writes it (compare's `prolog-plain`), unless `--no-plain`. */
  readonly plain?: RunJson;
  readonly differences?: readonly string[];
  readonly message?: string;
}

function arg(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** Runs `compare` on one game in its own process (a crash or hang is reported, never fatal). */
async function runGame(root: string, game: string, timeout: number, plain: boolean): Promise<GameResult> {
  const args = [CLI, 'compare', join(root, game), '--json', '--timeout', String(timeout), ...(plain ? [] : ['--no-plain'])];
  const e = await runChild({ args, stdout: 'keep', killAfterMs: ((plain ? 3 : 2) * timeout + 60) * 1000 });
  try {
    const j = JSON.parse(e.stdout) as { identical: boolean | null; differences: string[]; prolog: RunJson; dg: RunJson; 'prolog-plain'?: RunJson };
    const statuses = [j.prolog.status, j.dg.status];
    const verdict = j.identical === true ? 'identical' : j.identical === false ? 'different'
      : statuses.includes('error') ? 'error' : statuses.includes('limit') ? 'limit' : 'invalid';
    return { game, verdict, prolog: j.prolog, dg: j.dg, ...(j['prolog-plain'] === undefined ? {} : { plain: j['prolog-plain'] }), differences: j.differences };
  } catch {
    // The exit code says which (the CLI's codes); the message is the first line of stderr, or the kill.
    const first = e.stderr.split('\n')[0] ?? '';
    const verdict = e.code === 3 ? 'limit' : e.code === 1 ? 'invalid' : 'error';
    return { game, verdict, message: e.timedOut ? `killed after ${e.seconds.toFixed(0)} s` : first };
  }
}

const ms = (run: RunJson | undefined, step?: string): string => {
  if (run === undefined) return '-';
  const t = run.times.filter((x) => step === undefined || x.step === step).reduce((s, x) => s + x.ms, 0);
  return run.status === 'ok' || step === 'reach' ? (t / 1000).toFixed(2) : run.status;
};

const sizes = (s: Sizes | undefined): string => (s === undefined ? '-' : [s.fluents, s.moves, s.axioms].map((n) => (n === null ? 'inf' : String(n))).join('/'));

function line(r: GameResult): string {
  const cells = [
    r.game.padEnd(52), r.verdict.padEnd(10),
    sizes(r.prolog?.before).padStart(20), sizes(r.dg?.before).padStart(24), sizes(r.dg?.reduced).padStart(20),
    ms(r.prolog, 'reach').padStart(8), ms(r.prolog).padStart(8), ms(r.dg, 'reach').padStart(8), ms(r.dg).padStart(8),
    (r.plain?.status === 'ok' || r.plain === undefined ? ms(r.plain, 'reach') : r.plain.status).padStart(10),
  ];
  return cells.join(' ');
}

async function main(argv: readonly string[]): Promise<number> {
  const root = gamesDir();
  if (!existsSync(root)) {
    process.stderr.write(`compare-corpus: no corpus at ${root} (set GDL_GAMES_DIR)\n`);
    return 2;
  }
  const timeout = Number(arg(argv, '--timeout') ?? 60);
  const [shard, shards] = (arg(argv, '--shard') ?? '0/1').split('/').map(Number) as [number, number];
  const games = listGames(root, { folder: arg(argv, '--dir') ?? 'all', filter: (arg(argv, '--games') ?? '').split(',').filter((g) => g !== '') })
    .filter((_, i) => i % shards === shard);
  const header = ['game'.padEnd(52), 'verdict'.padEnd(10), 'exact F/M/A'.padStart(20), 'dg products F/M/A'.padStart(24),
    'dg reduced F/M/A'.padStart(20), 'pl-reach'.padStart(8), 'pl-total'.padStart(8), 'dg-reach'.padStart(8), 'dg-total'.padStart(8), 'plain-reach'.padStart(10)];
  process.stdout.write(`${header.join(' ')}\n`);
  const results = await runAll(games, 1, async (game) => {
    const r = await runGame(root, game, timeout, !argv.includes('--no-plain'));
    process.stdout.write(`${line(r)}\n`);
    for (const d of r.differences ?? []) process.stdout.write(`    ${d}\n`);
    return r;
  });
  const count = (v: GameResult['verdict']): number => results.filter((r) => r.verdict === v).length;
  const faster = results.filter((r) => r.verdict === 'identical' && Number(ms(r.dg)) < Number(ms(r.prolog))).length;
  process.stdout.write(
    `\n${results.length} games: ${count('identical')} identical, ${count('different')} different, ${count('limit')} limit, ` +
      `${count('invalid')} invalid, ${count('error')} error; dg faster on ${faster} of the identical ones\n`,
  );
  const json = arg(argv, '--json');
  if (json !== undefined) writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  return count('different') > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
