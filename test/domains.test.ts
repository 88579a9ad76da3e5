// Join sizes by containment in the clause planner (src/reach/domains.ts): a literal whose bound
// variable has fewer distinct values in its table than where the variable was bound answers for
// that share of the bindings only. kalaha_2009's sowing rule after elimination (the shape of
// games/eliminate-local.kif): with a pit's fact new, the store pits' relation goes before plus.
import { describe, expect, it } from 'vitest';
import { shapeOf } from './support/shapes.js';
import { clauseText } from '../src/reach/clauses.js';
import { planVariant } from '../src/reach/plan.js';
import type { RowEstimate } from '../src/reach/planned.js';

const SOW = '(<= (next (pit ?p ?n2)) (true (pit ?p ?n)) (plus ?n ?n1 ?n2) (l5 ?n1 ?p))';

/** Rows over per-argument distinct values (independence), from `stats`: relation -> [rows, distinct per argument]. */
function estimateFrom(stats: Record<string, [number, number[]]>): RowEstimate {
  return (relKey, _table, bound) => {
    const [rows, distinct] = stats[relKey]!;
    return bound.reduce((n, b, i) => (b ? n / distinct[i]! : n), rows);
  };
}

/** The delta variant of the pit literal, planned with `pits` distinct pits among the pit facts. */
function sowingPlan(pits: number): string {
  const estimate = estimateFrom({ 'true/1': [2400, [pits, 200]], 'plus/3': [20301, [201, 201, 201]], 'l5/2': [400, [200, 2]] });
  return clauseText(planVariant(0, shapeOf(SOW, 'next'), { deltaAt: 0 }, { order: estimate, cost: estimate }));
}

describe('containment in the join order', () => {
  it('reads the relation of two store pits before plus when the new pit fact ranges over twelve pits', () => {
    // l5 with ?p bound: 400 / 2 = 200 rows per store pit, but only 2 of 12 pits are one: 33 rows
    // per binding, against plus's 20301 / 201 = 101 with ?n bound. Without containment, plus first.
    const text = sowingPlan(12);
    expect(text.indexOf("'F|l5/2'"), text).toBeGreaterThan(0);
    expect(text.indexOf("'F|l5/2'"), text).toBeLessThan(text.indexOf("'F|plus/3'"));
  });

  it('narrows nothing when the bound variable ranges over no more values than the table holds', () => {
    // Only the two store pits in the pit facts: l5 gives 200 rows per binding, plus 101: plus first.
    const text = sowingPlan(2);
    expect(text.indexOf("'F|plus/3'"), text).toBeLessThan(text.indexOf("'F|l5/2'"));
  });
});
