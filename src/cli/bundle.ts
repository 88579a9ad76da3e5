/**
 * The command thread's program (program.ts and all it imports) loaded from one bundle with V8's
 * code cache, when the build made them (scripts/bundle-cli.mjs) and they are current; else
 * through the ESM loader, module by module. Loading ~150 modules one by one, each resolved, read
 * and compiled afresh, was about a third of `ground tictactoe`'s 0.34 CPU s (docs/corpus.md,
 * fixed23, boot26); Node 20 has no compile cache of its own.
 *
 * Never stale: the bundle is used only if no module it was made from is newer than it (a `tsc`
 * after the bundle makes it stale until the next `npm run build`); the code cache only if its
 * key, the SHA-256 of the bundle's text, of Node's version and of the V8 flags the command
 * thread runs with, matches (V8's own check compares the source's length only; it rejects a
 * cache of other flags or of another V8 itself, and then the bundle is compiled as usual).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { v8Flags } from '../runtime.js';
import type { runProgram } from './program.js';

/** The folder of the built command line (dist/cli). */
const HERE = dirname(fileURLToPath(import.meta.url));

/** The bundle of program.js, CommonJS (scripts/bundle-cli.mjs). */
const BUNDLE = join(HERE, 'program.bundle.cjs');

/** The modules the bundle was made from, paths relative to dist/cli (JSON array). */
const INPUTS = join(HERE, 'program.bundle.json');

/** The length of a cache's key: a SHA-256 digest. */
const KEY_BYTES = 32;

/** The file of the code cache for a command thread whose heap starts at `initialMb` (its V8 flags differ). */
export function codeCacheFile(initialMb: number): string {
  return join(HERE, `program.bundle-${initialMb}.cache`);
}

/** The command thread's program, and V8's code for what of it has run, to cache. */
interface LoadedProgram {
  /** Parses the command-line words and runs the command (program.ts). */
  readonly runProgram: typeof runProgram;
  /** Where it came from: the bundle with its code cache, the bundle compiled afresh, or the modules. */
  readonly source: 'cached' | 'bundle' | 'modules';
  /** The cache file's contents (key, then V8's data) for the code run so far; undefined without a bundle. */
  readonly codeCache: () => Buffer | undefined;
}

/** The bundle's text if it exists and no module it was made from is newer, else undefined. */
function currentBundle(): string | undefined {
  try {
    const made = statSync(BUNDLE).mtimeMs;
    const inputs = JSON.parse(readFileSync(INPUTS, 'utf8')) as string[];
    if (inputs.some((p) => statSync(join(HERE, p)).mtimeMs > made)) return undefined;
    return readFileSync(BUNDLE, 'utf8');
  } catch {
    return undefined;
  }
}

/** The key of a code cache for `text` in this Node with the command thread's flags. */
function cacheKey(text: string, initialMb: number): Buffer {
  return createHash('sha256').update(text).update(`\0${process.version}\0${v8Flags(initialMb).join(' ')}`).digest();
}

/** V8's cached data for `text` from the cache file, when its key matches; else undefined. */
function cachedData(key: Buffer, initialMb: number): Buffer | undefined {
  try {
    const file = readFileSync(codeCacheFile(initialMb));
    return file.subarray(0, KEY_BYTES).equals(key) ? file.subarray(KEY_BYTES) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads the command thread's program: from the bundle when it is current (with its code cache
 * for a heap starting at `initialMb`, src/runtime.ts, when that matches), else program.js.
 */
export async function loadProgram(initialMb: number): Promise<LoadedProgram> {
  const text = currentBundle();
  if (text === undefined) return { runProgram: (await import('./program.js')).runProgram, source: 'modules', codeCache: () => undefined };
  const key = cacheKey(text, initialMb);
  const data = cachedData(key, initialMb);
  // The wrapper of Node's own CommonJS loader, so that the bundle sees the usual module scope.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${text}\n})`, { filename: BUNDLE, cachedData: data });
  const module = { exports: {} as { runProgram: typeof runProgram } };
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, createRequire(BUNDLE), module, BUNDLE, HERE);
  const used = data !== undefined && script.cachedDataRejected === false;
  return { runProgram: module.exports.runProgram, source: used ? 'cached' : 'bundle', codeCache: () => Buffer.concat([key, script.createCachedData()]) };
}
