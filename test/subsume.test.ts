// Rules of the relaxed game that another rule makes redundant (src/reach/subsume.ts), and
// head-first plans (src/reach/head-first.ts): both change what the superset stage evaluates,
// never the least model, which each case checks against clingo's.
import { TEST_REACH_LIMITS } from './support/context.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { game, shapeOf } from './support/shapes.js';
import { clingoSupersets, supersetLines } from './support/clingo.js';
import { dropSubsumed, subsumes } from '../src/reach/subsume.js';
import { relaxRules } from '../src/reach/relaxed.js';
import { deferredParts } from '../src/reach/head-first.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { groundGame, loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { EXAMPLES_DIR } from './examples.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

/** The relaxed rules of a game text (subsumed ones dropped). */
const relaxed = (text: string) => relaxRules(game(`(role p) ${text}`));
/** Its rules before the subsumption test. */
const rulesOf = (text: string) => game(`(role p) ${text}`).rules.filter((r) => r.head.rel !== 'role').map((r) => ({ head: r.head, body: r.body.filter((l) => l.kind !== 'neg') as never, pos: r.pos }));

describe('subsumes', () => {
  const [general, special, renamed, other, swapped] = rulesOf(`
    (<= (h ?x ?y) (p ?x ?z) (q ?z ?y) (distinct ?x ?y))
    (<= (h ?a 1) (p ?a ?b) (q ?b 1) (r ?b) (distinct 1 ?a))
    (<= (h ?u ?v) (q ?w ?v) (p ?u ?w) (distinct ?u ?v))
    (<= (h ?x ?y) (p ?x ?z) (q ?y ?z) (distinct ?x ?y))
    (<= (h ?x ?y) (p ?x ?z) (q ?z ?y) (distinct ?y ?x))`);

  it('finds the substitution through an instance head, extra literals and a distinct either way round', () => {
    expect(subsumes(general!, special!)).toBe(true);
    expect(subsumes(special!, general!)).toBe(false);
    expect(subsumes(general!, swapped!)).toBe(true);
  });

  it('holds both ways between rules equal up to renaming and literal order', () => {
    expect(subsumes(general!, renamed!)).toBe(true);
    expect(subsumes(renamed!, general!)).toBe(true);
  });

  it('fails when a shared variable would need two values', () => {
    expect(subsumes(general!, other!)).toBe(false);
    expect(subsumes(other!, general!)).toBe(false);
  });

  it('matches function terms argument by argument', () => {
    const [c, d, e] = rulesOf(`
      (<= (h (f ?x ?y)) (p ?x) (q (g ?y)))
      (<= (h (f 1 (k ?z))) (p 1) (q (g (k ?z))) (r ?z))
      (<= (h (f 1 2)) (p 1) (q (g 3)))`);
    expect(subsumes(c!, d!)).toBe(true);
    expect(subsumes(c!, e!)).toBe(false);
  });
});

describe('dropSubsumed', () => {
  it('drops the special rule and, of two equal ones, the later', () => {
    const rules = rulesOf(`
      (<= (h ?a 1) (p ?a ?b) (q ?b 1))
      (<= (h ?x ?y) (p ?x ?z) (q ?z ?y))
      (<= (h ?u ?v) (q ?w ?v) (p ?u ?w))
      (<= (g ?x) (p ?x ?y))`);
    expect(dropSubsumed(rules).map((r) => r.pos.line)).toEqual([rules[1]!.pos.line, rules[3]!.pos.line]);
  });

  it('is applied by the relaxation, after the negative literals are gone', () => {
    const rules = relaxed(`
      (<= (ok ?m) (true (at ?m)) (not (blocked ?m)))
      (<= (ok ?m) (true (at ?m)) (pinned ?m))`);
    expect(rules.filter((r) => r.head.rel === 'ok')).toHaveLength(1);
  });
});

describe('games/relaxed-subsume.kif', () => {
  const file = 'relaxed-subsume.kif';
  const text = readFileSync(join(EXAMPLES_DIR, file), 'utf8');
  const options = resolvePipelineOptions();
  const { normal } = loadGame(text, file, options, new StageTimer());

  it('has the least model clingo computes from the rules as written', async () => {
    const fromClingo = await clingoSupersets(normal, 20000);
    expect(fromClingo.kind).toBe('model');
    if (fromClingo.kind !== 'model') return;
    expect(supersetLines(computeSupersetsProlog(normal, TEST_REACH_LIMITS).supersets)).toEqual(supersetLines(fromClingo.supersets));
  });

  it('never evaluates pinned and between for grounding, and gets the ground game of the full supersets', () => {
    const full = computeSupersetsProlog(normal, TEST_REACH_LIMITS).supersets;
    const relevant = computeSupersetsProlog(normal, TEST_REACH_LIMITS, { relevantOnly: true }).supersets;
    expect(full.axioms.some((a) => a.rel === 'between')).toBe(true);
    expect(relevant.axioms.some((a) => a.rel === 'between' || a.rel === 'pinned')).toBe(false);
    const emit = (sets: typeof full): string => emitGdl(groundGame(normal, sets, options, new StageTimer()), { baseInput: true }, Deadline.never());
    expect(emit(relevant)).toBe(emit(full));
  });
});

describe('deferredParts (head first)', () => {
  const text = readFileSync(join(EXAMPLES_DIR, 'head-first.kif'), 'utf8');

  it('leaves the track for last once the velocities bind the head', () => {
    const shape = shapeOf(text, 'ls');
    const delta = shape.positives.find((l) => l.lit.kind === 'pos' && l.lit.atom.args[0]?.kind === 'fn' && l.lit.atom.args[0].name === 'vx');
    const parts = deferredParts(shape, delta, () => 100);
    expect(parts).toHaveLength(1);
    const names = parts[0]!.map((l) => (l.lit.kind === 'pos' ? l.lit.atom.rel : 'distinct')).sort();
    expect(names).toEqual(['add', 'add', 'track', 'true', 'true']);
  });

  it('defers nothing when every part binds a head variable no other part binds', () => {
    const shape = shapeOf('(role p) (<= (h ?x ?y) (true (a ?x ?z)) (b ?z) (true (c ?y)))', 'h');
    expect(deferredParts(shape, undefined, () => 100)).toEqual([]);
  });

  it('gives the least model clingo computes', async () => {
    const { normal } = loadGame(text, 'head-first.kif', resolvePipelineOptions(), new StageTimer());
    const fromClingo = await clingoSupersets(normal, 20000);
    expect(fromClingo.kind).toBe('model');
    if (fromClingo.kind !== 'model') return;
    expect(supersetLines(computeSupersetsProlog(normal, TEST_REACH_LIMITS).supersets)).toEqual(supersetLines(fromClingo.supersets));
  });
});
