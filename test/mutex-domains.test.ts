// Values forced by the rows of bounds (src/mutex/lifted-domains.ts; docs/mutex.md "Values forced
// by the rows of bounds"): games/mutex-stock.kif, a miniature of FARMERS_S's stock, is proven
// lifted per crop; its twin games/mutex-stock-broken.kif, whose stock group is false, is refused.
import { describe, expect, it } from 'vitest';
import { provenLifted } from './support/lifted-proofs.js';

describe('values forced by the rows of bounds', () => {
  it('mutex-stock: the two stock rules agree where both fire (b = y), so one stock per crop', () => {
    expect(provenLifted('mutex-stock.kif')).toMatchObject({ 'stock/2 [0]': true });
  });

  it('mutex-stock-broken: both rules fire with different stocks when b > y, so it is not proven', () => {
    expect(provenLifted('mutex-stock-broken.kif')).toMatchObject({ 'stock/2 [0]': false });
  });
});
