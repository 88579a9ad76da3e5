/**
 * The built command line for end-to-end tests, rebuilt when src/ is newer than dist/. A test
 * that needs the CLI never skips for want of it: a failed build fails the test with tsc's
 * output.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The built `gdl-ground` entry point. */
export const CLI = join(ROOT, 'dist/cli/main.js');

/** Test files run in parallel processes; one of them builds while the others wait. */
const LOCK = join(ROOT, 'dist/.build-lock');

/** How long a waiting process gives the building one. */
const BUILD_WAIT_MS = 300_000;

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function fresh(): boolean {
  return existsSync(CLI) && statSync(CLI).mtimeMs >= newestSource(join(ROOT, 'src'));
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function build(): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.json')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building dist/ failed (tsc exit ${r.status}):\n${r.stdout}${r.stderr}`);
  // What `npm run build` does next: the command thread's bundle and code cache (src/cli/bundle.ts).
  const b = spawnSync(process.execPath, [join(ROOT, 'scripts/bundle-cli.mjs')], { encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`bundling dist/cli failed (exit ${b.status}):\n${b.stdout}${b.stderr}`);
}

/** Builds dist/ when it is missing or older than src/ (`npm ci` builds it through `prepare`); throws when it cannot. */
export function ensureBuilt(): void {
  if (fresh()) return;
  mkdirSync(dirname(LOCK), { recursive: true });
  let mine = false;
  try {
    mkdirSync(LOCK);
    mine = true;
  } catch {
    const start = Date.now();
    while (existsSync(LOCK) && Date.now() - start < BUILD_WAIT_MS) sleep(200);
  }
  try {
    if (mine || !fresh()) build();
  } finally {
    if (mine) rmSync(LOCK, { recursive: true, force: true });
  }
  if (!fresh()) throw new Error(`dist/ is missing or older than src/ after building: ${CLI}`);
}

/** Runs the built `gdl-ground` with `args` from the repository's root; its exit code and output. */
export function runCli(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
