// Local variables of whole rule bodies eliminated bucket by bucket (src/reach/eliminate-local.ts):
// the rewrite of kalaha_2009's sowing rule, the rules it leaves alone, and on
// games/eliminate-local.kif the same least model as clingo's with fewer answers than without it.
import { TEST_REACH_LIMITS } from './support/context.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { game } from './support/shapes.js';
import { clingoSupersets, supersetLines } from './support/clingo.js';
import { relaxRules } from '../src/reach/relaxed.js';
import { eliminateLocals } from '../src/reach/eliminate-local.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import type { RelaxedRule } from '../src/reach/relaxed-rule.js';
import type { Term } from '../src/gdl/ast.js';
import { StageTimer } from '../src/timer.js';

const text = (t: Term): string => (t.kind === 'var' ? t.name : t.kind === 'const' ? t.name : `(${t.name} ${t.args.map(text).join(' ')})`);
/** A rule as KIF-like text, for comparing rewrites. */
const show = (r: RelaxedRule): string =>
  `(${r.head.rel} ${r.head.args.map(text).join(' ')}) <= ${r.body.map((l) => (l.kind === 'pos' ? `(${l.atom.rel} ${l.atom.args.map(text).join(' ')})` : `(distinct ${text(l.left)} ${text(l.right)})`)).join(' ')}`;

const SOW = `(<= (next (pit ?p ?n2)) (does ?r (clear ?p2)) (winpit ?r ?p) (true (pit ?p ?n)) (true (pit ?p2 ?n1)) (plus ?n ?n1 ?n2))`;

describe('eliminateLocals', () => {
  it("makes kalaha's sowing rule read one relation of the cleared pits' counts per target pit", () => {
    const { rules, auxiliary } = eliminateLocals(relaxRules(game(`(role south) ${SOW}`)), new Set());
    expect(rules.filter((r) => r.head.rel !== 'role').map(show)).toEqual([
      '(next local1 ?p2 ?p) <= (does ?r (clear ?p2)) (winpit ?r ?p)',
      '(next local2 ?n1 ?p) <= (true (pit ?p2 ?n1)) (next local1 ?p2 ?p)',
      '(next (pit ?p ?n2)) <= (true (pit ?p ?n)) (plus ?n ?n1 ?n2) (next local2 ?n1 ?p)',
    ]);
    expect([...auxiliary].sort()).toEqual(['next local1/2', 'next local2/2']);
  });

  it('shares the relations of equal buckets between rules, and leaves the rules of `skip` alone', () => {
    const two = relaxRules(game(`(role south) ${SOW} ${SOW.replace('(plus ?n ?n1 ?n2)', '(minus ?n ?n1 ?n2)')}`));
    expect(eliminateLocals(two, new Set()).auxiliary.size).toBe(2);
    expect(eliminateLocals(two, new Set(['next/1'])).rules).toEqual(two);
  });

  it('leaves buckets alone that hold a distinct, the whole body, or make a relation wider than two', () => {
    const rules = relaxRules(game(`(role p)
      (<= (h ?x) (p ?x ?y) (q ?y ?z) (distinct ?y ?x))
      (<= (g ?x) (p ?x ?y) (q ?y))
      (<= (k ?x) (p ?x ?a ?b) (s ?y ?a ?b ?c) (r ?c ?x ?y))`));
    expect(eliminateLocals(rules, new Set()).rules).toEqual(rules);
  });
});

describe('the least model is kept', () => {
  const file = join(import.meta.dirname, '..', 'games', 'eliminate-local.kif');
  const normal = loadGame(readFileSync(file, 'utf8'), file, resolvePipelineOptions({}), new StageTimer()).normal;

  it("on games/eliminate-local.kif: clingo's supersets, in fewer answers than with elimination off", async () => {
    const fromClingo = await clingoSupersets(normal, 20000);
    expect(fromClingo.kind).toBe('model');
    if (fromClingo.kind !== 'model') return;
    const on = computeSupersetsProlog(normal, TEST_REACH_LIMITS);
    const off = computeSupersetsProlog(normal, TEST_REACH_LIMITS, { off: ['elimination'] });
    expect(supersetLines(on.supersets)).toEqual(supersetLines(fromClingo.supersets));
    expect(supersetLines(off.supersets)).toEqual(supersetLines(fromClingo.supersets));
    expect(on.supersets.axioms.filter((a) => a.rel.includes(' '))).toEqual([]);
    // Fewer answers is the elimination's own effect, measured with head-first plans off: their
    // delta-deferred plan (src/reach/head-first.ts) cuts the same rule's answers without it
    // (377 with elimination, 370 without, 433 with neither, chess22).
    const onAlone = computeSupersetsProlog(normal, TEST_REACH_LIMITS, { off: ['head-first'] });
    const offAlone = computeSupersetsProlog(normal, TEST_REACH_LIMITS, { off: ['elimination', 'head-first'] });
    expect(supersetLines(offAlone.supersets)).toEqual(supersetLines(fromClingo.supersets));
    expect(onAlone.stats.answers).toBeLessThan(offAlone.stats.answers);
  });
});
