// What it tests: lowerBudgetWhenLong (src/runtime.ts), which the command line's main thread starts
// while its command thread runs: once the process has used the given processor time, a function
// made afterwards in the other thread is optimized after fewer calls (V8 reads the lowered
// interrupt budget at run time), and before that it is not. Counted with V8's own
// %GetOptimizationStatus in a process with the project's flags (compiling in place, so the
// optimization is done when the call that asked for it returns).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { v8Flags } from '../src/runtime.js';

/**
 * Calls of a fresh function after which it is optimized with the lowered budget (about 510) but
 * not with the command line's (about 1,220): both measured with this function on Node 20.
 */
const CALLS = 800;

/**
 * A worker thread's code: every 20 ms it makes a fresh function, calls it {@link CALLS} times and
 * reads whether V8 optimized it; it posts true at the first that was, false after `waitMs`.
 */
function workerCode(waitMs: number): string {
  return `
    const { parentPort } = require('node:worker_threads');
    const body = 'let s = 0; for (let i = 0; i < 20; i++) { s += (a * i) % 7; if (s > 1e9) s = 0; } return s;';
    let made = 0;
    const optimized = () => {
      const f = new Function('a', '/* ' + made++ + ' */ ' + body);
      for (let n = 1; n <= ${CALLS}; n++) f(n);
      return (%GetOptimizationStatus(f) & 16) !== 0;
    };
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const until = Date.now() + ${waitMs};
    let found = false;
    do { Atomics.wait(pause, 0, 0, 20); found = optimized(); } while (!found && Date.now() < until);
    parentPort.postMessage(found);
  `;
}

/** Whether the worker found an optimized function, the watch started with `afterCpuMs`. */
function optimizedWithWatch(afterCpuMs: number, waitMs: number): boolean {
  const script = `
    const { Worker } = require('node:worker_threads');
    (async () => {
      (await import('./dist/runtime.js')).lowerBudgetWhenLong(${afterCpuMs});
      const w = new Worker(${JSON.stringify(workerCode(waitMs))}, { eval: true });
      w.on('message', (m) => { console.log(m); process.exit(0); });
    })();
  `;
  const r = spawnSync(process.execPath, [...v8Flags(), '--allow-natives-syntax', '--input-type=commonjs', '-e', script], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim() === 'true';
}

describe('lowerBudgetWhenLong', () => {
  it('keeps the budget while the process has used less than the given processor time', () => {
    expect(optimizedWithWatch(1e9, 300)).toBe(false);
  });

  it('lowers it for the running threads once the process has used that much', () => {
    expect(optimizedWithWatch(0, 20_000)).toBe(true);
  });
});
