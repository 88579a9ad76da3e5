// The main thread's backstop: a command thread that never checks its deadline (a long lazy round,
// one huge join) is stopped from outside, so that no run outlives --timeout by more than a second,
// counted from the start of the process; exit 3 with a message. Without --timeout nothing stops it.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { requestedTimeoutSeconds, runInThread } from '../src/cli/thread.js';
import { ROOT } from './support/cli.js';

const STALL = pathToFileURL(join(ROOT, 'test/fixtures/threads/stall.mjs'));

describe('the --timeout backstop of the command thread', () => {
  it('reads --timeout from the command line words', () => {
    expect(requestedTimeoutSeconds(['ground', 'g.kif', '--timeout', '2.5'])).toBe(2.5);
    expect(requestedTimeoutSeconds(['ground', '--timeout=7', 'g.kif'])).toBe(7);
    expect(requestedTimeoutSeconds(['ground', 'g.kif'])).toBeUndefined();
    expect(requestedTimeoutSeconds(['ground', 'g.kif', '--timeout', 'x'])).toBeUndefined();
    expect(requestedTimeoutSeconds(['ground', '--', '--timeout', '3'])).toBeUndefined();
  });

  it('stops a thread that never checks its deadline within a second of the limit, exit 3', async () => {
    let err = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
    // The limit counts from the process's start, as the run's own deadline does.
    const limit = performance.now() / 1000 + 1;
    const code = await runInThread(STALL, ['ground', 'x.kif', '--timeout', limit.toFixed(3), '--max-memory', '200'], () => {});
    spy.mockRestore();
    const over = performance.now() / 1000 - limit;
    expect(code).toBe(3);
    expect(err).toContain(`time limit of ${limit.toFixed(3)} s reached`);
    expect(over).toBeGreaterThan(0);
    expect(over).toBeLessThan(1); // 0.5 s by design, then at most 0.15 s for the thread to end
  });
});
