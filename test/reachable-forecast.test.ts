// The reachable-state search's forecast (src/play/forecast.ts): the states waiting, and on a
// plateau of its layers (a layer within 5% of the one before) the rest of the layer and four more
// like it (lights27, docs/mutex.md). The figures are those of lightsOnParallel (1, 16, 256,
// 4,096, then 65,536 states a layer; never completes), nim4 (a last layer of 57,599 after
// 72,956; completes) and stateSpaceMedium (four times more a layer; completes). lights28: the
// plateau known from the layer before it, once that layer's successors have stopped coming.
import { describe, expect, it } from 'vitest';
import { type SearchProgress, outlasts, statesAhead } from '../src/play/forecast.js';

/** lightsOnParallel at the first look of its sixth layer: 69,905 states before it, 65,536 in it and in the one before. */
const lights: SearchProgress = { spent: 0.6, expanded: 69_905 + 240, found: 135_441 + 240, layerStart: 69_905, layerSize: 65_536, previousSize: 65_536, lastNew: 69_905 + 240 };

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
    const nim: SearchProgress = { spent: 1.5, expanded: 91_443 + 5_000, found: 149_042, layerStart: 91_443, layerSize: 57_599, previousSize: 72_956, lastNew: 91_443 };
    expect(statesAhead(nim)).toBe(149_042 - 96_443);
    expect(outlasts(nim, 3)).toBe(false);
    // stateSpaceMedium: 262,144 after 65,536.
    const fourfold: SearchProgress = { spent: 0.34, expanded: 87_381 + 100, found: 349_525, layerStart: 87_381, layerSize: 262_144, previousSize: 65_536, lastNew: 87_381 };
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
    expect(statesAhead({ spent: 0.1, expanded: 1, found: 17, layerStart: 0, layerSize: 1, previousSize: 0, lastNew: 1 })).toBe(16);
  });

  it('never counts fewer than the states waiting, and makes no forecast in the first 0.05 s', () => {
    // The next layer already larger than four of these: the states found count.
    const ahead: SearchProgress = { ...lights, found: lights.found + 400_000 };
    expect(statesAhead(ahead)).toBe(ahead.found - ahead.expanded);
    expect(outlasts({ ...lights, spent: 0.049 }, 0.05)).toBe(false);
    expect(outlasts({ ...lights, spent: 0.05 }, 0.05)).toBe(true);
  });

  /** lightsOnParallel 16,600 states into its fifth layer (65,536 after 4,096), all 65,536 of the sixth found by its 8,251st (settled from 16,502 on). */
  const fifth: SearchProgress = { spent: 0.277, expanded: 4_369 + 16_600, found: 135_441, layerStart: 4_369, layerSize: 65_536, previousSize: 4_096, lastNew: 4_369 + 8_251 };

  it('counts a plateau from the layer before it once the next layer is settled at its size', () => {
    // The rest of the fifth layer, the sixth, and three more of 65,536.
    expect(statesAhead(fifth)).toBe(65_536 - 16_600 + 65_536 + 3 * 65_536);
    // 311,080 states at 13.3 us each: 4.1 s more; the 114,472 waiting alone 1.5 s.
    expect(outlasts(fifth, 3)).toBe(true);
  });

  it('does not count it while the next layer still grows, or is not of the same size', () => {
    const waiting = fifth.found - fifth.expanded;
    // A new state found in the last half of the layer's expansions so far.
    expect(statesAhead({ ...fifth, lastNew: 4_369 + 8_400 })).toBe(waiting);
    expect(outlasts({ ...fifth, lastNew: 4_369 + 8_400 }, 3)).toBe(false);
    // Too few of the layer expanded: an eighth of it, and at least 1,024.
    expect(statesAhead({ ...fifth, expanded: 4_369 + 8_000, lastNew: 4_369 + 3_000 })).toBe(fifth.found - (4_369 + 8_000));
    // The next layer 6% larger or smaller than this one.
    expect(statesAhead({ ...fifth, found: 69_905 + Math.ceil(65_536 * 1.06) })).toBe(69_905 + Math.ceil(65_536 * 1.06) - fifth.expanded);
    expect(statesAhead({ ...fifth, found: 69_905 + Math.floor(65_536 * 0.94) })).toBe(69_905 + Math.floor(65_536 * 0.94) - fifth.expanded);
    // nim4's fourth layer (16,858 states) settled on 72,956 successors: growth, not a plateau.
    const nim: SearchProgress = { spent: 0.4, expanded: 1_629 + 12_000, found: 1_629 + 16_858 + 72_956, layerStart: 1_629, layerSize: 16_858, previousSize: 1_564, lastNew: 1_629 + 5_000 };
    expect(statesAhead(nim)).toBe(nim.found - nim.expanded);
  });
});
