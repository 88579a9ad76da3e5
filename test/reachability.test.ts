// Ground reachability (end of 9.1.3): relaxed forward chaining from init over ground rules,
// pruning, renumbering, and the final supersets read off a ground game.
import { TEST_INSTANTIATE_LIMITS } from './support/context.js';
import { Deadline } from '../src/deadline.js';
import { describe, expect, it } from 'vitest';
import { atomToString, termToString } from '../src/gdl/terms.js';
import { groundSupersets, pruneUnreachable, reachableAtoms } from '../src/ground/reachability.js';
import type { GroundGame } from '../src/ground/types.js';
import { atomText } from '../src/ground/atoms.js';
import { parseGdl } from '../src/gdl/parser.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import { instantiateGame } from '../src/ground/instantiate.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { computeSupersetsDG } from '../src/reach/dg/index.js';
import { handMadeGame } from './support/ground-game.js';
import { StageTimer } from '../src/timer.js';

/** A ground game over the given atom texts with rules written as texts (role r). */
function game(init: string[], rules: { head: string; pos?: string[]; neg?: string[] }[]): GroundGame {
  const fluents = init.map((t) => t.replace(/^\(true (.*)\)$/, '$1'));
  return handMadeGame(['r'], fluents, rules.map((r) => [r.head, r.pos ?? [], r.neg ?? []] as const), 'g.kif');
}

const texts = (g: GroundGame): string[] => g.atoms.map((_, i) => atomText(g, i));
const ruleTexts = (g: GroundGame): string[] =>
  g.rules.map((r) => [atomText(g, r.head), ...r.pos.map((p) => atomText(g, p)), ...r.neg.map((n) => `(not ${atomText(g, n)})`)].join(' <= '));

describe('reachableAtoms', () => {
  it('chains next to true and legal to does, ignoring negative literals', () => {
    const g = game(['(true a)'], [
      { head: '(legal r go)', pos: ['(true a)'], neg: ['(true b)'] },
      { head: '(next b)', pos: ['(does r go)'] },
      { head: '(next c)', pos: ['(true b)', '(true z)'] },
      { head: 'win', pos: ['(true b)'] },
    ]);
    const reached = reachableAtoms(g, Deadline.never());
    const reachedTexts = texts(g).filter((_, i) => reached[i] === 1);
    expect(reachedTexts).toEqual(['(does r go)', '(legal r go)', '(next b)', '(true a)', '(true b)', 'win']);
  });
});

describe('pruneUnreachable', () => {
  it('drops rules with unreachable positive atoms and negative literals over unreachable atoms', () => {
    const g = game(['(true a)'], [
      { head: '(legal r go)', pos: ['(true a)'], neg: ['(true b)', '(true z)'] },
      { head: '(next b)', pos: ['(does r go)'] },
      { head: '(next c)', pos: ['(true b)', '(true z)'] },
      { head: 'terminal', pos: ['(true b)'], neg: ['(true y)'] },
      { head: 'terminal', pos: ['(true b)'] },
    ]);
    const p = pruneUnreachable(g, Deadline.never());
    expect(texts(p)).toEqual(['(does r go)', '(legal r go)', '(next b)', '(true a)', '(true b)', 'terminal']);
    expect(ruleTexts(p)).toEqual([
      '(legal r go) <= (true a) <= (not (true b))',
      '(next b) <= (does r go)',
      // The two terminal rules became equal once (not (true y)) was dropped.
      'terminal <= (true b)',
    ]);
    expect(p.init).toEqual([3]);
    expect(pruneUnreachable(p, Deadline.never())).toEqual(p);
  });

  it('reads the final supersets off a ground game, static axioms added', () => {
    const g = game(['(true a)'], [
      { head: '(legal r go)', pos: ['(true a)'] },
      { head: '(next b)', pos: ['(does r go)', '(ok 1)'] },
      { head: '(ok 1)', pos: ['(true a)'] },
      { head: '(ok 2)', pos: ['(true q)'] },
    ]);
    const s = groundSupersets(g, [parseGdl('(adj 1 2)', undefined, Deadline.never()).game.rules[0]!.head], Deadline.never());
    expect(s.fluents.map(termToString)).toEqual(['a', 'b']);
    expect(s.moves.map((m) => `${termToString(m.role)} ${termToString(m.action)}`)).toEqual(['r go']);
    expect(s.axioms.map(atomToString)).toEqual(['(adj 1 2)', '(ok 1)']);
  });
});

describe('instantiation with dg supersets, then reachability, equals the prolog method', () => {
  it('removes the self-supporting cycle the dg supersets keep', () => {
    const text = `
      (role robot) (init (at 1))
      (adjacent 1 2) (adjacent 2 3) (adjacent 5 6) (adjacent 6 5)
      (<= (legal robot (move ?x ?y)) (true (at ?x)) (adjacent ?x ?y))
      (<= (next (at ?y)) (does robot (move ?x ?y)))
      (<= terminal (true (at 3))) (<= (goal robot 100) (not (true (at 6))))`;
    const normal = loadGame(text, 'ring.kif', defaultPipelineOptions(), new StageTimer()).normal;
    const limits = { deadline: Deadline.never(), maxAtoms: 100_000 };
    const fromDg = instantiateGame(normal, computeSupersetsDG(normal, limits).supersets, TEST_INSTANTIATE_LIMITS);
    const fromProlog = instantiateGame(normal, computeSupersetsProlog(normal, limits).supersets, TEST_INSTANTIATE_LIMITS);
    expect(fromDg.rules.length).toBeGreaterThan(pruneUnreachable(fromDg, Deadline.never()).rules.length);
    // The two runs have term tables of their own: the games compare through their text.
    expect(emitGdl(pruneUnreachable(fromDg, Deadline.never()), undefined, Deadline.never())).toBe(emitGdl(pruneUnreachable(fromProlog, Deadline.never()), undefined, Deadline.never()));
    expect(ruleTexts(pruneUnreachable(fromDg, Deadline.never()))).toContain('(goal robot 100)');
  });
});
