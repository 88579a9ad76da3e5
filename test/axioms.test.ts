// Unused-instance elimination and axiom removal (src/axioms): the formula constructors'
// simplifications, deep formulas, the size guard, recursive axioms, the deadline, and play:
// the game without axioms, written as GDL and read back through loadGame, plays identically to
// the original under the Tau-Prolog reasoner; the game without unused instances, under the
// ground simulator.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeAxioms } from '../src/axioms/remove.js';
import { type Formula, FormulaTable, postOrder } from '../src/axioms/formula.js';
import { type AxiomResult, GROWTH_FLOOR, defaultGrowthBudget } from '../src/axioms/types.js';
import { neededAtoms, removeUnused } from '../src/axioms/unused.js';
import { Deadline } from '../src/deadline.js';
import { emitFormulaGdlBytes } from '../src/formats/gdl/formula.js';
import { decodeChunks } from '../src/formats/gdl/bytes.js';
import type { Formula as AstFormula } from '../src/gdl/ast.js';
import { KEYWORDS } from '../src/gdl/ast.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { parseGdl } from '../src/gdl/parser.js';
import { atomToString } from '../src/gdl/terms.js';
import type { GroundGame } from '../src/ground/types.js';
import { defaultPipelineOptions, type PipelineOptions, loadGame, runGrounding } from '../src/pipeline/stages.js';
import { createGroundSimulator } from '../src/play/ground-sim.js';
import { createReasoner } from '../src/play/reasoner.js';
import type { GameSimulator } from '../src/play/types.js';
import { formatDifference, verifyGame } from '../src/play/verify.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';

/** Options to read a game without axioms: large ground subformulas become named relations. */
const READ_BACK: PipelineOptions = { ...defaultPipelineOptions(), normalize: { ...defaultPipelineOptions().normalize, splitGround: true } };

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

// Simulators compared only through their text view.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySimulator = GameSimulator<any, any, any>;

function ground(text: string, file: string): { original: AnySimulator; game: GroundGame } {
  const { loaded, ground: game } = runGrounding(text, file, defaultPipelineOptions(), new StageTimer());
  return { original: createReasoner(loaded.normal, { deadline: Deadline.never() }), game };
}

function expectSame(a: AnySimulator, b: AnySimulator, playouts: number): void {
  const result = verifyGame(a, b, { playouts, seed: 11, maxSteps: 60 });
  if (result.kind === 'different') expect.fail(formatDifference(result.difference));
  expect(result.stats.transitions).toBeGreaterThan(0);
}

/** Every atom in a parsed body, with its relation. */
function bodyAtoms(body: readonly AstFormula[]): { rel: string; text: string }[] {
  const out: { rel: string; text: string }[] = [];
  const stack = [...body];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.kind === 'atom') out.push({ rel: f.rel, text: atomToString(f) });
    else if (f.kind === 'not') stack.push(f.arg);
    else if (f.kind === 'and' || f.kind === 'or') stack.push(...f.args);
  }
  return out;
}

/** Non-keyword atoms that rule bodies of `text` mention outside `kept`. */
function strayAxioms(text: string, kept: readonly string[]): string[] {
  const allowed = new Set(kept);
  const parsed = parseGdl(text, 'out.kif', Deadline.never());
  return parsed.game.rules.flatMap((r) => bodyAtoms(r.body)).filter((a) => !KEYWORDS.has(a.rel) && !allowed.has(a.text)).map((a) => a.text);
}

/** Removes unused instances and axioms, writes GDL, reads it back and plays it against the original. */
function roundTrip(text: string, file: string, playouts: number, run = (g: GroundGame): AxiomResult => removeAxioms(g, undefined, Deadline.never())): AxiomResult & { text: string } {
  const { original, game } = ground(text, file);
  const result = run(removeUnused(game, Deadline.never()).game);
  const out = decodeChunks(emitFormulaGdlBytes(result.game, undefined, Deadline.never()));
  expect(strayAxioms(out, result.stats.kept.map((k) => k.atom))).toEqual([]);
  expectSame(original, createReasoner(loadGame(out, `${file} (no axioms)`, READ_BACK, new StageTimer()).normal, { deadline: Deadline.never() }), playouts);
  return { ...result, text: out };
}

