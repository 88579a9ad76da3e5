#!/usr/bin/env node
/**
 * Compares the Prolog superset method with clingo's least model of the relaxed game on EVERY
 * corpus game (issue 4, "Exact") and prints a summary: agree / differ (with the first
 * differing lines) / clingo timeout or error / Prolog limit or error / invalid game.
 *
 * Needs `npx tsc -p .` first (it runs dist/) and no extra dependency: the comparison itself
 * lives in test/support/clingo.ts, which this script transpiles with the project's own
 * TypeScript into node_modules/.cache/ and imports with its src/ imports pointed at dist/.
 * Each game runs in a fresh worker thread that is terminated after --hard-ms, so a game on
 * which either engine hangs or runs out of memory cannot stop the run.
 *
 *   node scripts/compare-clingo.mjs [--clingo-ms 5000] [--prolog-ms 10000] [--hard-ms 60000]
 *        [--jobs 1] [--only SUBSTRING] [--clingo-only] [--json FILE]
 *        [--agree FILE] [--write-agree]
 *
 * Games listed in the agree file (default test/expectations/clingo-agree.txt, one game a
 * line; test/clingo.test.ts reads it too) are expected to agree: the run fails when one of them
 * differs, and also when one is skipped (time-out, limit, error), so that a slowdown cannot
 * hide behind a skip. `--write-agree` writes the games that agreed in this run to that file
 * instead (a full run, without --only, writes the list the tests use).
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gamesDir, listGames } from './corpus.mjs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

if (isMainThread) await main();
else await runOne(workerData);

/** Parses `--name value` options (and bare flags) with defaults. */
function parseArgs(argv) {
  const opts = {
    clingoMs: 5000, prologMs: 10000, hardMs: 60000, jobs: 1, only: '', clingoOnly: false, json: '',
    agree: join(root, 'test/expectations/clingo-agree.txt'), writeAgree: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--clingo-ms') opts.clingoMs = Number(value());
    else if (a === '--prolog-ms') opts.prologMs = Number(value());
    else if (a === '--hard-ms') opts.hardMs = Number(value());
    else if (a === '--jobs') opts.jobs = Math.max(1, Number(value()));
    else if (a === '--only') opts.only = value();
    else if (a === '--json') opts.json = value();
    else if (a === '--clingo-only') opts.clingoOnly = true;
    else if (a === '--agree') opts.agree = value();
    else if (a === '--write-agree') opts.writeAgree = true;
    else usage(`unknown option ${a}`);
  }
  for (const k of ['clingoMs', 'prologMs', 'hardMs', 'jobs']) if (!(opts[k] > 0)) usage(`bad value for ${k}`);
  return opts;
}

function usage(message) {
  process.stderr.write(`compare-clingo: ${message}\n`);
  process.exit(2);
}

