// Bundles the command thread's program and makes its V8 code cache (run by `npm run build` and
// `prepare` after tsc; docs/corpus.md, boot26). dist/cli/program.bundle.cjs is dist/cli/program.js
// with everything it imports (commander and Tau-Prolog included) in one CommonJS file, which the
// command thread loads with one compile instead of ~150 module loads (src/cli/bundle.ts);
// program.bundle.json lists the files it was made from, so that a later `tsc` makes it stale
// rather than wrong. The code caches are made by grounding a small game in a worker thread with
// the command thread's V8 flags, once per first heap limit (with and without --lazy-axioms: their
// flags differ, and V8 refuses a cache made under other flags). Without esbuild (a production
// install) it says so and leaves dist/ without a bundle: the command line then loads the modules.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist/cli');
const BUNDLE = join(CLI, 'program.bundle.cjs');
const INPUTS = join(CLI, 'program.bundle.json');
/** The name of the bundle's entry, a re-export of program.js that exists in no file. */
const ENTRY = 'program-entry.js';
/** The game each code cache is made on: small, and it runs every stage of `ground`. */
const GAME = join(ROOT, 'games/tictactoe.kif');

/** Writes `data` to `file` through a temporary file, so that a command line started meanwhile never reads half of it. */
function writeAtomically(file, data) {
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
}

/**
 * Replaces `import.meta.url` in a built module by the URL of that module (the bundle's
 * `__dirname` is dist/cli), so that paths found from it (batch/run.js: its worker) stay right.
 */
const importMetaUrl = {
  name: 'import-meta-url',
  setup(build) {
    build.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = JSON.stringify(relative(CLI, args.path));
      return { contents: text.replaceAll('import.meta.url', `require('node:url').pathToFileURL(require('node:path').join(__dirname, ${rel})).href`), loader: 'js' };
    });
  },
};

/** Writes the bundle and the list of its inputs; false when esbuild is not installed. */
async function bundle() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return false;
  }
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    // Through a re-export: with program.js itself as the entry esbuild marks the whole bundle
    // "use strict", and Tau-Prolog's core assigns a global without declaring it.
    stdin: { contents: "export { runProgram } from './program.js';", resolveDir: CLI, sourcefile: ENTRY },
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    legalComments: 'none',
    // Whitespace and syntax only (names stay, as do stack traces and error messages): 1.7 -> 1.2 MB,
    // about 4 MiB less peak memory and 0.01 CPU s a run (docs/corpus.md, boot26).
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    metafile: true,
    plugins: [importMetaUrl],
    write: false,
  });
  writeAtomically(BUNDLE, result.outputFiles[0].contents);
  // The package's own files only (dist/, lib/): a later tsc rewrites those. The dependencies'
  // paths differ once the package is installed (hoisted), and tau-prolog's version is pinned.
  const own = Object.keys(result.metafile.inputs).filter((p) => p !== `dist/cli/${ENTRY}` && /^(dist|lib)\//.test(p));
  const inputs = own.map((p) => relative(CLI, join(ROOT, p))).sort();
  writeFileSync(INPUTS, `${JSON.stringify(inputs, null, 1)}\n`);
  return true;
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

if (!isMainThread) {
  const { initialMb, args, save } = workerData;
  const { loadProgram, codeCacheFile } = await import('../dist/cli/bundle.js');
  const program = await loadProgram(initialMb);
  await program.runProgram(args);
  if (save) writeAtomically(codeCacheFile(initialMb), program.codeCache());
  parentPort.postMessage(program.source);
} else {
  const { codeCacheFile } = await import('../dist/cli/bundle.js');
  const { INITIAL_HEAP_MB, LAZY_INITIAL_HEAP_MB } = await import('../dist/runtime.js');
  const heaps = [INITIAL_HEAP_MB, LAZY_INITIAL_HEAP_MB];
  for (const mb of heaps) rmSync(codeCacheFile(mb), { force: true });
  if (!(await bundle())) {
    rmSync(BUNDLE, { force: true });
    console.log('bundle-cli: esbuild is not installed; the command line loads its modules one by one');
  } else {
    const tmp = mkdtempSync(join(tmpdir(), 'gdl-bundle-'));
    try {
      for (const mb of heaps) {
        const lazy = mb === LAZY_INITIAL_HEAP_MB ? ['--lazy-axioms'] : [];
        await inThread(mb, ['ground', GAME, ...lazy, '-o', join(tmp, 'x.gdl')], true);
        const source = await inThread(mb, ['check', GAME], false);
        if (source !== 'cached') console.warn(`bundle-cli: the code cache for a first heap of ${mb} MB is not used (${source})`);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}
