// The ground vocabulary (src/ground/vocabulary.ts): made once with the ground game, carried by
// every game made from it (renumbered, or made again where the atoms are new), and the one
// place the writers, the simulators and the mutex stage read fluents, moves and goals from.
import { StageTimer } from '../src/timer.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { removeAxioms } from '../src/axioms/remove.js';
import { DEFAULT_AXIOM_OPTIONS } from '../src/axioms/types.js';
import { DEFAULT_UNROLL_OPTIONS, unrollRecursion } from '../src/axioms/unroll.js';
import { removeUnused } from '../src/axioms/unused.js';
import { Deadline } from '../src/deadline.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { pruneUnreachable } from '../src/ground/reachability.js';
import type { GroundGame, Vocabulary } from '../src/ground/types.js';
import { groundVocabulary, vocabularyOfTerms } from '../src/ground/vocabulary.js';
import { TermTable } from '../src/datalog/terms.js';
import { compareCodePoints } from '../src/gdl/terms.js';
import { mutexView } from '../src/mutex/view.js';
import { fluentsOf, roleAtoms } from '../src/play/ground-sim.js';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { findAtom, handMadeGame } from './support/ground-game.js';

const never = Deadline.never();

/** The vocabulary as texts, to read in failures. */
function texts(game: Pick<GroundGame, 'terms'>, v: Vocabulary): unknown {
  const t = (id: number): string => game.terms.text(id);
  return {
    fluents: v.fluents.map((f) => [t(f.term), f.trueId, f.nextId]),
    moves: v.moves.map((m) => [t(m.role), t(m.action), m.doesId, m.legalId]),
    goals: v.goals.map((g) => [t(g.role), t(g.value), g.id]),
    terminal: v.terminal,
  };
}

/** A hand-made game: a fluent with only a next atom, a move with only a legal atom, goals and terminal. */
function smallGame(): GroundGame {
  return handMadeGame(['r'], ['a'], [
    ['(legal r go)', ['(true a)'], []],
    ['(legal r stay)', ['(true a)'], []],
    ['(next b)', ['(does r go)'], []],
    ['(next a)', ['(true a)'], ['(does r go)']],
    ['(goal r 100)', ['(true b)'], []],
    ['(goal r 0)', ['(true a)'], []],
    ['terminal', ['(true b)'], []],
  ]);
}

