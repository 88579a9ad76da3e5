#!/usr/bin/env node
/**
 * Measures how far runs overshoot `--timeout`: runs one `gdl-ground` command on the given games
 * with each timeout, one run at a time, and prints per run the exit code, the wall time of the
 * whole process (start-up included), its CPU time (with GNU time; on a loaded machine a wall
 * time far above the CPU time is time spent waiting for a core) and the overshoot (wall time
 * minus the timeout), then the largest overshoot. A run that ends before its timeout has no overshoot. Build first
 * (`npx tsc -p .`). The aim (issue 17): no run exceeds its timeout by more than a second.
 *
 *   node scripts/overshoot.mjs [--timeout 2,5] [--top 20 --index SNAPSHOT/index.tsv]
 *        [--only SUBSTRING] [--cli dist/cli/main.js] [-- CLI ARGS (default: ground --method dg)]
 *
 * Games: `--top N --index FILE` takes the N slowest games of a snapshot index
 * (scripts/snapshot-corpus.mjs: command, game, exit, ms; killed runs count as slowest) for its
 * `ground-prolog` command; `--only S` adds every corpus game whose path contains S. Runs are
 * killed at the timeout plus 60 s (reported as `killed`).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamesDir, listGames } from './corpus.mjs';
import { runCli } from './spawn-cli.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const o = { timeouts: [2, 5], top: 0, index: undefined, only: [], cli: join(root, 'dist/cli/main.js'), extra: ['ground', '--method', 'dg'] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { o.extra = argv.slice(i + 1); break; }
    const v = argv[++i];
    if (v === undefined) throw new Error(`${a} needs a value`);
    if (a === '--timeout') o.timeouts = v.split(',').map(Number);
    else if (a === '--top') o.top = Number(v);
    else if (a === '--index') o.index = v;
    else if (a === '--only') o.only.push(v);
    else if (a === '--cli') o.cli = resolve(v);
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

/** The `top` slowest games of a snapshot index's ground-prolog runs (killed ones first). */
function slowest(index, top) {
  const rows = readFileSync(index, 'utf8').trim().split('\n').map((l) => l.split('\t'))
    .filter((r) => r[0] === 'ground-prolog')
    .map((r) => ({ game: r[1], ms: r[2] === 'killed' ? Infinity : Number(r[3]), tie: Number(r[3]) }));
  rows.sort((a, b) => b.ms - a.ms || b.tie - a.tie || (a.game < b.game ? -1 : 1));
  return rows.slice(0, top).map((r) => r.game);
}

async function run(cli, args, killMs) {
  const r = await runCli(cli, args, killMs, true);
  const lines = r.stderr.trim().split('\n');
  return { code: String(r.code), ms: r.ms, cpuMs: r.cpuMs, message: lines[lines.length - 1] ?? '' };
}

const o = parseArgs(process.argv.slice(2));
const games = [...(o.index ? slowest(o.index, o.top) : [])];
if (o.only.length > 0) for (const g of listGames()) if (o.only.some((s) => g.includes(s)) && !games.includes(g)) games.push(g);
if (games.length === 0) throw new Error('no games: give --top N --index FILE or --only S');
console.log(['timeout', 'game', 'exit', 'wall_ms', 'cpu_ms', 'overshoot_ms', 'message'].join('\t'));
let worst = 0;
for (const t of o.timeouts) {
  for (const game of games) {
    const r = await run(o.cli, [...o.extra, '--timeout', String(t), join(gamesDir(), game)], t * 1000 + 60_000);
    const over = Math.max(0, r.ms - t * 1000);
    worst = Math.max(worst, r.code === 'killed' ? Infinity : over);
    console.log([t, game, r.code, r.ms, r.cpuMs, over, r.message.slice(0, 160)].join('\t'));
  }
}
console.log(`largest overshoot: ${worst === Infinity ? 'a run was killed' : `${worst} ms`}`);
