/**
 * The retry batch of the ground proof answers a claim from its last failing model when that model
 * satisfies every claim the retry assumes (src/mutex/prove-models.ts, docs/mutex.md snake30), and
 * asks the solver when it does not.
 */
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { proveClaims } from '../src/mutex/prove.js';
import type { MutexView } from '../src/mutex/view.js';
import { PROOF_LIMITS, syntheticFluent } from './support/mutex-budget.js';

describe("the ground proof's retry batch", () => {
  it('reads a failing model again only where it satisfies the claims assumed now', () => {
    // Fluents x, y, p, q (true atoms 0, 2, 4, 6; next atoms 1, 3, 5, 7): x and y become true from
    // any state, p from a state with x, q from one with y. Claim A, "at most one of p, q", fails
    // alone (a state with x and y); claim B, "at most one of x, y", always fails. A is asked first
    // (batch 0), then B; the retry assumes both: A's failing model (x and y true) violates B, so A
    // is asked, and holds while B is assumed; B's model (its cone has no current fluent) answers
    // B; then A, without B, is answered by its model.
    const fluents = [0, 1, 2, 3].map((i) => syntheticFluent(i, 2 * i, 2 * i + 1));
    const view: MutexView = {
      atoms: 8,
      rules: [{ head: 1, pos: [], neg: [] }, { head: 3, pos: [], neg: [] }, { head: 5, pos: [0], neg: [] }, { head: 7, pos: [2], neg: [] }],
      fluents, moves: [], terminal: -1, init: [], opaque: [],
    };
    const claims = [{ kind: 'amo' as const, batch: 0, members: [2, 3] }, { kind: 'amo' as const, batch: 1, members: [0, 1] }];
    const r = proveClaims(view, claims, { ...PROOF_LIMITS, deadline: Deadline.never() });
    expect(r.verdicts).toEqual(['not-inductive', 'not-inductive']);
    expect(r.complete).toBe(true);
    // One query per batch, and the retry's one query (A with B assumed); without the models, five.
    expect(r.queries).toBe(3);
  });
});
