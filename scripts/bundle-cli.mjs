// Bundles the programs that start a run and makes their V8 code caches (run by `npm run build`
// and `prepare` after tsc; docs/corpus.md, boot26 and bworker27): the command thread's
// (dist/cli/program.js) and the worker processes' of `batch`, of the benchmark and of its
// ablation (dist/batch/worker-main.js, dist/bench/worker-main.js, dist/bench/ablation-main.js).
// Each NAME.js gets NAME.bundle.cjs beside it: the module with everything it imports (commander
// and Tau-Prolog included) in one CommonJS file, which src/bundle.ts loads with one compile
// instead of ~150 module loads; NAME.bundle.json lists the files it was made from, so that a
// later `tsc` makes it stale rather than wrong. Each code cache is made by running the program on
// a small game with the V8 flags it runs with (V8 refuses a cache made under other flags): the
// command thread in a worker thread, once per first heap limit (with and without --lazy-axioms);
// each worker process as its spawner starts it (batch's with the default heaps of one job and of
// the default jobs).
// Then each cache is loaded again, and a warning says if V8 refuses it. Without esbuild (a
// production install) it says so and leaves dist/ without bundles: every program then loads its
// modules one by one.
//
// Internal modes (the build starts itself in them, with a worker process's flags):
// `bundle-cli.mjs train MODULE ARGS...` runs MODULE's program on ARGS and saves its cache;
// `bundle-cli.mjs check MODULE` prints where MODULE's program would come from.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
/** The game each code cache is made on: small, and it runs every stage of `ground`. */
const GAME = join(ROOT, 'games/tictactoe.kif');

/**
 * The programs bundled: the built module, the name it exports (the bundle exports only that),
 * and how its code cache is made (`thread`: the command thread; `process`: a worker process).
 */
const PROGRAMS = [
  { module: 'dist/cli/program.js', name: 'runProgram', runs: 'thread' },
  { module: 'dist/batch/worker-main.js', name: 'main', runs: 'process' },
  { module: 'dist/bench/worker-main.js', name: 'main', runs: 'process' },
  { module: 'dist/bench/ablation-main.js', name: 'main', runs: 'process' },
];

/**
 * Replaces `import.meta.url` in a built module by the URL of that module (the bundle's
 * `__dirname` is its own folder), so that paths found from it (batch/run.js: its worker) stay right.
 */
function importMetaUrl(bundleDir) {
  return {
    name: 'import-meta-url',
    setup(build) {
      build.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const rel = JSON.stringify(relative(bundleDir, args.path));
        return { contents: text.replaceAll('import.meta.url', `require('node:url').pathToFileURL(require('node:path').join(__dirname, ${rel})).href`), loader: 'js' };
      });
    },
  };
}

/** Writes the bundle of `program` and the list of its inputs. */
async function bundle(esbuild, program, writeAtomically, bundleFile, bundleInputsFile) {
  const module = join(ROOT, program.module);
  const dir = dirname(module);
  const out = bundleFile(module);
  // The name of the bundle's entry, a re-export of the module that exists in no file.
  const entry = `${relative(dir, module).replace(/\.js$/, '')}-entry.js`;
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    // Through a re-export: with the module itself as the entry esbuild marks the whole bundle
    // "use strict", and Tau-Prolog's core assigns a global without declaring it.
    stdin: { contents: `export { ${program.name} } from './${module.slice(dir.length + 1)}';`, resolveDir: dir, sourcefile: entry },
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // An ES module only, imported by the benchmark's clingo column, whose runs load the modules
    // (src/bench/worker.ts): left out of the bundle.
    external: ['clingo-wasm'],
    legalComments: 'none',
    // Whitespace and syntax only (names stay, as do stack traces and error messages): 1.7 -> 1.2 MB,
    // about 4 MiB less peak memory and 0.01 CPU s a run (docs/corpus.md, boot26).
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    metafile: true,
    plugins: [importMetaUrl(dir)],
    write: false,
  });
  writeAtomically(out, result.outputFiles[0].contents);
  // The package's own files only (dist/, lib/): a later tsc rewrites those. The dependencies'
  // paths differ once the package is installed (hoisted), and tau-prolog's version is pinned.
  const own = Object.keys(result.metafile.inputs).filter((p) => p !== relative(ROOT, join(dir, entry)) && /^(dist|lib)\//.test(p));
  const inputs = own.map((p) => relative(dir, join(ROOT, p))).sort();
  writeFileSync(bundleInputsFile(out), `${JSON.stringify(inputs, null, 1)}\n`);
}

/** Runs `args` in a worker thread with the command thread's flags; resolves to where its program came from. */
async function inThread(initialMb, args, save) {
  const { tuneProcess, exposeCollector } = await import('../dist/runtime.js');
  tuneProcess(initialMb);
  exposeCollector();
  const worker = new Worker(new URL(import.meta.url), { workerData: { initialMb, args, save }, stdout: true, stderr: true });
  return new Promise((done, fail) => {
    worker.on('message', done);
    worker.on('error', fail);
  });
}

/** The command thread: makes (`save`) or checks its code cache (worker thread of {@link inThread}). */
async function commandThread() {
  const { initialMb, args, save } = workerData;
  const { bundleFile, codeCacheFile, loadBundle, writeAtomically } = await import('../dist/bundle.js');
  const { v8Flags } = await import('../dist/runtime.js');
  const module = join(ROOT, 'dist/cli/program.js');
  const program = await loadBundle(bundleFile(module), v8Flags(initialMb), () => Promise.reject(new Error('no bundle')));
  await program.exports.runProgram(args);
  if (save) writeAtomically(codeCacheFile(bundleFile(module), v8Flags(initialMb)), program.codeCache());
  parentPort.postMessage(program.source);
}

