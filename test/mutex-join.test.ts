// The join of relaxed rules that builds the bounds of derived relations (src/mutex/lifted-join.ts,
// docs/mutex.md 2a "Bounds of derived relations"): a rule shaped like hex's `transfer ?k`, whose
// head variable its second atom binds and whose other atoms only say that some move and cell
// exist for it. Looking the head row up once it is bound (`known`) must give the same rows, in
// the same order, in far fewer steps; a rule binding its head at its last atom never looks. An
// atom with two bound positions reads the bucket of both (the same rows, charged as the scan of
// the smaller one-position bucket was, so that which bounds complete stays as it was). The steps of
// the first two atoms are counted before the join (firstLevelsSteps): never more than it takes,
// so a budget below the count is one the join runs out of.
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { NO_POS, type Term, mkConst } from '../src/gdl/ast.js';
import { type Relaxed, type Table, firstLevelsSteps, headBoundAt, joinRule, rowText, tableOf } from '../src/mutex/lifted-join.js';

const v = (name: string): Term => ({ kind: 'var', name, pos: NO_POS });
const c = (name: string | number): Term => mkConst(String(name));
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** The tables: 2 roles, 20 steps each owned by one role, 20 cells, each step connected to every cell, each cell adjacent to the next. */
function tables(): Map<string, Table> {
  const roles = ['red', 'blue'];
  return new Map([
    ['legal/2', tableOf(roles.flatMap((r) => range(20).map((x) => [c(r), c(x)])), 2)],
    ['owner/2', tableOf(range(20).map((k) => [c(k), c(roles[k % 2]!)]), 2)],
    ['connected/2', tableOf(range(20).flatMap((k) => range(20).map((m) => [c(k), c(m)])), 2)],
    ['adjacent/2', tableOf(range(19).flatMap((x) => [[c(x), c(x + 1)], [c(x + 1), c(x)]]), 2)],
  ]);
}

/** `transfer(?k) <= legal(?role, ?x), owner(?k, ?role), connected(?k, ?m), adjacent(?x, ?m)`. */
const TRANSFER: Relaxed = {
  head: [v('?k')],
  atoms: [
    { rel: 'legal/2', args: [v('?role'), v('?x')] },
    { rel: 'owner/2', args: [v('?k'), v('?role')] },
    { rel: 'connected/2', args: [v('?k'), v('?m')] },
    { rel: 'adjacent/2', args: [v('?x'), v('?m')] },
  ],
  distinct: [],
};

/** The rows the join emits (texts, in order, duplicates kept) and the steps it took. */
function run(r: Relaxed, lookUp: boolean): { rows: string[]; steps: number } {
  const rows: string[] = [];
  const budget = { steps: 10_000_000, deadline: Deadline.never() };
  const found = new Set<string>();
  const emit = (row: readonly Term[]): void => {
    found.add(rowText(row));
    rows.push(rowText(row));
  };
  expect(joinRule(r, tables(), undefined, -1, emit, budget, lookUp ? (text) => found.has(text) : undefined)).toBe(true);
  return { rows, steps: 10_000_000 - budget.steps };
}

describe('the join of a relaxed rule', () => {
  it('looks its head row up after the atom that binds its last head variable', () => {
    expect(headBoundAt(TRANSFER)).toBe(1);
    expect(headBoundAt({ ...TRANSFER, head: [c('a')] })).toBe(0);
    expect(headBoundAt({ ...TRANSFER, head: [v('?m')] })).toBe(2);
  });

  it('a known head row is not searched again: the same new rows in the same order, in fewer steps', () => {
    const plain = run(TRANSFER, false);
    const looked = run(TRANSFER, true);
    const firsts = (rows: string[]): string[] => [...new Set(rows)];
    expect(firsts(looked.rows)).toEqual(firsts(plain.rows));
    expect(new Set(looked.rows)).toEqual(new Set(range(20).map(String)));
    // Every row once, where the plain join finds each of the 20 once per legal move of its owner and adjacent cell.
    expect(looked.rows).toHaveLength(20);
    expect(plain.rows.length).toBeGreaterThan(20 * 20);
    expect(looked.steps * 10).toBeLessThan(plain.steps);
  });

  it('a row that fails the distinct is not taken as found: a later binding still gives it', () => {
    // transfer(?k) as above, but the move's cell ?x must differ from 0: the first legal move (cell 0) fails at the end.
    const r: Relaxed = { ...TRANSFER, distinct: [[v('?x'), c(0)]] };
    expect(new Set(run(r, true).rows)).toEqual(new Set(run(r, false).rows));
  });

  it('two bound positions: the rows of both, in order, charged as the scan of one position', () => {
    const five = range(5);
    const t = new Map([
      ['a/1', tableOf(five.map((x) => [c(x)]), 1)],
      ['b/3', tableOf(five.flatMap((x) => five.map((y) => [c(x), c(y), c((x + y) % 5)])), 3)],
    ]);
    const r: Relaxed = { head: [v('?x'), v('?z')], atoms: [{ rel: 'a/1', args: [v('?x')] }, { rel: 'a/1', args: [v('?y')] }, { rel: 'b/3', args: [v('?x'), v('?y'), v('?z')] }], distinct: [] };
    const rows: string[] = [];
    const budget = { steps: 1000, deadline: Deadline.never() };
    expect(joinRule(r, t, undefined, -1, (row) => void rows.push(rowText(row)), budget)).toBe(true);
    expect(rows).toEqual(five.flatMap((x) => five.map((y) => `${x} ${(x + y) % 5}`)));
    // 5 rows of a, 5 of a per x, and per (x, y) the 5 rows of b with that x (the one with that y among them).
    expect(1000 - budget.steps).toBe(5 + 25 + 125);
    // A budget of one step less runs out, as the scan did.
    expect(joinRule(r, t, undefined, -1, () => undefined, { steps: 5 + 25 + 125 - 1, deadline: Deadline.never() })).toBe(false);
  });

  it('the first two atoms\' steps, counted without joining, are the join\'s least: a budget below them runs out', () => {
    // 40 legal moves, and per move the 10 steps of its role (owner/2 by its second position).
    const floor = firstLevelsSteps(TRANSFER, tables(), Infinity);
    expect(floor).toBe(40 + 40 * 10);
    expect(run(TRANSFER, true).steps).toBeGreaterThanOrEqual(floor);
    for (const lookUp of [false, true]) {
      const found = new Set<string>();
      const short = { steps: floor - 1, deadline: Deadline.never() };
      expect(joinRule(TRANSFER, tables(), undefined, -1, (row) => void found.add(rowText(row)), short, lookUp ? (text) => found.has(text) : undefined)).toBe(false);
    }
    // Counting stops once past `atMost`: enough to know a budget is spent.
    expect(firstLevelsSteps(TRANSFER, tables(), 100)).toBeLessThan(floor);
    expect(firstLevelsSteps(TRANSFER, tables(), 100)).toBeGreaterThan(100);
  });

  it('a head the first atom binds may be looked up there: only the first atom\'s scan is counted', () => {
    const r: Relaxed = { ...TRANSFER, head: [v('?role')] };
    expect(headBoundAt(r)).toBe(0);
    expect(firstLevelsSteps(r, tables(), Infinity)).toBe(40);
  });
});
