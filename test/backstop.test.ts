// The main thread's backstop: a command thread that never checks its deadline (a long lazy round,
// one huge join) is stopped from outside, so that no run outlives --timeout by more than a second,
// counted from the start of the process; exit 3 with a message. Without --timeout nothing stops it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { requestedTimeoutSeconds, runInThread } from '../src/cli/thread.js';
import { CLI, ROOT, ensureBuilt } from './support/cli.js';
import { GAMES_DIR, HAVE_CORPUS } from './corpus.js';

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
    // The message prints the limit as a number: '--timeout 1.350' reads back as 1.35.
    expect(err).toContain(`time limit of ${Number(limit.toFixed(3))} s reached`);
    expect(over).toBeGreaterThan(0);
    expect(over).toBeLessThan(1); // 0.5 s by design, then at most 0.15 s for the thread to end
  });
});

// Issue 33: runs that end on the clock, measured from outside (the whole process, start-up
// included), with lazy rounds and without. amazonsTorus passed its limit by 1.5-2.9 s while a large
// round's facts were mirrored into the engine's tables without a look at the clock; urmAdd and
// mummymaze1p stop inside the plain superset run or the refined run after it (kept negations),
// depending on the limit (or, since the early estimate of src/reach/growth.ts, ground within it on
// an idle machine); amazons without lazy axioms (1.2 s past 10 s at a load of 15) and chess (its
// queen_threatens stopped early by its estimate, then made lazy) ended on the backstop.
describe.skipIf(!HAVE_CORPUS)('corpus games end within a second of --timeout, lazy rounds included', () => {
  const cases: [string, number, boolean][] = [
    ['amazonsTorus', 3, true], ['amazonsTorus', 6, true], ['urmAdd', 3, true], ['urmAdd', 6, true],
    ['mummymaze1p', 3, true], ['mummymaze1p', 6, true], ['amazons', 5, false], ['chess', 5, true],
  ];
  for (const [game, limit, lazy] of cases) {
    const flags = lazy ? ['--lazy-axioms'] : [];
    it(`${[game, ...flags].join(' ')} --timeout ${limit}`, () => {
      ensureBuilt();
      const file = join(GAMES_DIR, 'ggp-repository-base', `${game}.kif`);
      const start = performance.now();
      const r = spawnSync(process.execPath, [CLI, 'ground', file, ...flags, '--timeout', String(limit), '-o', '/dev/null'], { encoding: 'utf8' });
      const seconds = (performance.now() - start) / 1000;
      // mummymaze1p and urmAdd may also ground within their limit now (exit 0), on an idle machine.
      expect([0, 3], r.stderr).toContain(r.status);
      expect(seconds, r.stderr).toBeLessThan(limit + 1);
    }, 30_000);
  }
});
