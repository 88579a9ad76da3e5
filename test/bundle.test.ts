// The programs' bundles and code caches (src/bundle.ts, scripts/bundle-cli.mjs): a build makes
// them and the command thread and the worker processes (batch's, the benchmark's, the ablation's)
// use them; a module newer than a bundle (a `tsc` after the build) makes it fall back to the
// modules, and a cache whose key does not match, or made for other V8 flags, is not used. Each
// case loads a program as it runs (the command thread in a worker thread with the command line's
// V8 flags, a worker process with its spawner's), from a copy of dist/ that the case may age or
// damage.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMaxMemoryMb, workerExecArgv } from '../src/batch/run.js';
import { codeCacheFile } from '../src/bundle.js';
import { v8Flags } from '../src/runtime.js';
import { ROOT, ensureBuilt } from './support/cli.js';

/**
 * A script that loads the program of dist/cli/bundle.js beside it in a thread started as the
 * command line starts its command's (the flags set first) and prints where it came from.
 */
const PROBE = `
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
if (isMainThread) {
  const mb = Number(process.argv[2]);
  const { tuneProcess, exposeCollector } = await import('./dist/runtime.js');
  tuneProcess(mb);
  exposeCollector();
  new Worker(new URL(import.meta.url), { workerData: mb }).on('message', (m) => console.log(m));
} else {
  const { bundleFile, loadBundle } = await import('./dist/bundle.js');
  const { v8Flags } = await import('./dist/runtime.js');
  const program = new URL('./dist/cli/program.js', import.meta.url);
  parentPort.postMessage((await loadBundle(bundleFile(program), v8Flags(workerData), () => import(program.href))).source);
}
`;

/** Where the command thread's program under `root` comes from, for a first heap of `initialMb`. */
function loadedFrom(root: string, initialMb = 128): string {
  const r = spawnSync(process.execPath, [join(root, 'probe.mjs'), String(initialMb)], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.trim();
}

/** A copy of the built package (dist/, lib/, the build script) under a new temporary folder. */
function builtCopy(): string {
  ensureBuilt();
  const root = mkdtempSync(join(tmpdir(), 'gdl-bundle-'));
  for (const d of ['dist', 'lib', 'scripts']) cpSync(join(ROOT, d), join(root, d), { recursive: true, preserveTimestamps: true });
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'probe.mjs'), PROBE);
  return root;
}

describe('the command thread loads its program', () => {
  let root = '';
  beforeAll(() => {
    root = builtCopy();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('from the bundle with its code cache after a build, for both first heap limits', () => {
    expect(loadedFrom(root)).toBe('cached');
    expect(loadedFrom(root, 96)).toBe('cached');
  });

  it('from the bundle compiled afresh when the cache is not for this bundle', () => {
    const file = codeCacheFile(join(root, 'dist/cli/program.bundle.cjs'), v8Flags(128));
    const cache = readFileSync(file);
    writeFileSync(file, Buffer.concat([Buffer.from([cache[0]! ^ 1]), cache.subarray(1)]));
    try {
      expect(loadedFrom(root)).toBe('bundle');
    } finally {
      writeFileSync(file, cache);
    }
  });

  it('from the modules when one of them is newer than the bundle', () => {
    const module = join(root, 'dist/ground/instantiate.js');
    const later = new Date(Date.now() + 60_000);
    utimesSync(module, later, later);
    expect(loadedFrom(root)).toBe('modules');
  });
});

/** Where the worker program `module` (dist/…) under `root` comes from in a process started with `flags`. */
function workerLoadedFrom(root: string, module: string, flags: readonly string[]): string {
  const r = spawnSync(process.execPath, [...flags, join(root, 'scripts/bundle-cli.mjs'), 'check', module], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.trim();
}

/** The ablation worker's JSON line for tictactoe under `root`, its timings left out. */
function ablationResult(root: string): unknown {
  const r = spawnSync(process.execPath, [...v8Flags(), join(root, 'dist/bench/ablation-worker.js'), join(ROOT, 'games/tictactoe.kif'), 'optimized', '60'], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  const { cpuMs: _cpu, wallMs: _wall, ...rest } = JSON.parse(r.stdout) as Record<string, unknown>;
  return rest;
}

describe('the worker processes load their programs', () => {
  let root = '';
  beforeAll(() => {
    root = builtCopy();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('from the bundle with the code cache of the flags their spawners pass', () => {
    expect(workerLoadedFrom(root, 'dist/batch/worker-main.js', workerExecArgv(defaultMaxMemoryMb(1)))).toBe('cached');
    // `batch` without --jobs: one job per processor, a smaller heap each.
    expect(workerLoadedFrom(root, 'dist/batch/worker-main.js', workerExecArgv(defaultMaxMemoryMb(availableParallelism())))).toBe('cached');
    expect(workerLoadedFrom(root, 'dist/bench/worker-main.js', v8Flags())).toBe('cached');
    expect(workerLoadedFrom(root, 'dist/bench/ablation-main.js', v8Flags())).toBe('cached');
  });

  it('from the bundle compiled afresh under flags the build made no cache for (another heap)', () => {
    expect(workerLoadedFrom(root, 'dist/batch/worker-main.js', workerExecArgv(defaultMaxMemoryMb(1) + 1))).toBe('bundle');
  });

  it('from the modules when one of them is newer than the bundle, with the same result', () => {
    const bundled = ablationResult(root);
    expect(bundled).toMatchObject({ status: 'ok' });
    const module = join(root, 'dist/reach/ablation.js');
    const later = new Date(Date.now() + 60_000);
    utimesSync(module, later, later);
    expect(workerLoadedFrom(root, 'dist/bench/ablation-main.js', v8Flags())).toBe('modules');
    expect(workerLoadedFrom(root, 'dist/batch/worker-main.js', workerExecArgv(defaultMaxMemoryMb(1)))).toBe('modules');
    expect(ablationResult(root)).toEqual(bundled);
  });
});

describe('the build', () => {
  // npm 11's `npx gdl-ground` in a clone (the README's first command) runs package.json's bin as it
  // is, and tsc writes it without the execute bit: "sh: 1: gdl-ground: Permission denied".
  it('leaves the package bin (dist/cli/main.js) executable', () => {
    ensureBuilt();
    const bin = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['gdl-ground']!;
    expect(statSync(join(ROOT, bin)).mode & 0o111).toBe(0o111);
  });
});
