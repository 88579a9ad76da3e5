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
 * ground (the Prolog method, default limits, `--timeout` seconds) is `ok`, `invalid`, `limit`
 * (an atom, rule or literal limit: the same on every machine, with its message) or `timeout`
 * (the time limit: a faster machine may finish), or `-` for a game that does not load.
 * With --load-only the ground columns of an existing file are kept.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamesDir, listGames } from './corpus.mjs';
import { runCli } from './spawn-cli.mjs';

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

async function groundOutcome(file, timeoutS) {
  // The CLI stops itself at --timeout; the kill is only a backstop.
  const r = await run(['ground', file, '--timeout', String(timeoutS), '-o', '/dev/null'], timeoutS * 1000 + 60_000);
  if (r.code === 0) return ['ok', ''];
  if (r.code === 1) return ['invalid', firstError(r.stderr, file)];
  if (r.code === 'killed') return ['timeout', ''];
  if (r.code === 3) {
    const message = firstError(r.stderr, file);
    return /time limit/.test(message) ? ['timeout', ''] : ['limit', message];
  }
  throw new Error(`ground ${file}: exit ${r.code}: ${r.stderr.slice(0, 300)}`);
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
  const rows = new Map();
  let next = 0;
  const worker = async () => {
    while (next < games.length) {
      const game = games[next++];
      const file = join(gamesDir(), game);
      const load = await loadOutcome(file);
      const ground = load[0] !== 'ok' ? ['-', ''] : loadOnly ? (previous.get(game) ?? ['-', '']) : await groundOutcome(file, timeoutS);
      rows.set(game, [game, ...load, ...ground]);
      process.stderr.write(`${rows.size}/${games.length} ${game}: ${load[0]} ${ground[0]}\n`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
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
