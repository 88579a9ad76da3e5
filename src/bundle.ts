/**
 * A program loaded from one bundle with V8's code cache, when the build made them
 * (scripts/bundle-cli.mjs) and they are current; else through the ESM loader, module by module.
 * Loading ~150 modules one by one, each resolved, read and compiled afresh, was about a third of
 * `ground tictactoe`'s 0.34 CPU s (docs/corpus.md, fixed23, boot26); Node 20 has no compile cache
 * of its own. Four programs load this way (the build's list, scripts/bundle-cli.mjs): the
 * command thread's (cli/program.js, from cli/main.ts) and the worker processes of `batch`, of
 * the benchmark and of its ablation ({@link runProcessEntry}).
 *
 * Never stale: a bundle is used only if no module it was made from is newer than it (a `tsc`
 * after the bundle makes it stale until the next `npm run build`); a code cache only if its
 * key, the SHA-256 of the bundle's text, of Node's version and of the V8 flags the program
 * runs with, matches (V8's own check compares the source's length only; it rejects a cache of
 * other flags or of another V8 itself, and then the bundle is compiled as usual). Each set of
 * flags has a cache file of its own, named by its digest: V8 refuses a cache made under other
 * flags, `--max-old-space-size` included (`batch --max-memory`).
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The length of a cache's key: a SHA-256 digest. */
const KEY_BYTES = 32;

/** Hex digits of the flags' digest in a cache file's name. */
const NAME_DIGITS = 16;

/** The bundle of the built module `module` (a file URL or path of dist/…/NAME.js): NAME.bundle.cjs beside it. */
export function bundleFile(module: string | URL): string {
  const path = typeof module === 'string' ? module : fileURLToPath(module);
  return path.replace(/\.js$/, '.bundle.cjs');
}

/** The list of the modules a bundle was made from (paths relative to its folder, JSON array). */
export function bundleInputsFile(bundle: string): string {
  return bundle.replace(/\.cjs$/, '.json');
}

/** The V8 flags as one string, the same for the cache's key and its file's name. */
function flagText(flags: readonly string[]): string {
  return `${process.version}\0${flags.join(' ')}`;
}

/** The code cache file of `bundle` for a program that runs with the V8 flags `flags`. */
export function codeCacheFile(bundle: string, flags: readonly string[]): string {
  const digest = createHash('sha256').update(flagText(flags)).digest('hex').slice(0, NAME_DIGITS);
  return bundle.replace(/\.cjs$/, `-${digest}.cache`);
}

/** A program's exports, and V8's code for what of it has run, to cache. */
export interface LoadedBundle<T> {
  /** The program's exports (those of its entry module). */
  readonly exports: T;
  /** Where it came from: the bundle with its code cache, the bundle compiled afresh, or the modules. */
  readonly source: 'cached' | 'bundle' | 'modules';
  /** The cache file's contents (key, then V8's data) for the code run so far; undefined without a bundle. */
  readonly codeCache: () => Buffer | undefined;
}

/** The bundle's text if it exists and no module it was made from is newer, else undefined. */
function currentBundle(bundle: string): string | undefined {
  try {
    const made = statSync(bundle).mtimeMs;
    const inputs = JSON.parse(readFileSync(bundleInputsFile(bundle), 'utf8')) as string[];
    const here = dirname(bundle);
    if (inputs.some((p) => statSync(join(here, p)).mtimeMs > made)) return undefined;
    return readFileSync(bundle, 'utf8');
  } catch {
    return undefined;
  }
}

/** The key of a code cache for `text` in this Node with the V8 flags `flags`. */
function cacheKey(text: string, flags: readonly string[]): Buffer {
  return createHash('sha256').update(text).update(`\0${flagText(flags)}`).digest();
}

/** V8's cached data from `file`, when its key matches; else undefined. */
function cachedData(file: string, key: Buffer): Buffer | undefined {
  try {
    const data = readFileSync(file);
    return data.subarray(0, KEY_BYTES).equals(key) ? data.subarray(KEY_BYTES) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads the program of `bundle` for a thread or process that runs with the V8 flags `flags`:
 * from the bundle when it is current (with its code cache for those flags, when that matches),
 * else through `modules`, the dynamic import of the module the bundle was made from.
 */
export async function loadBundle<T>(bundle: string, flags: readonly string[], modules: () => Promise<T>): Promise<LoadedBundle<T>> {
  const text = currentBundle(bundle);
  if (text === undefined) return { exports: await modules(), source: 'modules', codeCache: () => undefined };
  const key = cacheKey(text, flags);
  const data = cachedData(codeCacheFile(bundle, flags), key);
  // The wrapper of Node's own CommonJS loader, so that the bundle sees the usual module scope.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${text}\n})`, { filename: bundle, cachedData: data });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  const used = data !== undefined && script.cachedDataRejected === false;
  return { exports: module.exports, source: used ? 'cached' : 'bundle', codeCache: () => Buffer.concat([key, script.createCachedData()]) };
}

/** Writes `data` to `file` through a temporary file, so that a program started meanwhile never reads half of it. */
export function writeAtomically(file: string, data: Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/** The entry module of a worker process: it runs the process's command-line words. */
export interface ProcessEntry {
  /** Runs the worker on the words after the script (`process.argv.slice(2)`). */
  readonly main: (args: readonly string[]) => void | Promise<void>;
}

/**
 * Runs a worker process's program (`module`, a built module of dist/, through its bundle
 * {@link bundleFile} when current) on `args`, with the code cache of the V8 flags the process
 * was started with (`process.execArgv`: its spawner passes src/runtime.ts's `v8Flags`). The
 * build (scripts/bundle-cli.mjs) sets `save` to make that cache: it is written when the process
 * exits, after the whole run, so that it holds all the code that ran.
 */
export async function runProcessEntry(module: URL, modules: () => Promise<ProcessEntry>, args: readonly string[], save = false): Promise<void> {
  const bundle = bundleFile(module);
  const loaded = await loadBundle(bundle, process.execArgv, modules);
  if (save) {
    process.once('exit', () => {
      const cache = loaded.codeCache();
      if (cache !== undefined) writeAtomically(codeCacheFile(bundle, process.execArgv), cache);
    });
  }
  await loaded.exports.main(args);
}
