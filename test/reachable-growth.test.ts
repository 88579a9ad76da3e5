// The search's forecast from its growth (src/play/reachable-growth.ts) on searches made up of
// looks every 1,024 expansions: one that keeps finding 1.35 new states per expansion (as
// snake_2009_big's, whose reachable set is larger than the cap) is stopped once it has expanded
// enough to be read, unless it could reach its cap within its share; one whose growth falls
// (snake_2009's, which drains at about 630,000 states) and one that stops growing at its last
// layer are never stopped while they could finish.
import { describe, expect, it } from 'vitest';
import { growthForecast } from '../src/play/reachable-growth.js';

/** A made-up search: `rate(e)` new states found by the e-th expansion, `cost` seconds each. */
function firstStop(rate: (expanded: number) => number, cost: number, maxStates: number, seconds: number): { expanded: number; found: number } | undefined {
  const hopeless = growthForecast(maxStates, seconds);
  let found = 1;
  for (let e = 1; e <= found && found <= maxStates; e++) {
    found += rate(e);
    if (e % 1024 === 0 && hopeless(e * cost, e, Math.floor(found))) return { expanded: e, found: Math.floor(found) };
  }
  return undefined;
}

describe('the growth forecast of the reachable-state search', () => {
  it('stops a search that keeps growing and could not reach its cap within its share', () => {
    // 4.2 microseconds an expansion: the cap needs about 3 s, the share is 2.1.
    const stop = firstStop(() => 1.35, 4.2e-6, 1_000_000, 2.1);
    expect(stop).toBeDefined();
    // Not before 131,072 expansions are measured, and soon after.
    expect(stop!.expanded).toBeGreaterThanOrEqual(131_072);
    expect(stop!.expanded).toBeLessThan(135_000);
  });

  it('lets the same search run when it could reach its cap within its share', () => {
    expect(firstStop(() => 1.35, 1e-6, 1_000_000, 2.1)).toBeUndefined();
  });

  it('never stops a search whose growth falls until it drains', () => {
    // From 1.6 new states per expansion falling by 1.2 every 500,000 expansions: it drains at
    // 500,000 states, and could not reach the cap within its share (so only the fall lets it run).
    const rate = (e: number): number => 1.6 - (1.2 * e) / 500_000;
    expect(firstStop(rate, 4e-6, 1_000_000, 2.1)).toBeUndefined();
    // The made-up search does drain under the cap (else the test would say nothing).
    let found = 1;
    let e = 1;
    for (; e <= found; e++) found += Math.max(0, rate(e));
    expect(found).toBeLessThan(1_000_000);
    // Growing at 1.6 without the fall, it is stopped.
    expect(firstStop(() => 1.6, 4e-6, 1_000_000, 2.1)).toBeDefined();
  });

  it('never stops a search that finds about one new state per expansion', () => {
    expect(firstStop(() => 1.05, 4e-6, 1_000_000, 2.1)).toBeUndefined();
  });

  it('never stops a tree that grows steadily to its last layer while its share lasts', () => {
    // Two new states per expansion up to 300,000 states, none after (a last layer of terminals).
    let made = 1;
    const rate = (): number => (made < 300_000 ? ((made += 2), 2) : 0);
    expect(firstStop(rate, 2e-6, 1_000_000, 3)).toBeUndefined();
  });
});
