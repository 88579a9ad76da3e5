// What it tests: the run's one budget reports which limit (time or memory) was reached, and keeps it.
import { describe, expect, it } from 'vitest';
import { Deadline, TICKS_PER_CLOCK_READ } from '../src/deadline.js';

describe('Deadline', () => {
  it('never reaches a limit when it has none', () => {
    const d = Deadline.never();
    for (let i = 0; i < 2 * TICKS_PER_CLOCK_READ; i++) expect(d.tick()).toBe(false);
    expect(d.exceeded()).toBeUndefined();
  });
  it('reports a passed instant as the time limit', () => {
    const d = new Deadline(Date.now() - 1);
    expect(d.passed()).toBe(true);
    expect(d.exceeded()).toBe('time');
    expect(d.describe()).toBe('time limit reached');
  });
  it('reports a heap over its limit as the memory limit, in MB', () => {
    const d = new Deadline(Infinity, 1024 * 1024);
    expect(d.exceeded()).toBe('memory');
    expect(d.describe()).toBe('memory limit of 1 MB reached');
  });
  it('reads the limits only once per TICKS_PER_CLOCK_READ ticks', () => {
    const d = new Deadline(Date.now() - 1);
    let first = -1;
    for (let i = 1; i <= TICKS_PER_CLOCK_READ && first < 0; i++) if (d.tick()) first = i;
    expect(first).toBe(TICKS_PER_CLOCK_READ);
  });
  it('within: a stage budget in processor time, never past the run deadline, the parent unaffected', () => {
    const run = Deadline.never();
    const budget = run.within(0.05);
    expect(budget.passed()).toBe(false);
    // Burn processor time past the budget: the budget passes, the run's deadline does not.
    const end = Date.now() + 2000;
    let x = 0;
    while (!budget.passed() && Date.now() < end) for (let i = 0; i < 100_000; i++) x += i;
    expect(x).toBeGreaterThan(0);
    expect(budget.passed()).toBe(true);
    expect(run.passed()).toBe(false);
    expect(Deadline.never().within(Infinity).cpuAt).toBe(Infinity);
    // The run's own instant and heap limit are kept.
    const past = new Deadline(Date.now() - 1, 1e12).within(100);
    expect(past.passed()).toBe(true);
    expect(past.maxHeapBytes).toBe(1e12);
  });
  it('says the seconds a budget leaves: processor time, the nearer wall instant, Infinity for none', () => {
    expect(Deadline.never().processorSecondsLeft()).toBe(Infinity);
    expect(Deadline.never().secondsLeft()).toBe(Infinity);
    const budget = Deadline.never().within(100);
    expect(budget.processorSecondsLeft()).toBeGreaterThan(99);
    expect(budget.processorSecondsLeft()).toBeLessThanOrEqual(100);
    // A wall instant nearer than the processor budget is what is left; a processor budget counts no wall time.
    const near = Deadline.in(5).within(100);
    expect(near.secondsLeft()).toBeLessThanOrEqual(5);
    expect(near.processorSecondsLeft()).toBeGreaterThan(99);
    // Passed: negative, and a share of the rest is an empty budget, not a negative one.
    const spent = new Deadline(Infinity, Infinity, undefined, 0);
    expect(spent.processorSecondsLeft()).toBeLessThan(0);
    expect(spent.shareOfRest(0.5).passed()).toBe(true);
    expect(budget.shareOfRest(0.5).processorSecondsLeft()).toBeLessThanOrEqual(50);
  });
});

describe('reading and validating a large game look at the deadline', () => {
  // A ground game written by `ground` can have hundreds of thousands of sentences (chess with
  // lazy axioms: 80 MB); parsing and validating it took longer than a --timeout of 30 s.
  const big = Array.from({ length: 3 * TICKS_PER_CLOCK_READ }, (_, i) => `(<= (p c${i}) (q c${i}))`).join('\n');

  it('stops parsing with a limit error once the deadline has passed', async () => {
    const { parseGdl } = await import('../src/gdl/parser.js');
    const { GdlError } = await import('../src/gdl/diagnostics.js');
    expect(parseGdl(big, 'big.kif', Deadline.never()).game.rules.length).toBe(3 * TICKS_PER_CLOCK_READ);
    let caught: unknown;
    try {
      parseGdl(big, 'big.kif', new Deadline(Date.now() - 1));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(GdlError);
    expect((caught as InstanceType<typeof GdlError>).code).toBe('limit');
    expect((caught as Error).message).toMatch(/reading the game: time limit reached/);
  });

  it('stops validating with a limit error once the deadline has passed', async () => {
    const { parseGdl } = await import('../src/gdl/parser.js');
    const { validateGame } = await import('../src/normalize/validate.js');
    const game = parseGdl(big, 'big.kif', Deadline.never()).game;
    expect(() => validateGame(game, undefined, true, new Deadline(Date.now() - 1))).toThrow(/validating the game: time limit reached/);
    // Without a deadline it runs through (the game lacks roles and the rest: only those errors).
    expect(validateGame(game, undefined, undefined, Deadline.never()).diagnostics.length).toBeGreaterThan(0);
  });
});
