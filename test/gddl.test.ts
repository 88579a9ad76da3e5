// GDDL output and read-back (src/formats/gddl, src/formats/gddl; docs/gddl.md): names are reversible and
// collision-free, the three files of example and corpus games are read back and played
// against the original game's reasoner state by state (turn-taking, simultaneous, recursive
// games), combinations are dropped only by proven mutex groups, the blow-up ends in a limit
// error naming the sizes, and malformed files are refused with a position.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TermTable } from '../src/datalog/terms.js';
import { Deadline } from '../src/deadline.js';
import { type Combinations, combinations } from '../src/formats/gddl/combine.js';
import { literal } from '../src/formats/gddl/literals.js';
import { escapeSymbol, nameToKif, termName, unescapeSymbol } from '../src/formats/gddl/names.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { readGddl } from '../src/formats/gddl/read.js';
import {
  DEFAULT_AXIOM_OPTIONS, DEFAULT_MUTEX_SETTINGS, defaultPipelineOptions,
} from '../src/pipeline/stages.js';
import { formatDifference } from '../src/pipeline/stages-play.js';
import { DEFAULT_GDDL_OPTIONS } from '../src/pipeline/formats.js';
import { readGddlFiles, verifyGddl } from '../src/pipeline/formats-verify.js';
import { type GddlOutput, loadRun } from '../src/pipeline/recipes/index.js';
import { gddlRecipe } from '../src/pipeline/recipes/gddl.js';
import { testContext } from './support/context.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

const SETTINGS = { gddl: DEFAULT_GDDL_OPTIONS, axioms: DEFAULT_AXIOM_OPTIONS, mutex: DEFAULT_MUTEX_SETTINGS };

/** Writes the GDDL files of a game, reads them back and plays them against the original. */
function roundTrip(text: string, file: string, playouts: number, settings = SETTINGS): GddlOutput {
  const ctx = testContext(file);
  const loaded = loadRun(ctx, text);
  const out = gddlRecipe(ctx, loaded, { keepUnused: false, ...settings }).output;
  const game = readGddlFiles(out.files, 'out');
  const result = verifyGddl(loaded.normal, game, defaultPipelineOptions(), { playouts, seed: 5, maxSteps: 80 });
  if (result.kind === 'different') expect.fail(formatDifference(result.difference));
  expect(result.stats.transitions).toBeGreaterThan(0);
  return out;
}

describe('GDDL names', () => {
  it('flatten as on the slides and read back', () => {
    const t = new TermTable();
    const cell = t.compound('cell', [t.constant('1'), t.constant('1'), t.constant('x')]);
    expect(termName(t, cell)).toBe('cell-1-1-x');
    expect(nameToKif('cell-1-1-x')).toBe('(cell 1 1 x)');
    expect(nameToKif('noop')).toBe('noop');
  });

  it('escape every character that could collide, and nested terms', () => {
    const t = new TermTable();
    const c = (name: string): number => t.constant(name);
    const a = t.compound('a-b', [c('c')]);
    const b = t.compound('a', [c('b'), c('c')]);
    const nested = t.compound('cell', [t.compound('pos', [c('1'), c('2')]), c('x')]);
    const flat = t.compound('cell', [c('pos'), c('1'), c('2'), c('x')]);
    const names = [a, b, nested, flat].map((id) => termName(t, id));
    expect(new Set(names).size).toBe(4);
    expect(names[0]).toBe('a_db-c');
    expect(names[2]).toBe('cell-_o-pos-1-2-_c-x');
    for (const id of [a, b, nested, flat]) expect(nameToKif(termName(t, id))).toBe(t.text(id));
    for (const s of ['piece_count', 'a.b', 'X1', '+', '_', '-', '__x']) expect(unescapeSymbol(escapeSymbol(s))).toBe(s);
    expect(escapeSymbol('piece_count')).toBe('piece__count');
  });

  it('keep the reserved names out of reach of any symbol', () => {
    expect(nameToKif('_true')).toBeUndefined();
    expect(unescapeSymbol('_ax')).toBeUndefined();
    expect(escapeSymbol('_true')).toBe('__true');
  });
});

