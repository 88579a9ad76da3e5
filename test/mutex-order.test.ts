// Order facts between a counter and a record (src/mutex/lifted-order.ts, docs/mutex.md 2k):
// games/mutex-order.kif, a miniature of urmAdd, proves "one value per slot" lifted only with
// "(pos a) and (slot b ?v) true together: b before a"; games/mutex-order-rewind.kif, where the
// counter may go back to line 1, must prove neither (both false there). The candidates are made
// from a hand-made state, as if sampling had missed the rewind, so the proof itself is tested.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { hypotheses } from '../src/mutex/candidates.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { orderCandidates } from '../src/mutex/lifted-order.js';
import { mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** The order candidates of a game and whether `slot [0]` (one value per slot) is proven lifted, with or without them. */
function slots(game: string, withOrders: boolean): { candidates: string[]; proven: boolean } {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { loaded, ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const at = (t: string): number => view.fluents.findIndex((f) => f.text === t);
  // A state at line 3 with lines 1 and 2 written: it shows the fact and violates nothing.
  const orders = orderCandidates(view, loaded.normal, [[at('(pos 3)'), at('(slot 1 x)'), at('(slot 2 y)')]], () => false);
  const i = hyps.findIndex((h) => `${h.relation} [${h.input.join(',')}]` === 'slot/2 [0]');
  expect(i).toBeGreaterThanOrEqual(0);
  const r = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6, orders: withOrders ? orders : [] });
  return { candidates: orders.map((o) => `${o.counter} ${o.record} ${o.position}`), proven: r.proven[i]! };
}

describe('order facts between a counter and a record', () => {
  it('mutex-order: no slot at or past the counter is written, so one value per slot is proven lifted', () => {
    const r = slots('mutex-order.kif', true);
    expect(r.candidates).toContain('pos/1 slot/2 0');
    expect(r.proven).toBe(true);
  });

  it('mutex-order: without the order fact the same slots are not proven lifted', () => {
    expect(slots('mutex-order.kif', false).proven).toBe(false);
  });

  it('mutex-order-rewind: the counter goes back, and neither the order nor the slots are proven', () => {
    const r = slots('mutex-order-rewind.kif', true);
    expect(r.candidates).toContain('pos/1 slot/2 0');
    expect(r.proven).toBe(false);
  });
});
