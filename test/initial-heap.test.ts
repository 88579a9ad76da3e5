// What it tests: tuneProcess (src/runtime.ts), which the command line calls before it starts
// its command thread, gives a thread started afterwards an old generation that takes tens of MB
// of live objects without a full collection; without it V8 collects several times on the way.
// And v8Flags, which batch's and the benchmarks' worker processes get on their command line, does
// the same for a process's own heap (set at run time, the initial heap size would not).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { v8Flags } from '../src/runtime.js';

/**
 * A CommonJS script that keeps about 50 MB of objects and hands `report` (a function of one
 * argument, as source text) the number of full collections made meanwhile.
 */
function keepingScript(report: string): string {
  return `
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    let major = 0;
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
    });
    obs.observe({ entryTypes: ['gc'] });
    const keep = [];
    for (let i = 0; i < 600000; i++) keep.push({ a: i, b: [i, i + 1] });
    setTimeout(() => (${report})(major + keep.length * 0), 100);
  `;
}

/** Full collections in a fresh worker thread that keeps about 50 MB of objects, after `tuneProcess` or not. */
function majorCollections(larger: boolean): number {
  const script = `
    const { Worker } = require('node:worker_threads');
    (async () => {
    if (${larger}) (await import('./dist/runtime.js')).tuneProcess();
    const w = new Worker(\`
      ${keepingScript("(n) => require('node:worker_threads').parentPort.postMessage(n)")}
    \`, { eval: true });
    w.on('message', (m) => { console.log(m); process.exit(0); });
    })();
  `;
  const r = spawnSync(process.execPath, ['--input-type=commonjs', '-e', script], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return Number(r.stdout.trim());
}

describe('tuneProcess', () => {
  it('spares a thread started afterwards the full collections of a growing heap', () => {
    expect(majorCollections(false)).toBeGreaterThan(0);
    expect(majorCollections(true)).toBe(0);
  });
});

/** Full collections in a fresh process, started with `flags`, that keeps about 50 MB of objects. */
function processMajorCollections(flags: readonly string[]): number {
  const script = keepingScript('console.log');
  const r = spawnSync(process.execPath, [...flags, '--input-type=commonjs', '-e', script], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return Number(r.stdout.trim());
}

describe('v8Flags', () => {
  it('spares a worker process started with them the full collections of a growing heap', () => {
    expect(processMajorCollections([])).toBeGreaterThan(0);
    expect(processMajorCollections(v8Flags())).toBe(0);
  });
});
