#!/usr/bin/env node
/**
 * Processor time of the dependency-graph method on one game, for comparing two builds side by
 * side (docs/dg.md, "Speed against clingo"): reach, instantiation and ground reachability as
 * `compare` runs them, then (unless `noclingo`) clingo-wasm on the relaxed game's least model,
 * as `npm run bench -- --clingo` does. Prints one JSON line:
 * {game, status, dgCpu, dgWall, steps, clCpu?, clWall?, clStatus?} (seconds; CPU over every
 * thread of the process, so clingo-wasm's worker counts).
 *
 *   node scripts/dg-cpu.mjs DIST GAME [TIMEOUT_S=20] [noclingo]
 *
 * DIST is a build's dist/ folder (absolute), so that an old build and a new one run the same
 * measurement; each run is a fresh process with the CLI's V8 tuning, as the command line is.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [dist, file, timeoutArg, flag] = process.argv.slice(2);
if (dist === undefined || file === undefined) {
  process.stderr.write('usage: node scripts/dg-cpu.mjs DIST GAME [TIMEOUT_S] [noclingo]\n');
  process.exit(2);
}
(await import(`${dist}/runtime.js`)).tuneProcess();
const P = await import(`${dist}/pipeline/stages.js`);
const { StageTimer } = await import(`${dist}/index.js`);
const { relaxedProgram } = await import(`${dist}/bench/asp.js`);
const timeout = Number(timeoutArg ?? 20);
const cpu = (u) => (u.user + u.system) / 1e6;
const out = { game: file };

let game;
try {
  game = P.loadGame(readFileSync(file, 'utf8'), file, P.defaultPipelineOptions(), new StageTimer()).normal;
} catch (err) {
  out.status = `invalid: ${String(err.message).split('\n')[0]}`;
  console.log(JSON.stringify(out));
  process.exit(0);
}

// The dg method through instantiation and ground reachability, with the bench's limits.
const options = P.resolvePipelineOptions({ method: 'dg', timeoutSeconds: timeout, maxReachAtoms: 2_000_000, maxGroundAtoms: 2_000_000, maxGroundRules: 2_000_000 });
const timer = new StageTimer();
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
try {
  const a = P.analyzeDependencyGraph(game, options, timer);
  const g = P.groundGame(game, a.supersets, options, timer);
  P.readBackSupersets(game, a.supersets, g, options);
  out.status = 'ok';
} catch (err) {
  out.status = `failed: ${String(err.message).split('\n')[0]}`;
}
out.dgCpu = cpu(process.cpuUsage(cpu0));
out.dgWall = (performance.now() - wall0) / 1000;
out.steps = timer.steps().map((s) => `${s.step}:${s.ms.toFixed(0)}`).join(' ');

if (flag !== 'noclingo') {
  // clingo-wasm is the checkout's development dependency, resolved from the build's folder.
  const require = createRequire(`${dist}/`);
  const { default: clingo } = await import(require.resolve('clingo-wasm'));
  await clingo.run('a.', 1); // starts the worker and compiles the module: not measured
  const program = relaxedProgram(game);
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  let timerId;
  const expired = new Promise((resolve) => { timerId = setTimeout(() => resolve('timeout'), timeout * 1000); });
  const result = await Promise.race([clingo.run(program, 1), expired]);
  clearTimeout(timerId);
  out.clCpu = cpu(process.cpuUsage(c0));
  out.clWall = (performance.now() - w0) / 1000;
  out.clStatus = result === 'timeout' ? 'timeout' : result.Result;
}
console.log(JSON.stringify(out));
// clingo-wasm keeps a worker thread alive.
process.exit(0);
