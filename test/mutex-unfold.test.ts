// Lifted proofs that see through derived relations and split `true` atoms over the game's fluent
// values (src/mutex/lifted-unfold.ts, docs/mutex.md "Seeing through derived relations"): proven
// where the unfolded bodies conflict, never where the group is false; and the library's groups
// say how they were proven. Also which split the case analysis takes (bestSplit, lazily: the split
// evaluating every split in full takes, games/mutex-lazy-split.kif) and a `legal` rule passing the
// move on with its arguments swapped, not read as the other relation's rules (mutex-legal-swapped.kif).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { findMutexGroups as apiMutexGroups, groundGame, loadGame } from '../src/index.js';
import { hypotheses } from '../src/mutex/candidates.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { ruleBase, unfoldedCasesClose } from '../src/mutex/lifted-unfold.js';
import { fluentArgs, mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';
import { mkConst } from '../src/gdl/ast.js';

/** Per hypothesis `relation [input]`, whether the lifted proof proves it (all offered); with `values`, the ground fluents are known to it. */
function lifted(text: string, values: boolean): Map<string, boolean> {
  const { loaded, ground } = runGrounding(text, 'game.kif', defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const fluents = fluentArgs(ground);
  const r = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6, ...(values ? { fluents } : {}) });
  return new Map(hyps.map((h, i) => [`${h.relation} [${h.input.join(',')}]`, r.proven[i]!]));
}

/** A counter kept on a short step and raised on a long one, both named by derived relations; with `overlap`, a step that is both. */
function counterGame(overlap: boolean): string {
  return `
(role r)
(init (pos 0)) (init (count 0))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= (legal r (go ?x ?y)) (true (pos ?x)) (succ ?x ?y))
(<= (legal r (go ?x ?y)) (true (pos ?x)) (succ ?x ?z) (succ ?z ?y))
(<= (next (pos ?y)) (does r (go ?x ?y)))
(<= (next (count ?n)) (true (count ?n)) (does r (go ?x ?y)) (near ?x ?y))
(<= (next (count ?m)) (true (count ?n)) (does r (go ?x ?y)) (far ?x ?y) (succ ?n ?m))
(<= (near ?x ?y) (succ ?x ?y))
(<= (far ?x ?y) (succ ?x ?z) (succ ?z ?y))
${overlap ? '(<= (far ?x ?y) (succ ?x ?y))' : ''}
(<= terminal (true (pos 4)))
(<= terminal (true (pos 3)))
(<= (goal r 100) (true (pos 4)))
`;
}

/** Stones placed on empty squares of a 2x2 board; with `anywhere`, on occupied ones too. */
function placeGame(anywhere: boolean): string {
  return `
(role red) (role blue)
(row 1) (row 2)
(init (control red))
(<= (legal ?p (place ?m ?n)) (true (control ?p)) (row ?m) (row ?n)
    ${anywhere ? '' : '(not (true (cell ?m ?n red))) (not (true (cell ?m ?n blue)))'})
(<= (legal red noop) (true (control blue)))
(<= (legal blue noop) (true (control red)))
(<= (next (cell ?m ?n ?p)) (does ?p (place ?m ?n)))
(<= (next (cell ?m ?n ?p)) (true (cell ?m ?n ?p)))
(<= (next (control red)) (true (control blue)))
(<= (next (control blue)) (true (control red)))
(<= terminal (true (cell 1 1 red)) (true (cell 2 2 red)))
(<= terminal (true (cell 2 1 blue)))
(<= (goal red 100) (true (cell 1 1 red)))
(<= (goal blue 100) (true (cell 2 1 blue)))
`;
}

/**
 * The last move made, one per turn: the roles take turns (`control`), so two moves other than
 * `noop` are never made together. With `passOn`, `legal` passes the move on to `pick`, which has a
 * rule per kind of move and reads the turn (ttcc4_2player's `legal2`).
 */
function lastGame(passOn: boolean): string {
  const head = passOn ? 'pick' : 'legal';
  return `
(role red) (role blue)
(sq 1) (sq 2)
(init (control red))
${passOn ? '(<= (legal ?p ?m) (pick ?p ?m))' : ''}
(<= (${head} ?p (set ?x)) (true (control ?p)) (sq ?x))
(<= (${head} ?p (clear ?x)) (true (control ?p)) (sq ?x))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (next (last ?m)) (does ?p ?m) (distinct ?m noop))
(<= (next (control red)) (true (control blue)))
(<= (next (control blue)) (true (control red)))
(<= terminal (true (last (set 2))))
(<= (goal red 100) (true (last (set 2))))
(<= (goal blue 100) (true (last (clear 2))))
`;
}

/**
 * The case analysis of the body of games/mutex-lazy-split.kif's `root` rule (its derived atoms
 * unfolded): whether every case closed, and the bodies the closing check left open, in the order it
 * was given them (each one call of `refute`, the check's last step, which closes none here).
 */