describe('formula constructors', () => {
  const t = new FormulaTable();
  const [a, b, c] = [t.atom(1), t.atom(2), t.atom(3)];

  it('fold constants, flatten, drop duplicates and detect contradictions', () => {
    expect(t.and([a, t.TRUE, a])).toBe(a);
    expect(t.and([a, t.FALSE])).toBe(t.FALSE);
    expect(t.or([a, t.TRUE])).toBe(t.TRUE);
    expect(t.or([])).toBe(t.FALSE);
    expect(t.and([a, t.and([b, c])])).toBe(t.and([c, b, a]));
    expect(t.and([a, t.not(a)])).toBe(t.FALSE);
    expect(t.or([b, t.not(b)])).toBe(t.TRUE);
    expect(t.not(t.not(a))).toBe(a);
  });

  it('drop subsumed disjuncts and conjuncts', () => {
    expect(t.or([t.and([a, b]), a])).toBe(a);
    expect(t.or([t.and([a, b, c]), t.and([a, b])])).toBe(t.and([a, b]));
    expect(t.and([t.or([a, b]), a])).toBe(a);
    expect(t.and([a, t.not(t.and([a, b]))])).toBe(t.and([a, t.not(b)]));
    expect(t.and([a, t.or([t.not(a), b])])).toBe(t.and([a, b]));
  });

  it('measure size and depth without walking', () => {
    const f = t.not(t.or([t.and([a, b]), c]));
    expect(f.size).toBe(6);
    expect(f.depth).toBe(4);
  });

  it('handle formulas nested 100,000 deep without recursion', () => {
    const u = new FormulaTable();
    let f: Formula = u.atom(0);
    for (let i = 1; i <= 50_000; i++) f = u.or([u.atom(2 * i), u.and([u.atom(2 * i + 1), f])]);
    expect(f.depth).toBe(100_001);
    let atoms = 0;
    postOrder([f], (g) => {
      if (g.kind === 'atom') atoms++;
    });
    expect(atoms).toBe(100_001);
  });
});

describe('unused instances', () => {
  it('drops the instances no output needs, and only those', () => {
    const { original, game } = ground(example('linkpath.kif'), 'linkpath.kif');
    const { game: used, stats } = removeUnused(game, Deadline.never());
    const rel = (g: GroundGame, x: { rel: number }): string => g.terms.symbolName(x.rel);
    const text = (g: GroundGame, id: number): string => g.terms.text(g.atoms[id]!.term);
    expect(game.atoms.some((x) => rel(game, x) === 'shadow')).toBe(true);
    expect(used.atoms.some((x) => rel(used, x) === 'shadow')).toBe(false);
    // shadow is never read; linked and seen are read only for distinct nodes.
    const usedTexts = new Set(used.atoms.map((_, i) => text(used, i)));
    const dropped = game.rules.filter((r) => !usedTexts.has(text(game, r.head)));
    expect(dropped.map((r) => text(game, r.head))).toEqual([
      '(linked a a)', '(linked b b)', '(linked c c)', '(seen a)', '(shadow a)', '(shadow b)', '(shadow c)',
    ]);
    expect(stats.rulesAfter).toBe(game.rules.length - dropped.length);
    expect(used.rules.length).toBe(stats.rulesAfter);
    // Idempotent, and everything left is needed.
    expect(removeUnused(used, Deadline.never()).game).toEqual(used);
    const needed = neededAtoms(used, Deadline.never());
    expect(used.rules.every((r) => needed[r.head] === 1)).toBe(true);
    expectSame(original, createGroundSimulator(used, Deadline.never()), 10);
  });

  for (const name of ['tictactoe.kif', 'nim.kif', 'buttons.kif', 'ring.kif']) {
    it(`plays ${name} identically`, () => {
      const { original, game } = ground(example(name), name);
      expectSame(original, createGroundSimulator(removeUnused(game, Deadline.never()).game, Deadline.never()), 3);
    });
  }
});

