// What it tests: startHeapLarger (src/runtime.ts), which the command line calls before it starts
// its command thread, gives a thread started afterwards an old generation that takes tens of MB
// of live objects without a full collection; without it V8 collects several times on the way.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Full collections in a fresh worker thread that keeps about 50 MB of objects, after `startHeapLarger` or not. */
function majorCollections(larger: boolean): number {
  const script = `
    const { Worker } = require('node:worker_threads');
    (async () => {
    if (${larger}) (await import('./dist/runtime.js')).startHeapLarger();
    const w = new Worker(\`
      const { PerformanceObserver, constants } = require('node:perf_hooks');
      let major = 0;
      const obs = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
      });
      obs.observe({ entryTypes: ['gc'] });
      const keep = [];
      for (let i = 0; i < 600000; i++) keep.push({ a: i, b: [i, i + 1] });
      setTimeout(() => require('node:worker_threads').parentPort.postMessage(major + keep.length * 0), 100);
    \`, { eval: true });
    w.on('message', (m) => { console.log(m); process.exit(0); });
    })();
  `;
  const r = spawnSync(process.execPath, ['--input-type=commonjs', '-e', script], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return Number(r.stdout.trim());
}

describe('startHeapLarger', () => {
  it('spares a thread started afterwards the full collections of a growing heap', () => {
    expect(majorCollections(false)).toBeGreaterThan(0);
    expect(majorCollections(true)).toBe(0);
  });
});
