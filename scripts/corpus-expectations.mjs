#!/usr/bin/env node
/**
 * Writes the expected outcome of every corpus game, which test/corpus-outcomes.test.ts (every
 * game, loading) and the full run of test/ground-corpus.test.ts (grounding) compare against:
 *
 *   node scripts/corpus-expectations.mjs [--out test/expectations/corpus.tsv] [--timeout 20]
 *                                        [--jobs 2] [--load-only]
 *
 * Build first (`npx tsc -p .`): it runs dist/cli/main.js. One line per game, tab-separated:
 *   game  load  load-message  ground  ground-message
 * load is `ok` or `invalid` (with the first error, `line:col: error: ...`, file name removed);
 * ground (the Prolog method, default limits, `--timeout` seconds, as `gdl-ground ground` and
 * `gdl-ground batch` ground) is `ok`, `invalid`, `limit` (an atom, rule or literal limit: the
 * same on every machine, with its message) or `timeout` (the time limit: a faster machine may
 * finish), or `-` for a game that does not load. Games are ground by the batch runner
 * (dist/batch/run.js, one worker each): which limit stopped a game is the error's data
 * (`GdlError.limit`), never read from its message.
 * With --load-only the ground columns of an existing file are kept.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamesDir, listGames } from './corpus.mjs';
import { runCli } from './spawn-cli.mjs';
import { defaultMaxMemoryMb, runBatch } from '../dist/batch/run.js';
import { runAll } from '../dist/batch/runner.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist/cli/main.js');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
}

/** Runs the CLI; exit code and stderr. */
function run(args, killMs) {
  return runCli(CLI, args, killMs);
}

/** The first error line of stderr without the file name, tabs and line breaks removed. */
function firstError(stderr, file) {
  const line = stderr.split('\n').find((l) => l.includes(': error: ')) ?? stderr.split('\n')[0] ?? '';
  return (line.startsWith(`${file}:`) ? line.slice(file.length + 1) : line).replace(/\t/g, ' ');
}

async function loadOutcome(file) {
  const r = await run(['check', file], 600_000);
  if (r.code === 0) return ['ok', ''];
  if (r.code === 1) return ['invalid', firstError(r.stderr, file)];
  throw new Error(`check ${file}: exit ${r.code}: ${r.stderr.slice(0, 300)}`);
}

/** The ground column of a batch row: a stop on the clock is a `timeout`, another limit a `limit` with its message. */
function groundOutcome(row) {
  const message = () => firstError(row.message, row.game);
  if (row.status === 'ok') return ['ok', ''];
  if (row.status === 'invalid') return ['invalid', message()];
  if (row.status === 'limit' || row.status === 'memory') return row.limit?.kind === 'time' ? ['timeout', ''] : ['limit', message()];
  throw new Error(`ground ${row.game}: ${row.message}`);
}

/** Grounds `files` with the batch runner, `jobs` at a time; the rows by file. */
async function groundAll(files, timeoutS, jobs) {
  const options = { jobs, timeoutSeconds: timeoutS, maxMemoryMb: defaultMaxMemoryMb(1), method: 'prolog', format: 'gdl', out: undefined };
  const found = files.map((file) => ({ file, name: file }));
  const { rows } = await runBatch(found, options, new AbortController().signal, {
    onDone: (row) => process.stderr.write(`ground ${row.game}: ${row.status}\n`),
  });
  return new Map(rows.map((r) => [r.game, r]));
}

async function main() {
  if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npx tsc -p .` first');
  const out = resolve(arg('--out', join(root, 'test/expectations/corpus.tsv')));
  const timeoutS = Number(arg('--timeout', '20'));
  const jobs = Number(arg('--jobs', '2'));
  const loadOnly = process.argv.includes('--load-only');
  const previous = new Map();
  if (loadOnly && existsSync(out)) {
    for (const line of readFileSync(out, 'utf8').split('\n').slice(1)) {
      const cells = line.split('\t');
      if (cells.length === 5) previous.set(cells[0], cells.slice(3));
    }
  }
  const games = listGames(gamesDir());
  const file = (game) => join(gamesDir(), game);
  const loads = new Map();
  await runAll(games, jobs, async (game) => {
    loads.set(game, await loadOutcome(file(game)));
    process.stderr.write(`${loads.size}/${games.length} ${game}: ${loads.get(game)[0]}\n`);
    return true;
  });
  const loaded = games.filter((g) => loads.get(g)[0] === 'ok');
  const grounds = loadOnly ? new Map() : await groundAll(loaded.map(file), timeoutS, jobs);
  const rows = new Map();
  for (const game of games) {
    const ground = loads.get(game)[0] !== 'ok' ? ['-', ''] : loadOnly ? (previous.get(game) ?? ['-', '']) : groundOutcome(grounds.get(file(game)));
    rows.set(game, [game, ...loads.get(game), ...ground]);
  }
  const header = ['game', 'load', 'load-message', 'ground', 'ground-message'].join('\t');
  const lines = games.map((g) => rows.get(g).join('\t'));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${header}\n${lines.join('\n')}\n`);
  process.stderr.write(`wrote ${out}: ${games.length} games\n`);
}

main().catch((err) => {
  process.stderr.write(`corpus-expectations: ${err.message}\n`);
  process.exitCode = 1;
});
