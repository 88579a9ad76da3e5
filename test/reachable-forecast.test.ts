// The reachable-state search's forecast (src/play/forecast.ts): the states waiting, and on a
// plateau of its layers (a layer within 5% of the one before) the rest of the layer and four more
// like it (lights27, docs/mutex.md). The figures are those of lightsOnParallel (1, 16, 256,
// 4,096, then 65,536 states a layer; never completes), nim4 (a last layer of 57,599 after
// 72,956; completes) and stateSpaceMedium (four times more a layer; completes). lights28: the
// plateau known from the layer before it, once that layer's successors have stopped coming.
// nim30: a layer whose expansions seldom insert a new state, and whose next layer is smaller so
// far, is costed at its expansions that found only old ones (nim4 at the look of its largest
// forecast, in a trace under load).
import { describe, expect, it } from 'vitest';
import { type ExpansionKinds, type SearchProgress, costPerExpansion, kindsRecorder, outlasts, statesAhead } from '../src/play/forecast.js';

/** No expansion measured by kind: the forecast counts the average cost per expansion so far. */
const none: ExpansionKinds = { expanded: 0, inserting: 0, oldSeconds: 0, oldExpanded: 0 };

/** lightsOnParallel at the first look of its sixth layer: 69,905 states before it, 65,536 in it and in the one before. */
const lights: SearchProgress = { spent: 0.6, expanded: 69_905 + 240, found: 135_441 + 240, layerStart: 69_905, layerSize: 65_536, previousSize: 65_536, lastNew: 69_905 + 240, layerKinds: none };

