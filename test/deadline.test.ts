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
});
