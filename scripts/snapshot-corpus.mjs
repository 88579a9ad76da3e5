#!/usr/bin/env node
/**
 * Snapshots what the CLI prints for every corpus game, so that a refactor can show its outputs
 * are byte-identical before and after ("a refactor proves itself"). Build first (`npx tsc -p .`).
 *
 *   node scripts/snapshot-corpus.mjs take DIR [--timeout-ms 10000] [--jobs 2] [--only S] [--commands a,b] [--reverse] [--retake-killed] [--like DIR0]
 *   (GDL_CLI=OTHER/dist/cli/main.js snapshots another build with this script)
 *   node scripts/snapshot-corpus.mjs diff DIR_BEFORE DIR_AFTER
 *
 * `take` runs each command of COMMANDS on each game and writes DIR/<command>/<game>.out (stdout)
 * and DIR/index.tsv (command, game, exit code, ms). Time-dependent fields (compare's times) are
 * removed before saving; `--retake-killed` runs again only the runs of an existing DIR that were
 * killed at the limit (a loaded machine kills more), typically with a larger limit; `--like DIR0`
 * runs only the runs that finished in snapshot DIR0 (the others cannot be compared). `diff` reports, per command: identical, different, finished in one only,
 * over the limit in both; it exits 1 when any output differs or an exit code changed.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamesDir, listGames } from './corpus.mjs';
import { runAll, runChild } from '../dist/batch/runner.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// GDL_CLI: the build to snapshot (another checkout's dist/cli/main.js), by default this one's.
const CLI = process.env.GDL_CLI ?? join(root, 'dist/cli/main.js');

/** Name, CLI arguments before the game, and a normalizer of stdout. */
const COMMANDS = [
  { name: 'check', args: ['check', '--json'] },
  { name: 'reach-prolog', args: ['reach'] },
  { name: 'reach-dg', args: ['reach', '--method', 'dg'] },
  { name: 'ground-prolog', args: ['ground'] },
  { name: 'ground-dg', args: ['ground', '--method', 'dg'] },
  { name: 'ground-json', args: ['ground', '--format', 'json'] },
  { name: 'compare', args: ['compare', '--json'], normalize: dropTimes },
  { name: 'ground-axioms', args: ['ground', '--remove-axioms'] },
  { name: 'ground-gddl', args: ['ground', '--format', 'gddl'] },
  // RDDL writes two files into a directory: they are read back, in name order, as the output.
  { name: 'ground-rddl', args: ['ground', '--format', 'rddl'], outDir: true },
  { name: 'mutex', args: ['mutex'] },
];

/** compare --json without its wall-clock fields. */
function dropTimes(text) {
  if (text.trim() === '') return text;
  try {
    const json = JSON.parse(text);
    for (const k of ['prolog', 'dg']) if (json[k]) delete json[k].times;
    return `${JSON.stringify(json, null, 2)}\n`;
  } catch {
    return text;
  }
}

/** Runs the CLI once through the corpus runner: exit code (or `killed`), milliseconds, stdout. */
async function run(args, timeoutMs) {
  const e = await runChild({ args: [CLI, ...args], stdout: 'keep', killAfterMs: timeoutMs });
  return { code: e.signal ? 'killed' : String(e.code), ms: Math.round(e.seconds * 1000), stdout: e.stdout };
}

