import { describe, expect, it } from 'vitest';
import { controlReadersPay, controlWorkPays } from '../src/play/fast/turns.js';
import type { Net } from '../src/play/fast/net.js';

/** A net of four true atoms (fluents 0..3) with the given readers each: all turns.ts reads of it. */
function netOf(readers: readonly number[]): Net {
  const readStart = new Int32Array(readers.length + 1);
  readers.forEach((n, a) => (readStart[a + 1] = readStart[a]! + n));
  return { atoms: readers.length, readStart, readers: new Int32Array(readStart[readers.length]!) } as unknown as Net;
}

describe('per-turn nets by the control fluents\' work per step (turns.ts)', () => {
  // Control fluents 0 and 1: 2 of 40 readers (5 %), but they change at every step, the others rarely.
  const net = netOf([1, 1, 19, 19]);
  const trueAtom = Int32Array.from([0, 1, 2, 3]);
  const control = [0, 1];

  it('takes them when the control readers are few but do most updates', () => {
    expect(controlReadersPay(net, control, trueAtom)).toBe(false);
    expect(controlWorkPays(net, control, trueAtom, Float64Array.from([1, 1, 0.01, 0.01]))).toBe(true);
  });

  it('does not when the other fluents change as often', () => {
    expect(controlWorkPays(net, control, trueAtom, Float64Array.from([1, 1, 1, 1]))).toBe(false);
    expect(controlWorkPays(net, control, trueAtom, Float64Array.from([0, 0, 0, 0]))).toBe(false);
  });
});
