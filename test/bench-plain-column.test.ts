// The benchmark's method columns with prolog-plain (`npm run bench -- --plain`): headers and
// cells line up, a plain run stopped by a limit shows its status, and without --plain the
// columns are those of before.
import { describe, expect, it } from 'vitest';
import { type MethodColumns, methodCells, methodHeaders } from '../src/bench/dg-column.js';

const ok = (reach: number, total: number) => ({ status: 'ok' as const, reachSeconds: reach, totalSeconds: total, cpuSeconds: total });

describe('bench method columns', () => {
  it('without plain: the five columns of before', () => {
    expect(methodHeaders()).toEqual(['pl-total-s', 'dg-reach-s', 'dg-total-s', 'dg-before', 'same']);
    const m: MethodColumns = { prolog: ok(0.1, 0.2), dg: { ...ok(0.05, 0.3), before: 12 }, identical: true };
    expect(methodCells(m)).toEqual(['0.20', '0.05', '0.30', '12', 'yes']);
  });

  it('with plain: its reach and total seconds first, or its status', () => {
    expect(methodHeaders(true)).toEqual(['plain-reach-s', 'plain-total-s', 'pl-total-s', 'dg-reach-s', 'dg-total-s', 'dg-before', 'same']);
    const m: MethodColumns = { prolog: ok(0.1, 0.2), dg: { ...ok(0.05, 0.3), before: 12 }, plain: ok(1.5, 1.7), identical: true };
    expect(methodCells(m, true)).toEqual(['1.50', '1.70', '0.20', '0.05', '0.30', '12', 'yes']);
    const stopped: MethodColumns = { ...m, plain: { status: 'limit', reachSeconds: 30, totalSeconds: 30, cpuSeconds: 30, message: 'time' } };
    expect(methodCells(stopped, true).slice(0, 2)).toEqual(['limit', 'limit']);
    expect(methodCells(undefined, true)).toHaveLength(methodHeaders(true).length);
  });
});