describe('axiom removal', () => {
  it('turns tic-tac-toe goals into formulas over true (slide 41)', () => {
    const r = roundTrip(example('tictactoe.kif'), 'tictactoe.kif', 4);
    expect(r.stats.kept).toEqual([]);
    expect(r.stats.removed).toBe(r.stats.axioms);
    expect(r.stats.axioms).toBeGreaterThan(0);
    expect(r.warnings).toEqual([]);
    const wins = r.text.split('\n').filter((l) => l.startsWith('(<= (goal xplayer 100) '));
    // One rule per line of three: 3 rows, 3 columns, 2 diagonals.
    expect(wins).toHaveLength(8);
    expect(wins).toContain('(<= (goal xplayer 100) (true (cell 1 1 x)) (true (cell 2 2 x)) (true (cell 3 3 x)))');
    // The draw is a negated disjunction, kept as (not (or ...)) rather than expanded.
    expect(r.text).toMatch(/\(<= \(goal xplayer 50\) \(not \(or \(and /);
  });

  it('keeps recursive axioms as rules and reports them', () => {
    const r = roundTrip(example('linkpath.kif'), 'linkpath.kif', 10);
    expect(r.stats.keptByReason).toEqual({ recursive: 9, size: 0, growth: 0 });
    expect(new Set(r.stats.kept.map((k) => k.atom.split(' ')[0]))).toEqual(new Set(['(reach']));
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('recursive: reach (9)');
  });

  it('keeps axioms whose substitution exceeds maxFormula, with a warning', () => {
    const r = roundTrip(example('tictactoe.kif'), 'tictactoe.kif', 4, (g) => removeAxioms(g, { maxFormula: 12 }, Deadline.never()));
    expect(r.stats.keptByReason.size).toBeGreaterThan(0);
    expect(r.stats.largestAfter).toBeLessThanOrEqual(12);
    expect(r.warnings.join('\n')).toContain('exceed the formula size limit of 12 nodes');
  });

  it('keeps axioms whose substitution would pass the growth budget, with a warning', () => {
    const all = removeAxioms(removeUnused(ground(example('tictactoe.kif'), 't').game, Deadline.never()).game, undefined, Deadline.never());
    // Default: the floor, far above tic-tac-toe's 900 nodes.
    expect(all.stats.budget).toBe(defaultGrowthBudget(all.stats.sizeBefore));
    expect(all.stats.budget).toBe(GROWTH_FLOOR);
    expect(all.stats.keptByReason.growth).toBe(0);
    // A budget between the input's size and the full substitution's keeps some, not all.
    const budget = all.stats.sizeBefore + 100;
    const r = roundTrip(example('tictactoe.kif'), 'tictactoe.kif', 4, (g) => removeAxioms(g, { maxFormula: 2000, maxTotal: budget }, Deadline.never()));
    expect(r.stats.budget).toBe(budget);
    expect(r.stats.keptByReason.growth).toBeGreaterThan(0);
    expect(r.stats.removed).toBeGreaterThan(0);
    expect(r.stats.sizeAfter).toBeLessThanOrEqual(budget);
    expect(r.warnings.join('\n')).toContain(`push the total body size over the budget of ${budget} nodes`);
    // Deterministic: the same text twice.
    const again = removeAxioms(removeUnused(ground(example('tictactoe.kif'), 't').game, Deadline.never()).game, { maxFormula: 2000, maxTotal: budget }, Deadline.never());
    expect(decodeChunks(emitFormulaGdlBytes(again.game, undefined, Deadline.never()))).toBe(r.text);
  });

  it('throws a limit error when the deadline has passed, in removal and in writing', () => {
    const game = removeUnused(ground(example('tictactoe.kif'), 't').game, Deadline.never()).game;
    const limit = (f: () => unknown): void => {
      try {
        f();
        expect.fail('no limit error');
      } catch (err) {
        expect(err).toBeInstanceOf(GdlError);
        expect((err as GdlError).code).toBe('limit');
        expect((err as GdlError).message).toContain('time limit reached');
      }
    };
    limit(() => removeAxioms(game, undefined, new Deadline(0)));
    limit(() => decodeChunks(emitFormulaGdlBytes(removeAxioms(game, undefined, Deadline.never()).game, undefined, new Deadline(0))));
  });

  it('writes the same text twice', () => {
    const game = removeUnused(ground(example('tictactoe.kif'), 't').game, Deadline.never()).game;
    expect(decodeChunks(emitFormulaGdlBytes(removeAxioms(game, undefined, Deadline.never()).game, undefined, Deadline.never()))).toBe(decodeChunks(emitFormulaGdlBytes(removeAxioms(game, undefined, Deadline.never()).game, undefined, Deadline.never())));
  });

  it('leaves games without axioms as they are', () => {
    const r = roundTrip(example('nim.kif'), 'nim.kif', 3);
    expect(r.stats.axioms).toBe(r.stats.removed);
    expect(r.stats.rulesAfter).toBeGreaterThan(0);
  });
});

describe('reading formula bodies back', () => {
  const draw = '(role p) (init (c 0)) (<= (legal p go) (true (c 0))) (<= (next (c 1)) (does p go)) (<= terminal (true (c 1))) (<= (goal p 0) (true (c 0)))';
  const big = (v: string): string => `(not (or ${[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `(and (true (c ${i})) (true (d ${i})) (true (e ${i})))`).join(' ')}))`;
  const text = `${draw} (<= (goal p 100) (true (c 1)) ${big('x')} ${big('y')})`;

  it('refuses a DNF beyond the limit by default, and names ground subformulas with splitGround', () => {
    expect(() => loadGame(text, 'big.kif', defaultPipelineOptions(), new StageTimer())).toThrow(GdlError);
    const normal = loadGame(text, 'big.kif', READ_BACK, new StageTimer()).normal;
    expect(normal.rules.some((r) => r.head.rel.startsWith('split_'))).toBe(true);
    const state = createReasoner(normal, { deadline: Deadline.never() });
    const after = state.successor(state.initialState(), [state.info(state.initialState()).legal[0]![0]!]);
    expect(state.info(after).goals[0]).toEqual(['100']);
  });
});

/** Corpus games: recursion, simultaneous moves, or/not/distinct, 1-3 roles. */
const CORPUS: readonly [string, number][] = [
  ['ggp-repository-base/ticTacToe.kif', 2],
  ['ggp-base-test/connectFour.kif', 1],
  ['ggp-repository-base/nim1.kif', 2], // recursive, distinct
  ['ggp-repository-base/hanoi.kif', 1], // recursive tower
  ['ggp-repository-base/blocker.kif', 2], // simultaneous moves
  ['ggp-base-test/test_case_5c.kif', 2], // recursive
  ['ggp-repository-base/lightsOut.kif', 1],
  ['ggp-repository-base/3pConnectFour.kif', 1], // three roles
];

describe.skipIf(!HAVE_CORPUS)('axiom removal on a large game (atariGo 7x7: 152,504 rules)', () => {
  let game: GroundGame | undefined;
  const atari = (): GroundGame => (game ??= runGrounding(readGame('ggp-repository-base/atariGo_7x7.kif'), 'atariGo_7x7.kif', defaultPipelineOptions(), new StageTimer()).ground);

  it('stops within a fraction of a second of the deadline, with a limit error', () => {
    const g = atari();
    // No growth budget to speak of, so that the whole run would take seconds.
    const started = Date.now();
    const deadline = Deadline.in(0.3);
    expect(() => removeAxioms(g, { maxFormula: 2000, maxTotal: Number.MAX_SAFE_INTEGER }, deadline)).toThrow(/axiom removal: time limit reached/);
    const late = Date.now() - deadline.at;
    expect(late).toBeLessThan(500);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  }, 120_000);

  it('keeps the output within the default growth budget (4 times the input)', () => {
    const r = removeAxioms(atari(), undefined, Deadline.never());
    expect(r.stats.budget).toBe(4 * r.stats.sizeBefore);
    expect(r.stats.keptByReason.growth).toBeGreaterThan(0);
    expect(r.stats.sizeAfter).toBeLessThanOrEqual(r.stats.budget);
    expect(r.warnings.some((w) => w.includes('over the budget'))).toBe(true);
  }, 120_000);
});

describe.skipIf(!HAVE_CORPUS)('axiom removal on corpus games', () => {
  for (const [rel, playouts] of CORPUS) {
    it(rel, () => {
      const r = roundTrip(readGame(rel), rel, playouts);
      expect(r.stats.removed + r.stats.kept.length).toBe(r.stats.axioms);
    }, 120_000);
  }
});