describe('ground vocabulary', () => {
  it('pairs true with next and does with legal, fluents and moves sorted by text', () => {
    const g = smallGame();
    const id = (t: string): number => findAtom(g, t);
    expect(texts(g, g.vocabulary)).toEqual({
      fluents: [['a', id('(true a)'), id('(next a)')], ['b', id('(true b)'), id('(next b)')]],
      moves: [['r', 'go', id('(does r go)'), id('(legal r go)')], ['r', 'stay', -1, id('(legal r stay)')]],
      goals: [['r', '0', id('(goal r 0)')], ['r', '100', id('(goal r 100)')]],
      terminal: id('terminal'),
    });
  });

  it('is renumbered with the atoms: pruning, unused instances, axiom removal, unrolling', () => {
    const text = readFileSync('games/rddl-chain.kif', 'utf8');
    const { ground } = runGrounding(text, 'rddl-chain.kif', defaultPipelineOptions(), new StageTimer());
    const pruned = pruneUnreachable(smallGame(), never);
    const unused = removeUnused(ground, never).game;
    const removed = removeAxioms(unused, DEFAULT_AXIOM_OPTIONS, never).game;
    const unrolled = unrollRecursion(removed, DEFAULT_UNROLL_OPTIONS, never).game;
    for (const g of [ground, pruned, unused, removed, unrolled]) expect(texts(g, g.vocabulary)).toEqual(texts(g, groundVocabulary(g)));
    // The steps did change the atoms, so the vocabularies were renumbered, not only copied.
    expect(unused.atoms.length).toBeLessThan(ground.atoms.length);
    expect(unrolled.atoms.length).not.toBe(removed.atoms.length);
  });

  it('is what the writer, the simulators and the mutex stage read', () => {
    const g = smallGame();
    // A vocabulary that leaves out fluent a and move stay: every reader must follow it.
    const v = g.vocabulary;
    const game: GroundGame = { ...g, vocabulary: { ...v, fluents: v.fluents.slice(1), moves: v.moves.slice(0, 1) } };
    const base = emitGdl(game, { baseInput: true }, never).split('\n').filter((l) => l.startsWith('(base') || l.startsWith('(input'));
    expect(base).toEqual(['(base b)', '(input r go)']);
    expect(fluentsOf(game).terms.map((t) => game.terms.text(t))).toEqual(['b']);
    expect(roleAtoms(game).legal.map((ids) => ids.length)).toEqual([1]);
    expect(mutexView(game).fluents.map((f) => f.text)).toEqual(['b']);
  });
  it('orders moves by the text of (R M) whether read off does atoms, legal atoms or merged from both', () => {
    // Roles and actions whose texts sort apart from their interning order, and a name with '!'
    // (below ')'): `(r a!)` sorts before `(r a)`. Every move has a does atom, some a legal one;
    // then the other way round; then each move only one of the two, so neither kind covers all;
    // then some moves both, some only a does atom and some only a legal one (one merge of both).
    const moves = ['(r a)', '(r a!)', '(q (z 1))', '(q (b 2 3))', '(r ab)', '(q c)'];
    const byText = [...moves].sort(compareCodePoints);
    const some = (i: number): boolean => i % 2 === 0;
    const cases: [(i: number) => boolean, (i: number) => boolean][] = [
      [() => true, some],
      [some, () => true],
      [some, (i) => !some(i)],
      [(i) => i % 3 !== 1, (i) => i % 3 !== 2],
    ];
    for (const [withDoes, withLegal] of cases) {
      const rules: [string, string[], string[]][] = [];
      moves.forEach((m, i) => {
        const args = m.slice(1, -1);
        if (withDoes(i)) rules.push([`(next f${i})`, [`(does ${args})`], []]);
        if (withLegal(i)) rules.push([`(legal ${args})`, ['(true f0)'], []]);
      });
      const g = handMadeGame(['r', 'q'], ['f0'], rules);
      const got = g.vocabulary.moves.map((m) => `(${g.terms.text(m.role)} ${g.terms.text(m.action)})`);
      expect(got).toEqual(byText);
      // Each move's atoms, found by text: its pair (or -1) whichever kind it was read off.
      for (const m of g.vocabulary.moves) {
        const rm = `${g.terms.text(m.role)} ${g.terms.text(m.action)}`;
        expect([m.doesId, m.legalId]).toEqual([findAtom(g, `(does ${rm})`), findAtom(g, `(legal ${rm})`)]);
      }
      expect(texts(g, g.vocabulary)).toEqual(texts(g, groundVocabulary(g)));
    }
  });

  it('throws an internal error, not a sort, when two different moves have the same text', () => {
    // Unreachable from a game: the reader ends a symbol at a space or a parenthesis, so `R M)`
    // splits one way only. A table given the names `a b` and `x a` breaks that: (does x |a b|)
    // and (legal |x a| b) both read `x a b)`, and no order of the two is the text order.
    const t = new TermTable();
    const does = t.compound('does', [t.constant('x'), t.constant('a b')]);
    const legal = t.compound('legal', [t.constant('x a'), t.constant('b')]);
    expect(`${t.text(t.arg(does, 0))} ${t.text(t.arg(does, 1))}`).toBe(`${t.text(t.arg(legal, 0))} ${t.text(t.arg(legal, 1))}`);
    expect(() => vocabularyOfTerms(t, Int32Array.from([does, legal]))).toThrow(/impossible/);
  });
});
