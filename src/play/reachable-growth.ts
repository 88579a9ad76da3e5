/**
 * The reachable-state search's forecast from its growth (src/play/reachable.ts): a search whose
 * found states keep growing faster than it expands them is stopped as soon as it is bound to pass
 * its state cap and could not even reach that cap within its share of the budget, so that the
 * share it would waste goes to the proofs (docs/mutex.md, snake27). snake_2009_big has more
 * reachable states than the cap of 1,000,000; its search found about 1.35 new states per state
 * expanded from the first 40,000 expansions on, and took the whole share (1.7 processor seconds of
 * 2.1 at `--mutex-seconds 7`) to be stopped by the forecast of the states waiting alone.
 *
 * A forecast, not a proof: it decides only how long the search runs, never what the stage
 * claims. A stopped search's states are reachable ones and only refute (the stage samples then,
 * as for every incomplete search), so a wrong forecast can cost bits, never soundness.
 */

/**
 * States expanded before the growth is read: the first layers of a breadth-first search grow
 * unevenly (snake_2009: 1.31, 1.24, 1.20 then 1.24 new states per expansion over the doublings up
 * to 50,000 expansions, before the steady fall that ends its search at 630,423 states; a game of
 * two players alternates: blocks2player found 2.19, 0.70, then 1.30 new states per expansion over
 * the doublings from 18,000 to 146,000 expansions, and completes at 321,035 states).
 */
const MIN_EXPANDED = 131_072;

/**
 * New states per expansion, in each of the two halves read, below which the search is not
 * forecast to pass its cap: a search that finds about one new state per state it expands (a
 * chain: checkLines, 1.00 from 150,000 expansions on, completes at 481,657 states) may end at
 * any layer, and one whose frontier grows at 1.35 (snake_2009_big) is bound to pass it.
 */
const MIN_GROWTH = 1.2;

/**
 * The growth must forecast at least this many times the cap: a search forecast to end near its
 * cap may end under it (snake_2009's forecast total was at most about 0.9 million states).
 */
const CAP_FACTOR = 2;

/**
 * Expansions still to make before the frontier (`waiting`: states found, not yet expanded) is
 * empty, if the new states per expansion fall on from `now` by `fall` per expansion (the rate
 * they fell between the two halves measured): the frontier grows by `now - 1` per expansion, so
 * after x expansions by `(now - 1) x - fall x^2 / 2`. Infinity when the growth does not fall and
 * is at least one new state per expansion. Never less than `waiting`: an expansion takes one
 * state off the frontier.
 */
function drainIn(waiting: number, now: number, fall: number): number {
  if (fall > 0) return Math.max(waiting, (now - 1 + Math.sqrt((now - 1) ** 2 + 2 * fall * waiting)) / fall);
  return now < 1 ? waiting / (1 - now) : Infinity;
}

/**
 * Records the search's looks (processor seconds since it started, states expanded, states found)
 * and says at each whether the search is bound to end incomplete: its growth over the last two
 * halves of its expansions (the states found per state expanded between a quarter and a half of
 * them, and between a half and all) is at least {@link MIN_GROWTH} in both; carried on by
 * {@link drainIn}, it leaves states waiting past {@link CAP_FACTOR} times `maxStates`; and at the
 * growth and cost per expansion of the last half it would not even reach `maxStates` within
 * `seconds`. A search that reaches its cap within its
 * share is let run (stateSpaceMedium's tree grows fourfold to its last layer, 349,525 states, and
 * completes in 0.4 processor seconds).
 */
export function growthForecast(maxStates: number, seconds: number): (spent: number, expanded: number, found: number) => boolean {
  const spentAt: number[] = [];
  const expandedAt: number[] = [];
  const foundAt: number[] = [];
  // The last look with at most `n` states expanded (the looks are in order), or -1.
  const lastUpTo = (n: number): number => {
    let lo = 0;
    let hi = expandedAt.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (expandedAt[mid]! <= n) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi;
  };
  const bound = (spent: number, expanded: number, found: number): boolean => {
    if (expanded < MIN_EXPANDED) return false;
    const a = lastUpTo(expanded / 2);
    const b = a < 0 ? -1 : lastUpTo(expandedAt[a]! / 2);
    if (b < 0 || expandedAt[b]! >= expandedAt[a]!) return false;
    const now = (found - foundAt[a]!) / (expanded - expandedAt[a]!);
    const before = (foundAt[a]! - foundAt[b]!) / (expandedAt[a]! - expandedAt[b]!);
    if (now < MIN_GROWTH || before < MIN_GROWTH) return false;
    // Per expansion, between the middles of the two halves.
    const fall = (before - now) / ((expanded - expandedAt[b]!) / 2);
    if (expanded + drainIn(found - expanded, now, fall) <= CAP_FACTOR * maxStates) return false;
    const cost = (spent - spentAt[a]!) / (expanded - expandedAt[a]!);
    return spent + ((maxStates - found) / now) * cost > seconds;
  };
  return (spent, expanded, found) => {
    const hopeless = bound(spent, expanded, found);
    spentAt.push(spent);
    expandedAt.push(expanded);
    foundAt.push(found);
    return hopeless;
  };
}