async function take(dir, opts) {
  const games = listGames(gamesDir()).filter((g) => g.includes(opts.only));
  const jobs = [];
  const rows = [];
  if (opts.retake) {
    for (const r of readIndex(dir).values()) {
      if (r.code === 'killed') jobs.push({ g: r.game, c: COMMANDS.find((c) => c.name === r.cmd) });
      else rows.push([r.cmd, r.game, r.code, r.ms]);
    }
  } else if (opts.like !== '') {
    // Only the runs that finished in an earlier snapshot: the others cannot be compared anyway.
    for (const r of readIndex(opts.like).values()) if (r.code !== 'killed' && r.game.includes(opts.only)) jobs.push({ g: r.game, c: COMMANDS.find((c) => c.name === r.cmd) });
  } else for (const g of games) for (const c of COMMANDS) jobs.push({ g, c });
  // --reverse: last game first, so that a second process can take the same snapshot from the other end.
  if (opts.reverse) jobs.reverse();
  if (opts.commands !== '') {
    const keep = new Set(opts.commands.split(','));
    jobs.splice(0, jobs.length, ...jobs.filter((j) => keep.has(j.c.name)));
  }
  await runAll(jobs, opts.jobs, async ({ g, c }) => {
    // The ground-based commands need --timeout so a slow game ends by itself with exit 3.
    const out = c.outDir ? mkdtempSync(join(tmpdir(), 'snap-')) : undefined;
    const r = await run([...c.args, ...(out ? ['-o', out] : []), join(gamesDir(), g)], opts.timeoutMs);
    if (out) {
      r.stdout += readdirSync(out).sort().map((f) => `; file: ${f}\n${readFileSync(join(out, f), 'utf8')}`).join('');
      rmSync(out, { recursive: true, force: true });
    }
    const file = join(dir, c.name, `${g}.out`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, c.normalize ? c.normalize(r.stdout) : r.stdout);
    rows.push([c.name, g, r.code, r.ms]);
    // Appended as each run ends, so that an interrupted snapshot can still be compared.
    appendFileSync(join(dir, 'index.partial.tsv'), `${[c.name, g, r.code, r.ms].join('\t')}\n`);
    return true;
  });
  rows.sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1));
  writeFileSync(join(dir, 'index.tsv'), rows.map((r) => r.join('\t')).join('\n') + '\n');
  process.stdout.write(`${rows.length} runs written to ${dir}\n`);
}

function readIndex(dir) {
  const m = new Map();
  for (const line of readFileSync(join(dir, existsSync(join(dir, 'index.tsv')) ? 'index.tsv' : 'index.partial.tsv'), 'utf8').split('\n')) {
    if (line === '') continue;
    const [cmd, game, code, ms] = line.split('\t');
    m.set(`${cmd}\t${game}`, { cmd, game, code, ms: Number(ms) });
  }
  return m;
}

function diff(a, b) {
  const before = readIndex(a);
  const after = readIndex(b);
  const tally = new Map();
  const problems = [];
  const count = (cmd, what) => {
    const t = tally.get(cmd) ?? {};
    t[what] = (t[what] ?? 0) + 1;
    tally.set(cmd, t);
  };
  for (const [key, x] of before) {
    const y = after.get(key);
    if (y === undefined) continue;
    const killedX = x.code === 'killed';
    const killedY = y.code === 'killed';
    if (killedX && killedY) { count(x.cmd, 'over limit in both'); continue; }
    if (killedX !== killedY) { count(x.cmd, killedX ? 'finished only after' : 'finished only before'); continue; }
    // An exit 3 (limit) may depend on the clock; the same code is what counts then.
    const same = x.code === y.code && readFileSync(join(a, x.cmd, `${x.game}.out`)).equals(readFileSync(join(b, x.cmd, `${x.game}.out`)));
    if (same) count(x.cmd, `identical (exit ${x.code})`);
    else if (x.code === '3' || y.code === '3') count(x.cmd, `limit in one (exit ${x.code} -> ${y.code})`);
    else { count(x.cmd, 'DIFFERENT'); problems.push(`${x.cmd} ${x.game}: exit ${x.code} -> ${y.code}`); }
  }
  for (const [cmd, t] of [...tally].sort()) {
    process.stdout.write(`${cmd}: ${Object.entries(t).map(([k, v]) => `${v} ${k}`).join(', ')}\n`);
  }
  for (const p of problems) process.stdout.write(`  ${p}\n`);
  return problems.length === 0 ? 0 : 1;
}

const [mode, ...rest] = process.argv.slice(2);
const opts = { timeoutMs: 10000, jobs: 2, only: '', retake: false, like: '', commands: '', reverse: false };
const positional = [];
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === '--timeout-ms') opts.timeoutMs = Number(rest[++i]);
  else if (rest[i] === '--jobs') opts.jobs = Number(rest[++i]);
  else if (rest[i] === '--only') opts.only = rest[++i];
  else if (rest[i] === '--commands') opts.commands = rest[++i];
  else if (rest[i] === '--reverse') opts.reverse = true;
  else if (rest[i] === '--retake-killed') opts.retake = true;
  else if (rest[i] === '--like') opts.like = rest[++i];
  else positional.push(rest[i]);
}
if (mode === 'take' && positional.length === 1) await take(resolve(positional[0]), opts);
else if (mode === 'diff' && positional.length === 2 && positional.every((p) => existsSync(p))) process.exitCode = diff(...positional);
else {
  process.stderr.write('usage: snapshot-corpus.mjs take DIR [--timeout-ms N] [--jobs N] [--only S] | diff BEFORE AFTER\n');
  process.exitCode = 2;
}