function splitCases(root: string): { closed: boolean; open: string[] } {
  const file = 'mutex-lazy-split.kif';
  const { loaded } = runGrounding(readFileSync(join(EXAMPLES_DIR, file), 'utf8'), file, defaultPipelineOptions(), new StageTimer());
  const rule = loaded.normal.rules.find((r) => r.head.rel === root)!;
  const open: string[] = [];
  const refute = (body: readonly { kind: string; atom?: { rel: string; args: readonly { kind: string; name?: string }[] } }[]): boolean => {
    // A case's unfolded rules, named by their relation and the constant their `f` atom reads.
    open.push(body.flatMap((l) => (l.atom?.rel === 'f' ? [`f${l.atom.args[0]!.name}`] : [])).join(' '));
    return false;
  };
  const base = { ...ruleBase(loaded.normal, new Map()), refute };
  const goal: [ReturnType<typeof mkConst>[], ReturnType<typeof mkConst>[]] = [[mkConst('a')], [mkConst('b')]];
  const closed = unfoldedCasesClose(rule.body, new Map(), goal, { assumed: new Map(), base, deadline: Deadline.never(), counter: { tag: 0 } });
  return { closed, open };
}

describe('the split the case analysis takes (lifted-unfold.ts bestSplit)', () => {
  it('a literal whose split leaves no case open is taken after only two cases of the splits before it were looked at', () => {
    // root1: (d ?x) (wide ?x) (never ?x). never's one case closes, so the body is refuted; of
    // wide's four cases (all open) only the first two are given to the check: two open already
    // mean wide is not the split taken. Evaluating every split in full gave it all four.
    expect(splitCases('root1')).toEqual({ closed: true, open: ['f1', 'f2'] });
  });

  it('the split with the fewest open cases is taken, as evaluating every split in full takes it', () => {
    // root2: (d ?x) (three ?x) (pair ?x). three leaves three cases open, pair two (its (e ?x)
    // case closes): pair is taken, and its last open case (f2) is split on three next, whose
    // three cases stay open; then nothing is left to split, so the body is not refuted.
    const { closed, open } = splitCases('root2');
    expect(closed).toBe(false);
    // At the root, three's three cases and pair's two open ones (in any order: every case of both
    // is needed to know which leaves fewer open); then pair's case f2 with each of three's.
    // Taking three (the first literal) would split its case f3 on pair instead: f3 f1, f3 f2.
    expect(open.filter((c) => !c.includes(' ')).sort()).toEqual(['f1', 'f1', 'f2', 'f2', 'f3']);
    expect(open.filter((c) => c.includes(' '))).toEqual(['f2 f1', 'f2 f2', 'f2 f3']);
  });
});

describe('lifted proofs through derived relations and fluent values', () => {
  it('a legal rule that passes the move on to another relation is read as its rules: the turn they read is seen', () => {
    expect(lifted(lastGame(false), false).get('last/1 []')).toBe(true);
    // Before legal rules passing the move on were read as pick's rules, this one was not proven: both roles' moves stayed possible together.
    expect(lifted(lastGame(true), false).get('last/1 []')).toBe(true);
  });

  it('a legal rule that passes the move on with its arguments swapped is not read as the other relation\'s rules: the false group is not proven', () => {
    // games/mutex-legal-swapped.kif: both roles set a square at once, so last/1 [] is false.
    expect(lifted(readFileSync(join(EXAMPLES_DIR, 'mutex-legal-swapped.kif'), 'utf8'), false).get('last/1 []')).toBe(false);
  });

  it('a counter whose next rules read derived relations: proven by unfolding them, not when a step is both short and long', () => {
    expect(lifted(counterGame(false), false).get('count/1 []')).toBe(true);
    // A step that is both near and far raises the counter and keeps it: two counts hold next.
    expect(lifted(counterGame(true), false).get('count/1 []')).toBe(false);
  });

  it('a square placed on only when empty: proven by splitting the kept stone over its colours, not when any square may be placed on', () => {
    expect(lifted(placeGame(false), true).get('cell/3 [0,1]')).toBe(true);
    // Without the fluents' values the kept stone's colour stays open: not proven.
    expect(lifted(placeGame(false), false).get('cell/3 [0,1]')).toBe(false);
    // Placing on a stone of the other colour makes the square hold both.
    expect(lifted(placeGame(true), true).get('cell/3 [0,1]')).toBe(false);
  });

  it("the library's groups say how they were proven", () => {
    const loaded = loadGame(readFileSync(join(EXAMPLES_DIR, 'tictactoe.kif'), 'utf8'), { file: 'tictactoe.kif' });
    if (!loaded.ok) throw new Error('invalid game');
    const mutex = apiMutexGroups(groundGame(loaded.game), { playouts: 20, seed: 3 });
    expect(mutex.groups.length).toBe(10);
    expect(mutex.groups.map((g) => g.proof)).toEqual(mutex.groups.map(() => 'lifted'));
    for (const g of mutex.groups) expect(g.proven).toBe(g.proof === 'lifted' || g.proof === 'ground');
  });
});