describe('the forecast of the reachable-state search', () => {
  it('counts, on a plateau, the rest of the layer and four more layers of its size', () => {
    expect(statesAhead(lights)).toBe(65_536 - 240 + 4 * 65_536);
    // 327,440 states at 0.6 / 70,145 s each: 2.8 s more, past a share of 3 s; the waiting ones alone take 0.56 s.
    expect(outlasts(lights, 3)).toBe(true);
    expect(outlasts(lights, 3.5)).toBe(false);
  });

  it('counts only the states waiting when the layer grew or shrank by more than 5%', () => {
    // The fifth layer of lightsOnParallel (65,536 after 4,096): growth is not extrapolated.
    const growth: SearchProgress = { ...lights, expanded: 4_369 + 1_000, found: 69_905 + 16_000, layerStart: 4_369, previousSize: 4_096 };
    expect(statesAhead(growth)).toBe(69_905 + 16_000 - (4_369 + 1_000));
    // nim4's last layer, 57,599 after 72,956: complete, and its forecast the states waiting.
    const nim: SearchProgress = { spent: 1.5, expanded: 91_443 + 5_000, found: 149_042, layerStart: 91_443, layerSize: 57_599, previousSize: 72_956, lastNew: 91_443, layerKinds: none };
    expect(statesAhead(nim)).toBe(149_042 - 96_443);
    expect(outlasts(nim, 3)).toBe(false);
    // stateSpaceMedium: 262,144 after 65,536.
    const fourfold: SearchProgress = { spent: 0.34, expanded: 87_381 + 100, found: 349_525, layerStart: 87_381, layerSize: 262_144, previousSize: 65_536, lastNew: 87_381, layerKinds: none };
    expect(statesAhead(fourfold)).toBe(349_525 - 87_481);
  });

  it('takes 5% either way as a plateau, and no more', () => {
    const at = (previousSize: number): number => statesAhead({ ...lights, previousSize });
    const plateau = 65_536 - 240 + 4 * 65_536;
    const waiting = lights.found - lights.expanded;
    expect(at(Math.ceil(65_536 / 1.05))).toBe(plateau);
    expect(at(Math.floor(65_536 / 0.95))).toBe(plateau);
    expect(at(Math.floor(65_536 / 1.06))).toBe(waiting);
    expect(at(Math.ceil(65_536 / 0.94))).toBe(waiting);
    // The first layer has none before it.
    expect(statesAhead({ spent: 0.1, expanded: 1, found: 17, layerStart: 0, layerSize: 1, previousSize: 0, lastNew: 1, layerKinds: none })).toBe(16);
  });

  it('never counts fewer than the states waiting, and makes no forecast in the first 0.05 s', () => {
    // The next layer already larger than four of these: the states found count.
    const ahead: SearchProgress = { ...lights, found: lights.found + 400_000 };
    expect(statesAhead(ahead)).toBe(ahead.found - ahead.expanded);
    expect(outlasts({ ...lights, spent: 0.049 }, 0.05)).toBe(false);
    expect(outlasts({ ...lights, spent: 0.05 }, 0.05)).toBe(true);
  });

  /** lightsOnParallel 16,600 states into its fifth layer (65,536 after 4,096), all 65,536 of the sixth found by its 8,251st (settled from 16,502 on). */
  const fifth: SearchProgress = { spent: 0.277, expanded: 4_369 + 16_600, found: 135_441, layerStart: 4_369, layerSize: 65_536, previousSize: 4_096, lastNew: 4_369 + 8_251, layerKinds: none };

  it('counts a plateau from the layer before it once the next layer is settled at its size', () => {
    // The rest of the fifth layer, the sixth, and three more of 65,536.
    expect(statesAhead(fifth)).toBe(65_536 - 16_600 + 65_536 + 3 * 65_536);
    // 311,080 states at 13.3 us each: 4.1 s more; the 114,472 waiting alone 1.5 s.
    expect(outlasts(fifth, 3)).toBe(true);
  });

  it('does not count it while the next layer still grows, or is not of the same size', () => {
    const waiting = fifth.found - fifth.expanded;
    // A new state found in the last half of the layer's expansions so far.
    expect(statesAhead({ ...fifth, lastNew: 4_369 + 8_400, layerKinds: none })).toBe(waiting);
    expect(outlasts({ ...fifth, lastNew: 4_369 + 8_400, layerKinds: none }, 3)).toBe(false);
    // Too few of the layer expanded: an eighth of it, and at least 1,024.
    expect(statesAhead({ ...fifth, expanded: 4_369 + 8_000, lastNew: 4_369 + 3_000, layerKinds: none })).toBe(fifth.found - (4_369 + 8_000));
    // The next layer 6% larger or smaller than this one.
    expect(statesAhead({ ...fifth, found: 69_905 + Math.ceil(65_536 * 1.06) })).toBe(69_905 + Math.ceil(65_536 * 1.06) - fifth.expanded);
    expect(statesAhead({ ...fifth, found: 69_905 + Math.floor(65_536 * 0.94) })).toBe(69_905 + Math.floor(65_536 * 0.94) - fifth.expanded);
    // nim4's fourth layer (16,858 states) settled on 72,956 successors: growth, not a plateau.
    const nim: SearchProgress = { spent: 0.4, expanded: 1_629 + 12_000, found: 1_629 + 16_858 + 72_956, layerStart: 1_629, layerSize: 16_858, previousSize: 1_564, lastNew: 1_629 + 5_000, layerKinds: none };
    expect(statesAhead(nim)).toBe(nim.found - nim.expanded);
  });
});

/**
 * nim4 under load (docs/mutex.md, nim30: a92a9a8's search traced at load 18) at the look after its
 * last new state: 26,153 of its fourth layer's 72,956 states expanded, 4,991 of them inserting,
 * the looks with no insert between them 0.274 s for 16,318 expansions (16.8 us each, against 21.2
 * on average: the runtime's warming up and the growing layers). The search completed at 2.62 s.
 */
const nim4: SearchProgress = {
  spent: 0.946,
  expanded: 44_640,
  found: 149_042,
  layerStart: 18_487,
  layerSize: 72_956,
  previousSize: 16_858,
  lastNew: 44_458,
  layerKinds: { expanded: 26_153, inserting: 4_991, oldSeconds: 0.274, oldExpanded: 16_318 },
};

