// What it tests: exposeCollector (src/runtime.ts), which the command line calls before it starts
// its command thread, gives a thread started afterwards a full collection (fullCollection), which
// frees at once what that thread dropped; without it fullCollection is undefined (no collection).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** In a fresh worker thread, after `exposeCollector` or not: MB freed by `fullCollection()` after dropping ~50 MB, or 'none'. */
function freedInThread(exposed: boolean): string {
  const script = `
    const { Worker } = require('node:worker_threads');
    (async () => {
    if (${exposed}) (await import('./dist/runtime.js')).exposeCollector();
    const runtime = new URL('./dist/runtime.js', 'file://' + process.cwd() + '/').href;
    const w = new Worker(\`
      import(\${JSON.stringify(runtime)}).then(({ fullCollection }) => {
        const collect = fullCollection();
        const { parentPort } = require('node:worker_threads');
        if (collect === undefined) return parentPort.postMessage('none');
        let keep = [];
        for (let i = 0; i < 600000; i++) keep.push({ a: i, b: [i, i + 1] });
        const { getHeapStatistics } = require('node:v8');
        const full = getHeapStatistics().used_heap_size;
        keep = undefined;
        collect();
        parentPort.postMessage(String(Math.round((full - getHeapStatistics().used_heap_size) / 2 ** 20)));
      });
    \`, { eval: true });
    w.on('message', (m) => { console.log(m); process.exit(0); });
    })();
  `;
  const r = spawnSync(process.execPath, ['--input-type=commonjs', '-e', script], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('exposeCollector and fullCollection', () => {
  it('give a thread started afterwards a collection that frees what it dropped', () => {
    expect(freedInThread(false)).toBe('none');
    expect(Number(freedInThread(true))).toBeGreaterThan(30);
  });
});
