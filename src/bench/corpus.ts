/**
 * `npm run bench -- --corpus [--jobs N] [--timeout 60] [--max-memory 4096] [--out FILE] [--no-lazy]
 * [--rows FILE.json] [--previous FILE.json]`:
 * grounds every game under the corpus folder (GDL_GAMES_DIR, default ../shared/games; `--dir
 * NAME` for one of its folders, `--games A,B` for names containing A or B) with the batch
 * runner (src/batch: one worker per game with its own limits), prints a progress line per
 * game on stderr, and writes the Markdown table of src/bench/corpus-table.ts to FILE
 * (default docs/corpus.md) and stdout. Games are ground with `--lazy-axioms` (the table counts
 * "grounded with lazy axioms" apart; lazy grounding starts only where plain grounding hits a
 * limit, so other games ground as without it); `--no-lazy` turns that off. `--rows` keeps the
 * run's rows as the batch's JSON report; `--previous` reads such a report (of this bench or of
 * `gdl-ground batch --report X.json`, at any commit) and shows its time per game beside.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { gamesDir } from '../../scripts/corpus.mjs';
import { discoverGames } from '../batch/discover.js';
import { argValue, positiveArg } from './args.js';
import { runBatch } from '../batch/run.js';
import type { GameRow } from '../batch/types.js';
import { jsonReport } from '../batch/report.js';
import { type CorpusSettings, type PreviousRun, corpusMarkdown, outcomeOf, overshot } from './corpus-table.js';

/** Options of a corpus run. */
interface CorpusOptions {
  readonly jobs: number;
  readonly timeout: number;
  readonly maxMemory: number;
  readonly out: string;
  readonly dir: string | undefined;
  readonly games: readonly string[];
  readonly lazy: boolean;
  readonly rows: string | undefined;
  readonly previous: string | undefined;
}

/** The options of `argv` (after `--corpus`); throws with a message on a bad number. */
function parseCorpusArgs(argv: readonly string[]): CorpusOptions {
  return {
    jobs: positiveArg(argv, '--jobs', 1, true),
    timeout: positiveArg(argv, '--timeout', 60, true),
    maxMemory: positiveArg(argv, '--max-memory', 4096, true),
    out: argValue(argv, '--out') ?? 'docs/corpus.md',
    dir: argValue(argv, '--dir'),
    games: (argValue(argv, '--games') ?? '').split(',').filter((g) => g !== ''),
    lazy: !argv.includes('--no-lazy'),
    rows: argValue(argv, '--rows'),
    previous: argValue(argv, '--previous'),
  };
}

/** The row with its game named relative to the corpus root (the table's names). */
function relativeRow(row: GameRow, root: string): GameRow {
  return { ...row, game: relative(root, row.game).split('\\').join('/') };
}

/** The rows of a batch JSON report (`{summary, games}`), named by the file; throws with a message when it is not one. */
function previousRun(file: string): PreviousRun {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { games?: unknown };
  if (!Array.isArray(data.games)) throw new Error(`${file} is not a batch JSON report (no "games" list)`);
  return { name: file.split(/[\\/]/).pop() ?? file, rows: data.games as GameRow[] };
}

/** Runs the corpus mode; resolves to the process's exit code (0 once the table is written, 2 on a usage error). */
export async function runCorpusBench(argv: readonly string[]): Promise<number> {
  let o: CorpusOptions;
  let previous: PreviousRun | undefined;
  try {
    o = parseCorpusArgs(argv);
    previous = o.previous === undefined ? undefined : previousRun(o.previous);
  } catch (err) {
    process.stderr.write(`bench --corpus: ${(err as Error).message}\n`);
    return 2;
  }
  const root = resolve(gamesDir());
  const folder = o.dir === undefined ? root : join(root, o.dir);
  if (!existsSync(folder)) {
    process.stderr.write(`bench --corpus: no game folder at ${folder} (set GDL_GAMES_DIR)\n`);
    return 2;
  }
  const found = discoverGames([folder]).filter((g) => o.games.length === 0 || o.games.some((n) => g.file.includes(n)));
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  const options = { jobs: o.jobs, timeoutSeconds: o.timeout, maxMemoryMb: o.maxMemory, method: 'prolog', format: 'gdl', out: undefined, ...(o.lazy ? { lazyAxioms: true } : {}) } as const;
  const result = await runBatch(found, options, controller.signal, {
    onDone: (row) => {
      const r = relativeRow(row, root);
      const late = overshot(r, o.timeout) ? ' OVERSHOOT' : '';
      process.stderr.write(`${r.game.padEnd(50)} ${outcomeOf(r)} ${r.seconds.toFixed(1)} s${late}\n`);
    },
  });
  process.removeListener('SIGINT', stop);
  if (result.interrupted) {
    process.stderr.write('bench --corpus: interrupted, no table written\n');
    return 130;
  }
  const settings: CorpusSettings = { timeoutSeconds: o.timeout, maxMemoryMb: o.maxMemory, jobs: o.jobs, root: folder };
  const rows = result.rows.map((r) => relativeRow(r, root));
  const text = corpusMarkdown(rows, settings, previous);
  if (o.rows !== undefined) writeFileSync(o.rows, jsonReport(rows));
  writeFileSync(o.out, text);
  process.stdout.write(text);
  return 0;
}
