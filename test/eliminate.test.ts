// Existence parts of relaxed rules made relations of their own (src/reach/eliminate.ts), and the
// projection of a delta table that holds only tuples new to its relation (fresh-projection,
// src/engine/own.ts): both change how the superset stage evaluates the relaxed game, never its
// least model, which is checked against clingo's.
import { TEST_REACH_LIMITS } from './support/context.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { game } from './support/shapes.js';
import { clingoSupersets, supersetLines } from './support/clingo.js';
import { relaxRules } from '../src/reach/relaxed.js';
import { eliminateParts } from '../src/reach/eliminate.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import type { RelaxedRule } from '../src/reach/relaxed-rule.js';
import type { Term } from '../src/gdl/ast.js';
import { StageTimer } from '../src/timer.js';

const text = (t: Term): string => (t.kind === 'var' ? t.name : t.kind === 'const' ? t.name : `(${t.name} ${t.args.map(text).join(' ')})`);
/** A rule as KIF-like text, for comparing rewrites. */
const show = (r: RelaxedRule): string =>
  `(${r.head.rel} ${r.head.args.map(text).join(' ')}) <= ${r.body.map((l) => (l.kind === 'pos' ? `(${l.atom.rel} ${l.atom.args.map(text).join(' ')})` : `(distinct ${text(l.left)} ${text(l.right)})`)).join(' ')}`;

const RACER = `
  (<= (ls ?p ?nx ?ny) (true (vx ?p ?dx)) (pm ?dx ?nx) (true (vy ?p ?dy)) (pm ?dy ?ny)
      (true (px ?p ?x)) (add ?x ?nx ?x1) (track ?x1 ?y1) (add ?y ?ny ?y1) (true (py ?p ?y)))`;

describe('eliminateParts', () => {
  it("makes racer's track part relations, one variable at a time, none wider than the head, and keeps its last join in the rule", () => {
    const { rules, auxiliary } = eliminateParts(relaxRules(game(`(role p) ${RACER}`)));
    expect(rules.filter((r) => r.head.rel !== 'role').map(show)).toEqual([
      '(ls part1 ?p ?nx ?x1) <= (true (px ?p ?x)) (add ?x ?nx ?x1)',
      '(ls part2 ?y1 ?p ?nx) <= (track ?x1 ?y1) (ls part1 ?p ?nx ?x1)',
      '(ls part3 ?ny ?y1 ?p) <= (add ?y ?ny ?y1) (true (py ?p ?y))',
      '(ls ?p ?nx ?ny) <= (true (vx ?p ?dx)) (pm ?dx ?nx) (true (vy ?p ?dy)) (pm ?dy ?ny) (ls part2 ?y1 ?p ?nx) (ls part3 ?ny ?y1 ?p)',
    ]);
    expect([...auxiliary].sort()).toEqual(['ls part1/3', 'ls part2/3', 'ls part3/3']);
  });

  it('shares the relations of equal parts between rules', () => {
    const { rules, auxiliary } = eliminateParts(relaxRules(game(`(role p) ${RACER} ${RACER.replace('(pm ?dx ?nx)', '(pm ?nx ?dx)')}`)));
    expect(auxiliary.size).toBe(3);
    expect(rules.filter((r) => r.head.rel === 'ls').map((r) => show({ head: r.head, body: r.body.slice(-2), pos: r.pos }))).toEqual([
      '(ls ?p ?nx ?ny) <= (ls part2 ?y1 ?p ?nx) (ls part3 ?ny ?y1 ?p)',
      '(ls ?p ?nx ?ny) <= (ls part2 ?y1 ?p ?nx) (ls part3 ?ny ?y1 ?p)',
    ]);
  });

  it('leaves rules alone where no part only tests existence, or no bucket qualifies', () => {
    const rules = relaxRules(game(`(role p)
      (<= (h ?x) (p ?x ?y) (q ?y ?z) (r ?z))
      (<= (g ?x ?y) (p ?x ?a) (q ?y ?b) (s ?a ?b ?c) (r ?c))
      (<= (k ?x) (p ?x ?y) (q ?x ?z) (s ?y ?z ?w) (s ?w ?y ?z))`));
    expect(eliminateParts(rules).rules).toEqual(rules);
  });
});

describe('the least model is kept', () => {
  const load = (file: string) => loadGame(readFileSync(file, 'utf8'), file, resolvePipelineOptions({}), new StageTimer()).normal;
  const normal = load(join(import.meta.dirname, '..', 'games', 'head-first.kif'));

  it('on games/head-first.kif: the same supersets as clingo, with each switch off too, and no relation of its own in them', async () => {
    const fromClingo = await clingoSupersets(normal, 20000);
    expect(fromClingo.kind).toBe('model');
    if (fromClingo.kind !== 'model') return;
    const on = computeSupersetsProlog(normal, TEST_REACH_LIMITS);
    expect(supersetLines(on.supersets)).toEqual(supersetLines(fromClingo.supersets));
    expect(on.supersets.axioms.filter((a) => a.rel.includes(' '))).toEqual([]);
    for (const off of ['elimination', 'fresh-projection'] as const) {
      expect(supersetLines(computeSupersetsProlog(normal, TEST_REACH_LIMITS, { off: [off] }).supersets)).toEqual(supersetLines(fromClingo.supersets));
    }
  });

  it('and the relevant supersets for grounding are those of the full run', () => {
    const full = computeSupersetsProlog(normal, TEST_REACH_LIMITS).supersets;
    const relevant = computeSupersetsProlog(normal, TEST_REACH_LIMITS, { relevantOnly: true }).supersets;
    expect(supersetLines({ ...relevant, axioms: [] })).toEqual(supersetLines({ ...full, axioms: [] }));
  });
});