/** Transpiles test/support/clingo.ts to an ES module whose src/ imports point into dist/. */
async function transpileSupport() {
  if (!existsSync(join(root, 'dist/pipeline/stages.js'))) usage('dist/ is missing: run `npx tsc -p .` first');
  const { default: ts } = await import('typescript');
  const source = readFileSync(join(root, 'test/support/clingo.ts'), 'utf8');
  const out = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const distUrl = pathToFileURL(join(root, 'dist')).href;
  const js = out.replace(/(['"])\.\.\/\.\.\/src\//g, `$1${distUrl}/`);
  // Inside node_modules/ so that the bare import of clingo-wasm resolves as usual.
  const dir = join(root, 'node_modules/.cache/gdl-grounder');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'clingo-support.mjs');
  writeFileSync(file, js);
  return pathToFileURL(file).href;
}

/** Worker side: one game, one verdict posted back. */
async function runOne({ supportUrl, dir, game, opts }) {
  const support = await import(supportUrl);
  const text = readFileSync(join(dir, game), 'utf8');
  let verdict;
  try {
    if (opts.clingoOnly) {
      const { loadGame, defaultPipelineOptions } = await import(pathToFileURL(join(root, 'dist/pipeline/stages.js')).href);
      const { StageTimer } = await import(pathToFileURL(join(root, 'dist/timer.js')).href);
      let normal;
      try {
        normal = loadGame(text, game, defaultPipelineOptions(), new StageTimer()).normal;
      } catch (err) {
        if (err?.name !== 'GdlError') throw err;
        normal = null;
        verdict = { kind: 'invalid', reason: String(err.message).split('\n')[0] };
      }
      if (normal !== null) {
        const r = await support.clingoSupersets(normal, opts.clingoMs);
        verdict =
          r.kind === 'model'
            ? { kind: 'clingo-model', lines: support.supersetLines(r.supersets).length, clingoMs: r.ms }
            : r.kind === 'timeout'
              ? { kind: 'clingo-timeout', reason: `no model within ${opts.clingoMs} ms` }
              : { kind: 'clingo-error', reason: r.reason };
      }
    } else {
      verdict = await support.compareWithClingo(text, game, { clingoMs: opts.clingoMs, prologMs: opts.prologMs, alwaysProlog: true });
    }
  } catch (err) {
    verdict = { kind: 'internal-error', reason: String(err?.stack ?? err).split('\n').slice(0, 4).join(' | ') };
  }
  parentPort.postMessage(verdict);
  // The clingo worker of this thread would keep it alive; the verdict is all that matters.
  process.exit(0);
}

/** Runs one game in a fresh worker; resolves with its verdict or a hard-limit verdict. */
function runInWorker(supportUrl, dir, game, opts) {
  return new Promise((resolvePromise) => {
    const start = performance.now();
    const worker = new Worker(fileURLToPath(import.meta.url), {
      workerData: { supportUrl, dir, game, opts },
      resourceLimits: { maxOldGenerationSizeMb: 4096 },
    });
    let done = false;
    const finish = (verdict) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void worker.terminate();
      resolvePromise({ game, ms: performance.now() - start, ...verdict });
    };
    const timer = setTimeout(() => finish({ kind: 'hard-timeout', reason: `worker killed after ${opts.hardMs} ms` }), opts.hardMs);
    worker.on('message', finish);
    worker.on('error', (err) => finish({ kind: 'worker-error', reason: String(err?.message ?? err).split('\n')[0] }));
    worker.on('exit', (code) => finish({ kind: 'worker-error', reason: `worker exited with code ${code} before answering` }));
  });
}

function describe(r) {
  const secs = `${(r.ms / 1000).toFixed(1)}s`;
  if (r.kind === 'agree') return `agree      ${secs}  ${r.lines} lines (clingo ${Math.round(r.clingoMs)} ms, prolog ${Math.round(r.prologMs)} ms)`;
  if (r.kind === 'clingo-model') return `clingo ok  ${secs}  ${r.lines} lines (${Math.round(r.clingoMs)} ms)`;
  if (r.kind === 'differ') return `DIFFER     ${secs}  clingo ${r.clingoLines} lines, prolog ${r.prologLines} lines`;
  return `${r.kind.padEnd(10)} ${secs}  ${r.reason}`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const dir = gamesDir();
  if (!existsSync(join(dir, 'INDEX.tsv'))) usage(`no corpus at ${dir} (set GDL_GAMES_DIR)`);
  const games = listGames(dir).filter((g) => g.includes(opts.only));
  const supportUrl = await transpileSupport();
  const results = [];
  let next = 0;
  const lane = async () => {
    while (next < games.length) {
      const game = games[next++];
      const r = await runInWorker(supportUrl, dir, game, opts);
      results.push(r);
      process.stdout.write(`[${results.length}/${games.length}] ${game}: ${describe(r)}\n`);
      if (r.kind === 'differ') for (const d of r.differences) process.stdout.write(`      ${d}\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.jobs, games.length) }, lane));
  results.sort((a, b) => (a.game < b.game ? -1 : a.game > b.game ? 1 : 0));
  printSummary(results, opts);
  if (opts.json) writeFileSync(opts.json, `${JSON.stringify(results, null, 1)}\n`);
  const bad = results.filter((r) => ['differ', 'prolog-error', 'internal-error', 'worker-error'].includes(r.kind));
  let missed = [];
  if (opts.writeAgree) {
    const agreed = results.filter((r) => r.kind === 'agree').map((r) => r.game).sort();
    writeFileSync(opts.agree, `${agreed.join('\n')}\n`);
    process.stdout.write(`wrote ${agreed.length} agreeing games to ${opts.agree}\n`);
  } else if (!opts.clingoOnly) {
    missed = expectedToAgree(opts.agree, results);
  }
  process.exitCode = bad.length > 0 || missed.length > 0 ? 1 : 0;
}

/** Games of the agree file that ran here and did not agree (skipped ones included), printed. */
function expectedToAgree(file, results) {
  if (!existsSync(file)) usage(`no list of agreeing games at ${file} (write it with --write-agree)`);
  const listed = new Set(readFileSync(file, 'utf8').split('\n').filter((l) => l !== ''));
  const missed = results.filter((r) => listed.has(r.game) && r.kind !== 'agree');
  if (missed.length > 0) process.stdout.write(`\n${missed.length} games expected to agree did not:\n`);
  for (const r of missed) process.stdout.write(`  ${r.game}: ${describe(r)}\n`);
  return missed;
}

function printSummary(results, opts) {
  const counts = new Map();
  for (const r of results) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  process.stdout.write(`\nSummary over ${results.length} games (clingo ${opts.clingoMs} ms, prolog ${opts.prologMs} ms, hard ${opts.hardMs} ms):\n`);
  for (const [kind, n] of [...counts].sort()) process.stdout.write(`  ${kind.padEnd(15)} ${n}\n`);
  for (const r of results) {
    if (r.kind === 'agree' || r.kind === 'clingo-model') continue;
    process.stdout.write(`  ${r.game}: ${describe(r)}\n`);
    if (r.kind === 'differ') for (const d of r.differences.slice(0, 5)) process.stdout.write(`      ${d}\n`);
  }
}
