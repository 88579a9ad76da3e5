// The one corpus runner (src/batch/runner.ts) that the batch, the benchmarks and the corpus
// scripts drive: a child's stdout kept or counted, its stderr bounded, its IPC reply, the kill
// at its time limit and on abort, and the scheduling of games `jobs` at a time in game order.
import { describe, expect, it } from 'vitest';
import { type Ending, failureText, heapAborted, runAll, runChild } from '../src/batch/runner.js';

/** Node running `code`. */
const node = (code: string): string[] => ['-e', code];

describe('runChild', () => {
  it('keeps stdout, counts its bytes, and reports the exit code and stderr', async () => {
    const e = await runChild({ args: node("process.stdout.write('héllo\\n'); process.stderr.write('oops\\n'); process.exit(3)"), stdout: 'keep' });
    expect(e).toMatchObject({ code: 3, signal: null, stdout: 'héllo\n', stdoutBytes: 7, timedOut: false, aborted: false });
    expect(e.stderr).toBe('oops\n');
    expect(failureText(e)).toBe('exit 3: oops');
    const counted = await runChild({ args: node("process.stdout.write('x'.repeat(1000))"), stdout: 'count' });
    expect(counted).toMatchObject({ code: 0, stdout: '', stdoutBytes: 1000 });
  });

  it('sends the first message with the start time and keeps the reply', async () => {
    const e = await runChild({
      args: node("process.once('message', (m) => process.send({ got: m }, () => process.exit(0)))"),
      message: (startedAt) => ({ startedAt }),
    });
    expect(e.code).toBe(0);
    expect(e.reply).toEqual({ got: { startedAt: e.startedAt } });
  });

  it('kills a child at its time limit, and on abort', async () => {
    const hang = node('setTimeout(() => {}, 60000)');
    const late = await runChild({ args: hang, killAfterMs: 300 });
    expect(late).toMatchObject({ timedOut: true, aborted: false, signal: 'SIGKILL' });
    expect(late.seconds).toBeLessThan(30);
    expect(failureText(late)).toMatch(/^killed after/);
    const controller = new AbortController();
    const running = runChild({ args: hang }, controller.signal);
    setTimeout(() => controller.abort(), 300);
    expect(await running).toMatchObject({ aborted: true, timedOut: false, signal: 'SIGKILL' });
  });

  it('keeps the head and the tail of a long stderr', async () => {
    const e = await runChild({ args: node("process.stderr.write('START' + 'a'.repeat(10000) + 'END')"), stderrCap: 100 });
    expect(e.stderr.startsWith('START')).toBe(true);
    expect(e.stderr.endsWith('END')).toBe(true);
    expect(e.stderr).toContain('[...]');
    expect(e.stderr.length).toBeLessThan(120);
  });

  it('tells a V8 heap abort from its words, only for a child that did not reply', () => {
    const base: Ending = { reply: undefined, code: 134, signal: null, stdout: '', stdoutBytes: 0, stderr: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', timedOut: false, aborted: false, seconds: 1, startedAt: 0 };
    expect(heapAborted(base)).toBe(true);
    expect(heapAborted({ ...base, reply: { status: 'ok' } })).toBe(false);
    expect(heapAborted({ ...base, stderr: 'internal error: boom' })).toBe(false);
  });
});

describe('runAll', () => {
  it('runs at most `jobs` at a time and gives the results in item order, without the undefined ones', async () => {
    let running = 0;
    let most = 0;
    const results = await runAll([50, 10, 30, 5, 20], 2, async (ms, i) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, ms));
      running -= 1;
      return i === 3 ? undefined : `${i}:${ms}`;
    });
    expect(most).toBe(2);
    expect(results).toEqual(['0:50', '1:10', '2:30', '4:20']);
  });

  it('starts nothing once the signal has aborted', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const results = await runAll([1, 2, 3], 1, async (x) => {
      started.push(x);
      if (x === 1) controller.abort();
      return x;
    }, controller.signal);
    expect(started).toEqual([1]);
    expect(results).toEqual([1]);
  });
});
