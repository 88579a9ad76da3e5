// Join plans of the semi-naive variants: goal order, once around existential runs, and the
// core-first plan of a delta literal that only tests existence. Plans change speed, never
// answers, so each case also checks the supersets against the expected least model.
import { TEST_REACH_LIMITS } from './support/context.js';
import { describe, expect, it } from 'vitest';
import { game, shapeOf } from './support/shapes.js';
import { clauseText, tablesRead } from '../src/reach/clauses.js';
import { coreFirstApplies, planDistinctHeads, planVariant, ruleShape } from '../src/reach/plan.js';
import { planRelaxedGame } from '../src/reach/relaxed.js';
import { formatSupersets } from '../src/reach/format.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';



const NIM = `
  (role a) (role b)
  (init (heap x 3)) (init (heap y 2)) (init (control a))
  (succ 0 1) (succ 1 2) (succ 2 3)
  (<= (legal ?p (reduce ?h ?n)) (true (control ?p)) (true (heap ?h ?m)) (succ ?n ?m))
  (<= (next (heap ?h ?n)) (does ?p (reduce ?h ?n)))
  (<= (next (heap ?x ?n)) (true (heap ?x ?n)) (does ?p (reduce ?y ?m)) (distinct ?x ?y))
  (<= (next (control a)) (true (control b)))
  (<= (next (control b)) (true (control a)))
  (<= (movable ?h) (true (heap ?h ?n)) (succ ?m ?n))
`;

describe('planVariant', () => {
  it('wraps a run of literals that binds only variables used nowhere later in once', () => {
    const shape = shapeOf('(<= (h ?x) (p ?x) (q ?x ?y) (r ?y ?z) (distinct ?z 1))', 'h');
    expect(clauseText(planVariant(0, shape, { deltaAt: null }))).toBe(
      "'$v0'(V0) :- 'F|p/1'(V0), once(('F|q/2'(V0,V1), 'F|r/2'(V1,V2), \\==(V2,'1'))).",
    );
  });

  it('puts the delta literal first, or last under once when it shares no variable', () => {
    const shape = shapeOf('(<= (h ?x) (p ?x) (q ?y))', 'h');
    // In a delta variant, a head instance known already skips the existence test.
    expect(clauseText(planVariant(0, shape, { deltaAt: 0 }))).toBe("'$v0'(V1) :- 'D|p/1'(V1), '$gdl_absent'('F|h/1'(V1)), once(('F|q/1'(_))).");
    expect(clauseText(planVariant(0, shape, { deltaAt: 1 }))).toBe("'$v0'(V1) :- 'F|p/1'(V1), '$gdl_absent'('F|h/1'(V1)), once(('D|q/1'(_))).");
  });

  it('plans core first when the delta literal only tests existence', () => {
    const shape = shapeOf(NIM, 'next');
    const rule = planRelaxedGame(game(NIM)).components.flatMap((c) => c.rules).filter((r) => r.head.rel === 'next')[1]!;
    const heap = ruleShape(rule);
    expect(coreFirstApplies(heap, 1)).toBe(true);
    expect(clauseText(planVariant(0, heap, { deltaAt: 1, coreFirst: true }))).toBe(
      "'$v0'('heap'(V2,V3)) :- 'F|true/1:heap/2'(V2,V3), '$gdl_absent'('F|next/1:heap/2'(V2,V3)), once(('D|does/2:reduce/2'(_,V4,_), \\==(V2,V4))).",
    );
    // The only literal of the first next rule binds the head: there is no core.
    expect(coreFirstApplies(shape, 0)).toBe(false);
  });

  it('counts a bound variable repeated as a whole argument once when ordering (reach15)', () => {
    // m: 500 facts, 10 values per argument; pp: 9 facts, 9 values per argument. With ?a and ?y
    // bound, (m ?a ?x1 ?y ?y) yields about 500 / 10² = 5 rows (?y's repeat is the same value, not a
    // tenth more), more than the one row of (pp ?x1 ?x2) with ?x2 bound: pp goes first. Counted
    // twice, m looked like half a row and went first, enumerating every ?x1.
    const shape = shapeOf('(<= (h ?a ?x1 ?y) (m ?a ?x1 ?y ?y) (pp ?x1 ?x2) (p ?a ?x2 ?y))', 'h');
    const sizes: Record<string, [number, number]> = { 'm/4': [500, 10], 'pp/2': [9, 9], 'p/3': [100, 10] };
    const estimate = (relKey: string, _t: string | undefined, bound: readonly boolean[]): number => {
      const [size, distinct] = sizes[relKey]!;
      return bound.reduce((n, b) => (b ? n / distinct : n), size);
    };
    const text = clauseText(planVariant(0, shape, { deltaAt: 2 }, { order: estimate, cost: estimate }));
    expect(text.indexOf("'F|pp/2'"), text).toBeLessThan(text.indexOf("'F|m/4'"));
  });

  it('gives the estimate the arguments bound inside a compound argument, as the engine looks them up (chess24)', () => {
    // (mv ?p (move ?pc ?x ?y)) after (dest ?x ?y): the engine's inner index finds the moves to
    // (?x, ?y) directly, so the estimate is told that ?x and ?y are bound inside argument 1.
    const shape = shapeOf('(<= (h ?p ?pc) (dest ?x ?y) (mv ?p (move ?pc ?x ?y)))', 'h');
    const seen: string[] = [];
    const estimate = (relKey: string, _t: string | undefined, bound: readonly boolean[], inner?: { at: number; bound: readonly boolean[] }): number => {
      seen.push(`${relKey} ${bound.map(Number).join('')} ${inner === undefined ? '-' : `${inner.at}:${inner.bound.map(Number).join('')}`}`);
      return 100 / 10 ** (bound.filter((b) => b).length + (inner?.bound.filter((b) => b).length ?? 0));
    };
    const text = clauseText(planVariant(0, shape, { deltaAt: null }, { order: estimate, cost: estimate }));
    expect(text.indexOf("'F|dest/2'"), text).toBeLessThan(text.indexOf("'F|mv/2'"));
    expect(seen).toContain('mv/2 00 1:011');
    expect(seen).toContain('mv/2 00 -');
  });

  it('has no core-first plan when a head variable is bound only through the existential part', () => {
    const shape = shapeOf('(<= (h ?x) (p ?x ?y) (d ?y))', 'h');
    expect(coreFirstApplies(shape, 1)).toBe(false);
  });

  it('enumerates distinct head instances through a projection, then tests the body once each', () => {
    const shape = shapeOf('(<= (line ?p) (true (cell ?x ?y ?p)) (succ ?x ?x2) (true (cell ?x2 ?y ?p)))', 'line');
    const d = planDistinctHeads(0, shape)!;
    expect(d.projection).toEqual({ table: 'true/1:cell/3', keep: [2], name: 'P|true/1:cell/3|2' });
    expect(clauseText(d.plan)).toBe(
      "'$v0'(V0) :- 'P|true/1:cell/3|2'(V0), once(('F|true/1:cell/3'(V1,V2,V0), 'F|true/1:cell/3'(V3,V2,V0), 'F|succ/2'(V1,V3))).",
    );
    // Nothing to gain when the body binds only head variables; no plan when no literal binds them all.
    expect(planDistinctHeads(0, shapeOf('(<= (h ?x) (p ?x) (q ?x))', 'h'))).toBeUndefined();
    expect(planDistinctHeads(0, shapeOf('(<= (h ?x ?y) (p ?x ?z) (q ?y ?z))', 'h'))).toBeUndefined();
  });

  it('leaves the least model unchanged whichever plan runs', () => {
    const result = computeSupersetsProlog(game(NIM), TEST_REACH_LIMITS);
    expect(formatSupersets(result.supersets).trim().split('\n')).toEqual([
      '(base (control a))', '(base (control b))',
      '(base (heap x 0))', '(base (heap x 1))', '(base (heap x 2))', '(base (heap x 3))',
      '(base (heap y 0))', '(base (heap y 1))', '(base (heap y 2))',
      '(input a (reduce x 0))', '(input a (reduce x 1))', '(input a (reduce x 2))',
      '(input a (reduce y 0))', '(input a (reduce y 1))',
      '(input b (reduce x 0))', '(input b (reduce x 1))', '(input b (reduce x 2))',
      '(input b (reduce y 0))', '(input b (reduce y 1))',
      '(movable x)', '(movable y)',
      '(succ 0 1)', '(succ 1 2)', '(succ 2 3)',
    ]);
  });
});

