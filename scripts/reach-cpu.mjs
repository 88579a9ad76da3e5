#!/usr/bin/env node
/**
 * Processor time of the Prolog superset stage alone on one game, for comparing two builds side
 * by side (docs/reach.md, "The superset stage on big games"): `reachForGrounding` as `ground`
 * runs it (relevant components), or with `full` the whole Algorithm 9.2 as `reach` runs it.
 * Prints one JSON line: {game, status, cpu, wall, answers, kept, fluents, moves, axioms,
 * peakMiB, steps} (seconds; peak is the process's peak RSS, loading included).
 *
 *   node scripts/reach-cpu.mjs DIST GAME [TIMEOUT_S=120] [full]
 *
 * DIST is a build's dist/ folder (absolute), so that an old build and a new one run the same
 * measurement; each run is a fresh process with the CLI's V8 tuning, as the command line is.
 */
import { readFileSync } from 'node:fs';
import { resourceUsage } from 'node:process';

const [dist, file, timeoutArg, flag] = process.argv.slice(2);
if (dist === undefined || file === undefined) {
  process.stderr.write('usage: node scripts/reach-cpu.mjs DIST GAME [TIMEOUT_S] [full]\n');
  process.exit(2);
}
(await import(`${dist}/runtime.js`)).tuneProcess();
const P = await import(`${dist}/pipeline/stages.js`);
const { StageTimer } = await import(`${dist}/timer.js`);
const options = P.resolvePipelineOptions({ timeoutSeconds: Number(timeoutArg ?? 120) });
const out = { game: file.split('/').pop() };
const game = P.loadGame(readFileSync(file, 'utf8'), file, options, new StageTimer()).normal;
const timer = new StageTimer();
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
try {
  const r = flag === 'full' ? P.reachGame(game, options, timer) : P.reachForGrounding(game, options, timer);
  Object.assign(out, { status: 'ok', answers: r.stats.answers, kept: r.stats.kept });
  Object.assign(out, { fluents: r.supersets.fluents.length, moves: r.supersets.moves.length, axioms: r.supersets.axioms.length });
  out.steps = (r.stats.times ?? []).map((s) => `${s.step}:${s.ms.toFixed(0)}`).join(' ');
} catch (err) {
  out.status = `failed: ${String(err.message).split('\n')[0]}`;
}
const used = process.cpuUsage(cpu0);
out.cpu = Number(((used.user + used.system) / 1e6).toFixed(2));
out.wall = Number(((performance.now() - wall0) / 1000).toFixed(2));
out.peakMiB = Math.round(resourceUsage().maxRSS / 1024);
console.log(JSON.stringify(out));
