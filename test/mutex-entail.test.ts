// Forbidden derived atoms in the lifted "at most one" proof (src/mutex/lifted-entail.ts,
// docs/mutex.md section 2a): games/mutex-affected.kif keeps a piece by (not (affected ?x)) and a
// move makes both its squares affected, so "one piece per square" is proven lifted; in its twin
// games/mutex-unaffected.kif only the square left is affected, a capture leaves two pieces on
// one square, and the group must not be proven. Every hypothesis is offered (no sampling).
import { describe, expect, it } from 'vitest';
import { provenLifted } from './support/lifted-proofs.js';

describe('forbidden derived atoms, lifted', () => {
  it('mutex-affected: a move affects the square it enters, so one piece per square is proven', () => {
    expect(provenLifted('mutex-affected.kif')).toMatchObject({ 'cell/2 [0]': true, 'cell/2 [1]': true });
  });

  it('mutex-unaffected: only the square left is affected, and one piece per square (false) is refused', () => {
    expect(provenLifted('mutex-unaffected.kif')).toMatchObject({ 'cell/2 [0]': false, 'cell/2 [1]': true });
  });
});
