// Negations the relaxation may keep (issue 33; src/reach/exact-negation.ts, the refined run of
// src/reach/demand.ts): negations over static relations without negation below them and over
// invariant fluents are kept, others dropped; after the plain run passes the atom budget, the
// refined supersets are smaller, still hold every reachable fluent and move (the ground game
// plays like the original), and demanded static relations seeded from their instances give
// the same ground game as when they are evaluated whole.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { atomToString } from '../src/gdl/terms.js';
import { supersetSentences } from '../src/reach/format.js';
import { supersetsForGrounding } from '../src/reach/demand.js';
import { keepExactNegations } from '../src/reach/exact-negation.js';
import { emitGround, groundGame, groundNormalGame, loadGame, removeUnusedInstances, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { verifyGrounding } from '../src/pipeline/stages-play.js';
import type { NormalGame } from '../src/normalize/types.js';
import type { Supersets } from '../src/reach/types.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';
import { ROOT } from './support/cli.js';

const GAME = join(ROOT, 'test/fixtures/kept-negation.kif');
const limits = (maxAtoms = 2_000_000) => ({ deadline: Deadline.never(), maxAtoms });

function load(file: string, text = readFileSync(file, 'utf8')): NormalGame {
  return loadGame(text, file, resolvePipelineOptions(), new StageTimer()).normal;
}

/** The ground game as `ground` writes it (unused instances removed), from `sets`. */
function groundText(normal: NormalGame, sets: Supersets): string {
  const options = resolvePipelineOptions();
  return emitGround(removeUnusedInstances(groundGame(normal, sets, options, new StageTimer()), new StageTimer(), options).game, 'gdl', { baseInput: false }, new StageTimer(), options);
}

const fluentTexts = (s: Supersets) => supersetSentences({ ...s, axioms: [] }).fluents;

describe('kept negations: which', () => {
  it('keeps the static and the invariant fluent negations, drops the one over a fluent that changes', () => {
    const refined = keepExactNegations(load(GAME), limits())!;
    expect(refined).toBeDefined();
    const text = (r: NormalGame['rules'][number]) => `${atomToString(r.head)} <= ${r.body.map((l) => (l.kind === 'distinct' ? 'distinct' : `${l.kind === 'neg' ? 'not ' : ''}${atomToString(l.atom)}`)).join(' ')}`;
    const rules = refined.rules.map(text);
    expect(rules).toContain('(linenumber ?np1) <= (succ ?n ?np1) (kept 0 ?n) (linenumber ?n)');
    expect(rules).toContain('(next (pos ?y)) <= (true (pos ?x)) (kept 1 ?x) (does walker right) (succ ?x ?y)');
    expect(rules).toContain('(next (seen ?x)) <= (true (pos ?x)) not (true (mark ?x))');
    // kept 0: the numbers both succ counts from and the relaxed lineNumber holds (1..39), but 4;
    // kept 1: those succ counts from (0..39), but the wall's 6.
    const facts = (name: string) => refined.rules.filter((r) => r.head.rel === name).map((r) => atomToString(r.head));
    expect(facts('kept 0')).toHaveLength(38);
    expect(facts('kept 0')).not.toContain('(kept 0 4)');
    expect(facts('kept 1')).toHaveLength(39);
    expect(facts('kept 1')).not.toContain('(kept 1 6)');
  });

  it('a fluent is invariant only when frames alone make it: not with a conditional frame, nor beside a next rule with a variable fluent', () => {
    const base = `(role r) (init (wall 1)) (init (p 0)) (succ 0 1) (succ 1 2) (succ 2 3) (legal r go) (goal r 100) (<= terminal (true (p 3)))
      (<= (next (p ?y)) (true (p ?x)) (succ ?x ?y) (not (true (wall ?x))))`;
    const kept = (extra: string) => keepExactNegations(load('inline.kif', `${base} ${extra}`), limits()) !== undefined;
    expect(kept('(<= (next (wall ?x)) (true (wall ?x)))')).toBe(true);
    expect(kept('(<= (next (wall ?x)) (true (wall ?x)) (not (true (p 2))))')).toBe(false);
    expect(kept('(<= (next (wall ?x)) (true (wall ?x))) (<= (next ?f) (true (p 3)) (true ?f))')).toBe(false);
    expect(kept('(<= (next (wall ?x)) (true (wall ?x))) (<= (next (wall 2)) (true (p 2)))')).toBe(false);
    // Without any next rule the wall is gone after the first step: not invariant either.
    expect(kept('')).toBe(false);
  });

  it('keeps nothing in tic-tac-toe (its negations read fluents that change)', () => {
    expect(keepExactNegations(load(join(EXAMPLES_DIR, 'tictactoe.kif')), limits())).toBeUndefined();
  });
});

describe('kept negations: the refined run after the atom budget', () => {
  it('smaller supersets than the relaxed game, every reachable fluent kept, the game plays like the original', () => {
    const normal = load(GAME);
    const plain = supersetsForGrounding(normal, limits(), 'never').supersets;
    expect(() => supersetsForGrounding(normal, limits(6000), 'never')).toThrow(/more than 6000 ground atoms/);
    const refined = supersetsForGrounding(normal, limits(6000)).supersets;
    const all = new Set(fluentTexts(plain));
    for (const f of fluentTexts(refined)) expect(all.has(f), f).toBe(true);
    expect(fluentTexts(plain)).toContain('(base (pos 40))');
    expect(fluentTexts(refined)).toContain('(base (pos 6))');
    expect(fluentTexts(refined)).not.toContain('(base (pos 7))');
    expect(supersetSentences(refined).moves).toEqual(['(input walker (hop 6))', '(input walker (jump 1))', '(input walker (jump 2))', '(input walker (jump 3))', '(input walker (jump 4))', '(input walker right)', '(input walker stay)']);
    const options = resolvePipelineOptions({ maxReachAtoms: 6000 });
    const ground = groundNormalGame(normal, options, new StageTimer()).ground;
    const verdict = verifyGrounding(normal, ground, options, { playouts: 15, seed: 5, maxSteps: 20 });
    expect(verdict.kind).toBe('same');
  });

  it('where the refined run passes its quarter of the budget too, the plain run\'s error stands, with a note', () => {
    const normal = load(GAME);
    expect(() => supersetsForGrounding(normal, limits(1000))).toThrow(/^\S+:14:1: error: relation 'lt' grew to .*more than 1000 ground atoms in all; kept negations and demand did not bound it either \(more than 250 atoms\)$/);
  });

  it('demanded static relations: seeded from their instances, the same ground game as evaluated whole', () => {
    const normal = load(GAME);
    const refined = supersetsForGrounding(normal, limits(6000)).supersets;
    expect(refined.demandedStatics).toContain('ahead/3');
    // Evaluated whole, ahead holds every triple x < y < d of 0..40 (10,660); asked for from the walker's positions, a few hundred.
    expect(refined.axioms.filter((a) => a.rel === 'ahead').length).toBeLessThan(1000);
    const whole = { ...refined, demandedStatics: undefined };
    expect(groundText(normal, refined)).toBe(groundText(normal, whole));
  });

  it.skipIf(!HAVE_CORPUS)('mummymaze1p grounds (its direction-from seeded from demand), and plays like the original', () => {
    const g = 'ggp-repository-base/mummymaze1p.kif';
    const normal = load(g, readGame(g));
    const options = resolvePipelineOptions();
    const ground = groundNormalGame(normal, options, new StageTimer()).ground;
    expect(verifyGrounding(normal, ground, options, { playouts: 3, seed: 1, maxSteps: 30 }).kind).toBe('same');
  }, 180_000);
});
