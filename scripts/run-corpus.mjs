#!/usr/bin/env node
/**
 * Runs one `gdl-ground` command (dist/cli/main.js) on every corpus game, a few at a time, with
 * a time limit per game, and tabulates exit codes, times and anything that looks like a crash:
 * an internal error (exit 70), a stack trace or a JavaScript error name on stderr, a signal, an
 * exit code the CLI does not document, or stderr that is not in the diagnostic format. This is
 * how the team shows "no crash on any input". Build first: `npx tsc -p .`.
 *
 *   node scripts/run-corpus.mjs COMMAND [--timeout-ms 30000] [--jobs 2] [--only SUBSTRING]
 *        [--json FILE] [-- EXTRA CLI ARGS...]
 *
 * e.g. `node scripts/run-corpus.mjs check`, `node scripts/run-corpus.mjs reach -- --method dg`.
 * The game file is the last argument of each run. Stdout is counted, not kept. Exits 1 when
 * any game crashed, 0 otherwise (time-outs and limit exits are reported, not failures).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gamesDir, listGames } from './corpus.mjs';
import { fileURLToPath } from 'node:url';
import { runAll, runChild } from '../dist/batch/runner.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(root, 'dist/cli/main.js');

/** Exit codes of the CLI (src/cli/io.ts) and what they mean. */
const EXIT_NAMES = new Map([
  [0, 'ok'],
  [1, 'invalid'],
  [2, 'usage'],
  [3, 'limit'],
  [70, 'internal'],
]);

/** Stderr that only a crash prints: stack frames, JavaScript error names, V8 aborts. */
const CRASH_PATTERNS = [
  /^\s+at .+(:\d+:\d+\)?|\(native\)|\(<anonymous>\))$/m,
  /\b(TypeError|RangeError|ReferenceError|SyntaxError|EvalError|URIError|AggregateError)\b/,
  /Maximum call stack size exceeded/,
  /FATAL ERROR|heap out of memory|Aborted \(core dumped\)|Segmentation fault/,
  /internal error/i,
  /node:internal/,
];

/** One line of a diagnostic report, `file:line:col: severity: message`, or a `gdl-ground:` line. */
const DIAGNOSTIC_LINE = /^(.+:\d+:\d+: (error|warning): .+|gdl-ground: .+)$/;

function usage(message) {
  process.stderr.write(`run-corpus: ${message}\n`);
  process.stderr.write('usage: node scripts/run-corpus.mjs COMMAND [--timeout-ms N] [--jobs N] [--only S] [--json FILE] [-- ARGS...]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { command: '', timeoutMs: 30000, jobs: 2, only: '', json: '', extra: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
    if (a === '--') {
      opts.extra = argv.slice(i + 1);
      break;
    } else if (a === '--timeout-ms') opts.timeoutMs = Number(value());
    else if (a === '--jobs') opts.jobs = Number(value());
    else if (a === '--only') opts.only = value();
    else if (a === '--json') opts.json = value();
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else if (opts.command === '') opts.command = a;
    else usage(`unexpected argument ${a}`);
  }
  if (opts.command === '') usage('which command? (check, reach, ground, ...)');
  if (!(opts.timeoutMs > 0) || !(opts.jobs >= 1)) usage('--timeout-ms and --jobs need positive numbers');
  return opts;
}

/** Runs the CLI on one game through the corpus runner; resolves with its exit code or signal, time and outputs. */
async function runGame(opts, dir, game) {
  const args = [CLI, opts.command, ...opts.extra, join(dir, game)];
  const e = await runChild({ args, stdout: 'count', stderrCap: 64 * 1024, killAfterMs: opts.timeoutMs });
  return { game, code: e.code, signal: e.signal, timedOut: e.timedOut, ms: e.seconds * 1000, stdoutBytes: e.stdoutBytes, stderr: e.stderr };
}

/** Names what happened in one run, and whether it counts as a crash. */
function classify(r) {
  if (r.timedOut) return { outcome: 'timeout', crash: false, why: '' };
  if (r.signal !== null) return { outcome: `signal ${r.signal}`, crash: true, why: `killed by ${r.signal}` };
  const name = EXIT_NAMES.get(r.code) ?? `exit ${r.code}`;
  const pattern = CRASH_PATTERNS.find((p) => p.test(r.stderr));
  if (r.code === 70) return { outcome: name, crash: true, why: firstLines(r.stderr) };
  if (!EXIT_NAMES.has(r.code)) return { outcome: name, crash: true, why: `undocumented exit code; ${firstLines(r.stderr)}` };
  if (pattern !== undefined) return { outcome: name, crash: true, why: `stderr matches ${pattern}: ${firstLines(r.stderr)}` };
  const odd = r.stderr.split('\n').find((l) => l.trim() !== '' && !DIAGNOSTIC_LINE.test(l));
  if (odd !== undefined) return { outcome: name, crash: false, why: `stderr line not in diagnostic format: ${odd.slice(0, 200)}` };
  return { outcome: name, crash: false, why: '' };
}

function firstLines(text, n = 3) {
  return text.split('\n').filter((l) => l.trim() !== '').slice(0, n).join(' | ').slice(0, 400);
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(2)}s`;
}

function printSummary(opts, results) {
  const out = (s) => process.stdout.write(`${s}\n`);
  const total = results.reduce((s, r) => s + r.ms, 0);
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const pct = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0;
  out(`\n${opts.command} ${opts.extra.join(' ')} on ${results.length} games (limit ${seconds(opts.timeoutMs)}, ${opts.jobs} jobs)`);
  const counts = new Map();
  for (const r of results) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  out('Outcomes:');
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) out(`  ${k.padEnd(12)} ${n}`);
  out(`Times: sum ${seconds(total)}, median ${seconds(pct(0.5))}, 90% ${seconds(pct(0.9))}, max ${seconds(pct(1))}`);
  out('Slowest:');
  for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, 10)) out(`  ${seconds(r.ms).padStart(8)}  ${r.outcome.padEnd(9)} ${r.game}`);
  const notes = results.filter((r) => r.why !== '' && !r.crash);
  if (notes.length > 0) {
    out(`Odd stderr (${notes.length}):`);
    for (const r of notes) out(`  ${r.game}: ${r.why}`);
  }
  const crashes = results.filter((r) => r.crash);
  out(`Crashes: ${crashes.length}`);
  for (const r of crashes) out(`  ${r.game}: ${r.outcome}: ${r.why}`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI)) usage(`${CLI} is missing: run \`npx tsc -p .\` first`);
  const dir = gamesDir();
  if (!existsSync(join(dir, 'INDEX.tsv'))) usage(`no corpus at ${dir} (set GDL_GAMES_DIR)`);
  const games = listGames(dir).filter((g) => g.includes(opts.only));
  let finished = 0;
  const results = await runAll(games, opts.jobs, async (game) => {
    const r = { ...(await runGame(opts, dir, game)) };
    Object.assign(r, classify(r));
    finished += 1;
    const flag = r.crash ? '  CRASH' : '';
    process.stdout.write(`[${finished}/${games.length}] ${r.outcome.padEnd(9)} ${seconds(r.ms).padStart(7)}  ${game}${flag}\n`);
    return r;
  });
  results.sort((a, b) => (a.game < b.game ? -1 : a.game > b.game ? 1 : 0));
  printSummary(opts, results);
  if (opts.json) writeFileSync(opts.json, `${JSON.stringify(results, null, 1)}\n`);
  process.exitCode = results.some((r) => r.crash) ? 1 : 0;
}

await main();