describe('combinations', () => {
  const limits = { maxActions: 1000, deadline: Deadline.never(), file: 'g.kif' };
  it('drop combinations that contradict or that a proven group excludes, and never the others', () => {
    // Atoms 1 and 2 form a proven group (control x, control o); atom 3 is a free fluent.
    const groupOf = new Map([[1, 0], [2, 0]]);
    const roles = [
      { role: 'x', literals: [[literal(1, true)], [literal(3, true)], [literal(3, false)]] },
      { role: 'o', literals: [[literal(2, true)], [literal(3, true)]] },
    ];
    const c: Combinations = combinations(roles, { groupOf, exactlyOne: new Map() }, limits);
    expect(c.crossProduct).toBe(6n);
    // (0, 0) needs both members of the group, (2, 1) atom 3 true and false.
    expect(c.combos.map((m) => [...m])).toEqual([[0, 1], [1, 0], [1, 1], [2, 0]]);
  });

  it('drop the combinations that need every member of a proven exactly-one group false, and only those', () => {
    // Atoms 1 and 2 (control x, control o) form a group proven exactly-one: each noop needs its
    // own role not in control; both noops at once would leave no one in control.
    const roles = [
      { role: 'x', literals: [[literal(1, true)], [literal(1, false)]] },
      { role: 'o', literals: [[literal(2, true)], [literal(2, false)]] },
    ];
    const groupOf = new Map([[1, 0], [2, 0]]);
    expect(combinations(roles, { groupOf, exactlyOne: new Map([[0, 2]]) }, limits).combos.map((m) => [...m])).toEqual([[0, 1], [1, 0]]);
    // At most one only: the two noops stay; a group of three members is not emptied by two.
    expect(combinations(roles, { groupOf, exactlyOne: new Map() }, limits).combos.map((m) => [...m])).toEqual([[0, 1], [1, 0], [1, 1]]);
    expect(combinations(roles, { groupOf, exactlyOne: new Map([[0, 3]]) }, limits).combos.map((m) => [...m])).toEqual([[0, 1], [1, 0], [1, 1]]);
  });

  it('skip the moves a proven group excludes class by class, not one test per pair of moves', () => {
    // Turn-taking with 3,000 moves per role (amazons' shape): each role's moves need its own
    // control, its noop the other's. One test per pair would pass the search's budget.
    const role = (own: number, other: number): { role: string; literals: number[][] } => ({
      role: `r${own}`, literals: [...Array.from({ length: 3000 }, (_, m) => [literal(own, true), literal(10 + m, true)]), [literal(other, true)]],
    });
    const c = combinations([role(1, 2), role(2, 1)], { groupOf: new Map([[1, 0], [2, 0]]), exactlyOne: new Map() }, { ...limits, maxActions: 10_000 });
    expect(c.combos.length).toBe(6000);
    expect([...c.combos[0]!]).toEqual([0, 3000]);
    expect([...c.combos[5999]!]).toEqual([3000, 2999]);
    expect(c.tests).toBeLessThan(20_000);
  });

  it('end with a limit error naming the sizes', () => {
    const roles = Array.from({ length: 6 }, (_, i) => ({ role: `r${i}`, literals: Array.from({ length: 20 }, () => [] as number[]) }));
    let error: unknown;
    try {
      combinations(roles, { groupOf: new Map(), exactlyOne: new Map() }, limits);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(GdlError);
    expect((error as GdlError).code).toBe('limit');
    expect((error as GdlError).message).toContain('6 roles (moves each: r0 20');
    expect((error as GdlError).message).toContain('cross product 64000000');
  });
});

describe('GDDL of example games', () => {
  it('tic-tac-toe: 18 multi-actions of 100, as on slide 46, plays identically', () => {
    const out = roundTrip(example('tictactoe.kif'), 'tictactoe.kif', 10);
    expect(out.model.stats.crossProduct).toBe(100n);
    expect(out.model.stats.written).toBe(18);
    expect(out.model.stats.turnTaking).toBe(true);
    const d = out.files.domain;
    expect(d).toContain('(:multi-action :player xplayer :action mark-2-2 :player oplayer :action noop\n    :global-precondition (and (cell-2-2-b) (control-xplayer))');
    expect(d).toContain(':precondition (or (cell-2-2-x) (cell-2-2-b)) :effect (cell-2-2-x)');
    expect(d).toContain('(:reward :player xplayer :value 100 :condition (or (and (cell-1-1-x) (cell-2-1-x) (cell-3-1-x))');
    expect(out.files.problem).toContain('(:init (cell-1-1-b) (cell-1-2-b)');
    expect(out.files.partition).toContain('(:group :proven :exactly-one (control-oplayer) (control-xplayer))');
    // Deterministic byte for byte.
    expect(roundTrip(example('tictactoe.kif'), 'tictactoe.kif', 1).files).toEqual(out.files);
  });

  it('a recursive game: kept axioms become derived predicates with strata', () => {
    const out = roundTrip(example('linkpath.kif'), 'linkpath.kif', 20);
    expect(out.model.stats.derived).toBeGreaterThan(0);
    expect(out.files.domain).toMatch(/\(:derived \(_ax-reach-[a-z0-9-]+\) :stratum \d+ :condition /);
  });

  it('kept axioms over does are substituted into the effects; those over the state stay derived', () => {
    const out = roundTrip(example('gddl-does-axiom.kif'), 'gddl-does-axiom.kif', 20, { ...SETTINGS, axioms: { maxFormula: 1 } });
    expect(out.axioms.stats.kept.map((k) => k.atom)).toContain('(pressed 1)');
    expect(out.model.derived.map((d) => d.name)).toEqual(['_ax-alllit']);
    expect(out.files.domain).not.toContain('_ax-pressed');
    expect(out.model.stats.written).toBe(9);
    expect(out.model.stats.turnTaking).toBe(false);
  });

  it('nim and buttons play identically', () => {
    roundTrip(example('nim.kif'), 'nim.kif', 10);
    roundTrip(example('buttons.kif'), 'buttons.kif', 10);
  });

  it('the partition holds every fluent exactly once, observed groups marked apart', () => {
    // A group left observed: no search over every reachable state (2f), and the projection search
    // (2m) cannot prove the twin's group, which is false (the bonus move outside its projection).
    const out = roundTrip(example('mutex-projection-bonus.kif'), 'mutex-projection-bonus.kif', 5, { ...SETTINGS, mutex: { ...DEFAULT_MUTEX_SETTINGS, maxStates: 0 } });
    const game = readGddlFiles(out.files, 'out');
    const members = game.groups.flatMap((g) => g.members).sort((a, b) => a - b);
    expect(members).toEqual(game.fluents.map((_, i) => i));
    expect(out.files.partition).toContain(':observed');
  });

  it('the blow-up game ends with a limit error naming the sizes', () => {
    let error: unknown;
    try {
      roundTrip(example('gddl-blowup.kif'), 'gddl-blowup.kif', 1);
    } catch (err) {
      error = err;
    }
    expect((error as GdlError).code).toBe('limit');
    expect((error as GdlError).message).toContain('cross product 2985984');
  });
});

describe('GDDL reader', () => {
  const files = { domain: '(define (domain d) (:roles r) (:predicates (_true) (p))\n (:multi-action :player r :action a :global-precondition (q)))', problem: '(define (problem d) (:init) (:terminal (p)))', partition: '(define (partition d) (:group :singleton (p)))' };
  it('refuses an unknown predicate with its position', () => {
    expect(() => readGddl(files, 'dir')).toThrow(/dir\/domain.gddl:2:59: error: unknown predicate 'q'/);
  });
  it('refuses a partition that misses a fluent', () => {
    expect(() => readGddl({ ...files, domain: files.domain.replace('(q)', '(p)'), partition: '(define (partition d))' }, 'dir')).toThrow(/'p' is in no group/);
  });
});

describe.skipIf(!HAVE_CORPUS)('GDDL of corpus games', () => {
  it('connect four (turn-taking): 16 multi-actions of 81', () => {
    const out = roundTrip(readGame('ggp-base-test/connectFour.kif'), 'connectFour.kif', 5);
    expect(out.model.stats.written).toBe(16);
    expect(out.model.stats.crossProduct).toBe(81n);
  });

  it("simultaneous moves: the prisoner's dilemma and blocker keep their whole cross product", () => {
    const prisoner = roundTrip(readGame('ggp-repository-base/gt_prisoner.kif'), 'gt_prisoner.kif', 5);
    expect(prisoner.model.stats.written).toBe(4);
    expect(prisoner.model.stats.turnTaking).toBe(false);
    const blocker = roundTrip(readGame('ggp-repository-base/blocker.kif'), 'blocker.kif', 5);
    expect(blocker.model.stats.written).toBe(256);
  });
});