describe('tablesRead', () => {
  // Facts go only into the tables a clause may read (src/reach/store.ts, TableFacts.filled).
  const SPLIT = `(role r) (init a) (init (b 1)) (item a) (item (b 1))
    (<= (legal r (copy ?x)) (true ?x))
    (<= (next ?x) (does r (copy ?x)))
    (<= (next (w ?x)) (does ?p (copy ?x)) (role ?p) (item ?x))
    (<= (any ?m) (does r ?m))
    (<= (sees ?x) (true (w ?x)) (item ?y))`;

  it('names the tables body literals read, the heads a known-head test reads, and the deltas of the own component', () => {
    const read = tablesRead(planRelaxedGame(game(NIM)));
    // No literal reads does whole, only its reduce/2 part; legal, next and movable are read only
    // by their own known-head tests (each has a rule with a body variable its head lacks: ?m, ?y, ?m).
    expect([...read.full].sort()).toEqual(['does/2:reduce/2', 'legal/2:reduce/2', 'movable/1', 'next/1:heap/2', 'succ/2', 'true/1:control/1', 'true/1:heap/2']);
    // succ is static: no variant of the loop reads its delta.
    expect([...read.delta].sort()).toEqual(['does/2:reduce/2', 'true/1:control/1', 'true/1:heap/2']);
    // A variable in the split position reads the whole table.
    expect(tablesRead(planRelaxedGame(game(SPLIT))).full.has('does/2')).toBe(true);
  });

  it('leaves the least model as it was, with tables left empty', () => {
    for (const text of [NIM, SPLIT]) {
      const r = computeSupersetsProlog(game(text), TEST_REACH_LIMITS);
      const off = computeSupersetsProlog(game(text), TEST_REACH_LIMITS, { off: ['semi-naive'] });
      expect(formatSupersets(r.supersets)).toBe(formatSupersets(off.supersets));
    }
    expect(formatSupersets(computeSupersetsProlog(game(SPLIT), TEST_REACH_LIMITS).supersets)).toContain('(any (copy (w (b 1))))');
  });
});
