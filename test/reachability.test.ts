// Ground reachability (end of 9.1.3): relaxed forward chaining from init over ground rules,
// pruning, renumbering, and the final supersets read off a ground game.
import { describe, expect, it } from 'vitest';
import type { Term } from '../src/gdl/ast.js';
import { atomToString, termToString } from '../src/gdl/terms.js';
import { groundSupersets, pruneUnreachable, reachableAtoms } from '../src/ground/reachability.js';
import type { GroundAtom, GroundGame } from '../src/ground/types.js';
import { parseGdl } from '../src/gdl/parser.js';
import { DEFAULT_PIPELINE_OPTIONS, loadGame } from '../src/pipeline.js';
import { instantiateGame } from '../src/ground/instantiate.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { computeSupersetsDG } from '../src/reach/dg/index.js';

/** A ground atom from its KIF text. */
function atom(text: string): GroundAtom {
  const a = parseGdl(text).game.rules[0]!.head;
  return { text, rel: a.rel, args: a.args };
}

/** A ground game over the given atom texts (sorted here) with rules written as texts. */
function game(init: string[], rules: { head: string; pos?: string[]; neg?: string[] }[]): GroundGame {
  const texts = [...new Set([...init, ...rules.flatMap((r) => [r.head, ...(r.pos ?? []), ...(r.neg ?? [])])])].sort();
  const id = (t: string): number => texts.indexOf(t);
  return {
    file: 'g.kif',
    roles: [{ kind: 'const', name: 'r', pos: { line: 0, col: 0 } } as Term],
    atoms: texts.map(atom),
    init: init.map(id),
    rules: rules.map((r) => ({ head: id(r.head), pos: (r.pos ?? []).map(id), neg: (r.neg ?? []).map(id) })),
  };
}

const ruleTexts = (g: GroundGame): string[] =>
  g.rules.map((r) => [g.atoms[r.head]!.text, ...r.pos.map((p) => g.atoms[p]!.text), ...r.neg.map((n) => `(not ${g.atoms[n]!.text})`)].join(' <= '));

describe('reachableAtoms', () => {
  it('chains next to true and legal to does, ignoring negative literals', () => {
    const g = game(['(true a)'], [
      { head: '(legal r go)', pos: ['(true a)'], neg: ['(true b)'] },
      { head: '(next b)', pos: ['(does r go)'] },
      { head: '(next c)', pos: ['(true b)', '(true z)'] },
      { head: 'win', pos: ['(true b)'] },
    ]);
    const reached = reachableAtoms(g);
    const texts = g.atoms.filter((_, i) => reached[i] === 1).map((a) => a.text);
    expect(texts).toEqual(['(does r go)', '(legal r go)', '(next b)', '(true a)', '(true b)', 'win']);
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
    const p = pruneUnreachable(g);
    expect(p.atoms.map((a) => a.text)).toEqual(['(does r go)', '(legal r go)', '(next b)', '(true a)', '(true b)', 'terminal']);
    expect(ruleTexts(p)).toEqual([
      '(legal r go) <= (true a) <= (not (true b))',
      '(next b) <= (does r go)',
      // The two terminal rules became equal once (not (true y)) was dropped.
      'terminal <= (true b)',
    ]);
    expect(p.init).toEqual([3]);
    expect(pruneUnreachable(p)).toEqual(p);
  });

  it('reads the final supersets off a ground game, static axioms added', () => {
    const g = game(['(true a)'], [
      { head: '(legal r go)', pos: ['(true a)'] },
      { head: '(next b)', pos: ['(does r go)', '(ok 1)'] },
      { head: '(ok 1)', pos: ['(true a)'] },
      { head: '(ok 2)', pos: ['(true q)'] },
    ]);
    const s = groundSupersets(g, [parseGdl('(adj 1 2)').game.rules[0]!.head]);
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
    const normal = loadGame(text, 'ring.kif', DEFAULT_PIPELINE_OPTIONS).normal;
    const limits = { deadline: Infinity, maxAtoms: 100_000 };
    const fromDg = instantiateGame(normal, computeSupersetsDG(normal, limits).supersets);
    const fromProlog = instantiateGame(normal, computeSupersetsProlog(normal, limits).supersets);
    expect(fromDg.rules.length).toBeGreaterThan(pruneUnreachable(fromDg).rules.length);
    expect(pruneUnreachable(fromDg)).toEqual(pruneUnreachable(fromProlog));
    expect(ruleTexts(pruneUnreachable(fromDg))).toContain('(goal robot 100)');
  });
});