/**
 * Starts this script in `mode` (train or check) for the worker program `module`, with the V8
 * flags `flags` as its spawner passes them; `job`, when given, is sent over IPC (batch's worker).
 * Resolves to the child's stdout.
 */
function inProcess(flags, mode, module, args, job) {
  const child = spawn(process.execPath, [...flags, SELF, mode, module, ...args], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (s) => { out += s; });
  if (job !== undefined) child.send(job);
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(out) : fail(new Error(`bundle-cli: ${mode} ${module} ended with ${code}`))));
  });
}

/**
 * How each worker program is started for its cache: its V8 flags, its words and its IPC job.
 * `batch`'s worker gets one cache per default heap: that of `--jobs 1` (the corpus table's
 * batch) and that of the default jobs, the number of processors (their heaps differ, and so
 * their `--max-old-space-size`).
 */
async function processRuns(tmp) {
  const { v8Flags } = await import('../dist/runtime.js');
  const { defaultMaxMemoryMb, workerExecArgv } = await import('../dist/batch/run.js');
  const heaps = [...new Set([defaultMaxMemoryMb(1), defaultMaxMemoryMb(availableParallelism())])];
  // What `batch --lazy-axioms --out DIR` sends (batch/run.ts, jobOf).
  const job = (maxMemoryMb) => ({
    file: GAME, name: 'tictactoe', format: 'gdl', method: 'prolog', timeoutSeconds: 60, lazyAxioms: true,
    heapLimitMb: Math.floor(maxMemoryMb * 0.9), tmpDir: join(tmp, `batch-${maxMemoryMb}`), startedAt: Date.now(),
  });
  return [
    ...heaps.map((mb) => ({ module: 'dist/batch/worker-main.js', flags: workerExecArgv(mb), args: [String(process.pid)], job: job(mb) })),
    { module: 'dist/bench/worker-main.js', flags: v8Flags(), args: [GAME, '60', '2000000', 'method=prolog'] },
    { module: 'dist/bench/ablation-main.js', flags: v8Flags(), args: [GAME, 'optimized', '60'] },
  ];
}

/** Makes every program's code caches, then checks that V8 takes each. */
async function makeCaches() {
  const { INITIAL_HEAP_MB, LAZY_INITIAL_HEAP_MB } = await import('../dist/runtime.js');
  const tmp = mkdtempSync(join(tmpdir(), 'gdl-bundle-'));
  try {
    for (const mb of [INITIAL_HEAP_MB, LAZY_INITIAL_HEAP_MB]) {
      const lazy = mb === LAZY_INITIAL_HEAP_MB ? ['--lazy-axioms'] : [];
      await inThread(mb, ['ground', GAME, ...lazy, '-o', join(tmp, 'x.gdl')], true);
      const source = await inThread(mb, ['check', GAME], false);
      if (source !== 'cached') console.warn(`bundle-cli: the command thread's code cache for a first heap of ${mb} MB is not used (${source})`);
    }
    for (const run of await processRuns(tmp)) {
      await inProcess(run.flags, 'train', run.module, run.args, run.job);
      const source = (await inProcess(run.flags, 'check', run.module, [])).trim();
      if (source !== 'cached') console.warn(`bundle-cli: the code cache of ${run.module} for ${run.flags.join(' ')} is not used (${source})`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Bundles every program and makes their caches (the build's own run). */
/** The `bin` of package.json: tsc writes it without the execute bit, and npm 11's `npx gdl-ground` in a clone runs it as it is. */
const BIN = join(ROOT, 'dist/cli/main.js');

async function build() {
  // Executable first, with or without esbuild: the README's first command runs it (`npx gdl-ground`).
  chmodSync(BIN, 0o755);
  const { bundleFile, bundleInputsFile, writeAtomically } = await import('../dist/bundle.js');
  for (const program of PROGRAMS) {
    const bundled = bundleFile(join(ROOT, program.module));
    const dir = dirname(bundled);
    const stem = bundled.slice(dir.length + 1).replace(/\.cjs$/, '');
    for (const f of readdirSync(dir)) if (f.startsWith(`${stem}-`) && f.endsWith('.cache')) rmSync(join(dir, f), { force: true });
  }
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    for (const program of PROGRAMS) rmSync(bundleFile(join(ROOT, program.module)), { force: true });
    console.log('bundle-cli: esbuild is not installed; every program loads its modules one by one');
    return;
  }
  for (const program of PROGRAMS) await bundle(esbuild, program, writeAtomically, bundleFile, bundleInputsFile);
  await makeCaches();
}

const [mode, module, ...args] = process.argv.slice(2);
if (!isMainThread) {
  await commandThread();
} else if (mode === 'train') {
  const { runProcessEntry } = await import('../dist/bundle.js');
  await runProcessEntry(pathToFileURL(join(ROOT, module)), () => Promise.reject(new Error('no bundle')), args, true);
} else if (mode === 'check') {
  const { bundleFile, loadBundle } = await import('../dist/bundle.js');
  // The modules have no effect when imported: each program runs only when its `main` is called.
  const loaded = await loadBundle(bundleFile(join(ROOT, module)), process.execArgv, () => import(pathToFileURL(join(ROOT, module)).href));
  process.stdout.write(`${loaded.source}\n`);
} else {
  await build();
}
