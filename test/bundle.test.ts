// The command thread's bundle and code cache (src/cli/bundle.ts, scripts/bundle-cli.mjs): a build
// makes both and the command thread uses them; a module newer than the bundle (a `tsc` after the
// build) makes it fall back to the modules, and a cache whose key does not match is not used.
// Each case loads the program in a worker thread with the command line's V8 flags, from a copy
// of dist/ that the case may age or damage.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  const { loadProgram } = await import('./dist/cli/bundle.js');
  parentPort.postMessage((await loadProgram(workerData)).source);
}
`;

/** Where the command thread's program under `root` comes from, for a first heap of `initialMb`. */
function loadedFrom(root: string, initialMb = 128): string {
  const r = spawnSync(process.execPath, [join(root, 'probe.mjs'), String(initialMb)], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.trim();
}

describe('the command thread loads its program', () => {
  let root = '';
  beforeAll(() => {
    ensureBuilt();
    root = mkdtempSync(join(tmpdir(), 'gdl-bundle-'));
    for (const d of ['dist', 'lib']) cpSync(join(ROOT, d), join(root, d), { recursive: true, preserveTimestamps: true });
    cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    writeFileSync(join(root, 'probe.mjs'), PROBE);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('from the bundle with its code cache after a build, for both first heap limits', () => {
    expect(loadedFrom(root)).toBe('cached');
    expect(loadedFrom(root, 96)).toBe('cached');
  });

  it('from the bundle compiled afresh when the cache is not for this bundle', () => {
    const file = join(root, 'dist/cli/program.bundle-128.cache');
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