describe('the cost per expansion by kind (nim30)', () => {
  it('costs the states ahead of a layer that seldom inserts at its expansions that found only old states', () => {
    expect(costPerExpansion(nim4)).toBeCloseTo(0.274 / 16_318, 12);
    // 104,402 states ahead: 0.946 + 1.75 = 2.70 s, within nim4's share of 3.04 s; at the average, 3.16 s.
    expect(outlasts(nim4, 3.04)).toBe(false);
    expect(outlasts({ ...nim4, layerKinds: none }, 3.04)).toBe(true);
  });

  it('keeps the average when 30% or more of the layer inserted, or too few expansions were measured', () => {
    const average = nim4.spent / nim4.expanded;
    expect(costPerExpansion({ ...nim4, layerKinds: { ...nim4.layerKinds, inserting: 7_846 } })).toBe(average);
    expect(costPerExpansion({ ...nim4, layerKinds: { ...nim4.layerKinds, inserting: 7_845 } })).toBeLessThan(average);
    expect(outlasts({ ...nim4, layerKinds: { ...nim4.layerKinds, inserting: 7_846 } }, 3.04)).toBe(true);
    expect(costPerExpansion({ ...nim4, layerKinds: { ...nim4.layerKinds, oldExpanded: 1_023 } })).toBe(average);
    // Never above the average.
    expect(costPerExpansion({ ...nim4, layerKinds: { ...nim4.layerKinds, oldSeconds: 0.4 } })).toBe(average);
  });

  it('keeps the average once the next layer found so far is as large as the layer under expansion', () => {
    // racetrackcorridor's shape: a tenth of the expansions insert, but the layers grow.
    const average = nim4.spent / nim4.expanded;
    expect(costPerExpansion({ ...nim4, found: 91_443 + 72_956 })).toBe(average);
    expect(costPerExpansion({ ...nim4, found: 91_443 + 72_955 })).toBeLessThan(average);
  });

  it('reads a layer too young to be measured by the kinds of the layer before', () => {
    // nim4's fifth layer (57,599 states) 500 expansions in: its fourth layer's kinds count.
    const fifth: SearchProgress = { ...nim4, spent: 1.8, expanded: 91_443 + 500, layerStart: 91_443, layerSize: 57_599, previousSize: 72_956, layerKinds: { expanded: 500, inserting: 0, oldSeconds: 0.007, oldExpanded: 400 } };
    const fourth: ExpansionKinds = { expanded: 72_956, inserting: 4_960, oldSeconds: 1.0, oldExpanded: 60_000 };
    expect(costPerExpansion({ ...fifth, previousKinds: fourth })).toBeCloseTo(1 / 60_000, 12);
    expect(costPerExpansion(fifth)).toBe(1.8 / 91_943);
  });

  it('counts the time between two looks of a layer as old expansions only when none inserted between them', () => {
    const kinds = kindsRecorder();
    expect(kinds.look(0.1, 100, 10)).toEqual({ expanded: 100, inserting: 10, oldSeconds: 0, oldExpanded: 0 });
    expect(kinds.look(0.2, 150, 12).oldExpanded).toBe(0);
    const quiet = kinds.look(0.25, 190, 12);
    expect(quiet.oldExpanded).toBe(40);
    expect(quiet.oldSeconds).toBeCloseTo(0.05, 12);
    expect(kinds.close(200, 12)).toEqual({ expanded: 200, inserting: 12, oldSeconds: quiet.oldSeconds, oldExpanded: 40 });
    // The next layer starts its count at its first look.
    expect(kinds.look(0.3, 10, 0).oldExpanded).toBe(0);
    expect(kinds.look(0.31, 20, 0).oldExpanded).toBe(10);
  });
});
