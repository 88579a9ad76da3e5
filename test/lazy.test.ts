// Lazy axioms (docs/lazy.md): which relations and rules go lazy, the ground game and its output
// with and without them, the evaluator of the lazy part against a direct computation, verify
// of the lazy ground game (in memory and read back from its GDL), and the refusals.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GdlError } from '../src/gdl/diagnostics.js';
import { planLazy, seedOfLimit } from '../src/ground/lazy.js';
import type { GroundGame } from '../src/ground/types.js';
import {
  type PipelineOptions, emitGround, groundNormalGame, loadGame, loadGroundFile, removeGameAxioms, removeUnusedInstances, resolvePipelineOptions, DEFAULT_MUTEX_SETTINGS,
} from '../src/pipeline/stages.js';
import { formatDifference, mutexGroups, verifyAgainst, verifyGrounding } from '../src/pipeline/stages-play.js';
import { createLazyEvaluator } from '../src/play/lazy.js';
import type { VerifyResult } from '../src/play/verify.js';
import { EXAMPLES_DIR } from './examples.js';
import { StageTimer } from '../src/timer.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { DEFAULT_AXIOM_OPTIONS } from '../src/axioms/types.js';
import { Deadline } from '../src/deadline.js';

const FILE = 'lazy-walk.kif';
const TEXT = readFileSync(join(EXAMPLES_DIR, FILE), 'utf8');

function ground(options: PipelineOptions, text = TEXT): { normal: ReturnType<typeof loadGame>['normal']; game: GroundGame } {
  const loaded = loadGame(text, FILE, options, new StageTimer());
  const full = groundNormalGame(loaded.normal, options, new StageTimer()).ground;
  return { normal: loaded.normal, game: removeUnusedInstances(full, new StageTimer(), options).game };
}

const LAZY = resolvePipelineOptions({ lazyRelations: ['path'] });

function expectSame(result: VerifyResult): void {
  if (result.kind === 'different') expect.fail(formatDifference(result.difference));
  expect(result.stats.states).toBeGreaterThan(result.stats.playouts);
}

describe('planning', () => {
  it('makes path lazy, with the rules that read it positively under a keyword head', () => {
    const plan = planLazy(loadGame(TEXT, FILE, LAZY, new StageTimer()).normal, ['path']);
    expect(plan.relations).toEqual(['path']);
    expect(plan.lazyRules.map((r) => `${r.head.rel}@${r.pos.line}`)).toEqual(['legal@14', 'goal@27']);
    expect(plan.statics).toEqual(['cell', 'succ']);
    expect(plan.ground.rules.some((r) => r.head.rel === 'path')).toBe(false);
  });

  it('names the relation or, for a keyword rule, the rule to make lazy after a limit', () => {
    expect(seedOfLimit({ relation: 'queen_threatens', line: 3, col: 1 })).toBe('queen_threatens');
    expect(seedOfLimit({ relation: 'next', line: 118, col: 1 })).toBe('@118:1');
    expect(seedOfLimit({ relation: 'does', line: 14, col: 1 })).toBeUndefined();
    // The message is never read: a limit without the field names nothing to make lazy.
    expect(seedOfLimit({ line: 3, col: 1 })).toBeUndefined();
  });

  it('gets the relation as data from the limit errors of instantiation', () => {
    const strict = resolvePipelineOptions({ maxGroundRules: 60 });
    const err = (() => {
      try {
        ground(strict);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(GdlError);
    const first = (err as GdlError).diagnostics[0]!;
    expect(first.relation).toBe('legal');
    expect(first.message).toContain("rule for 'legal");
    expect(seedOfLimit(first)).toBe(`@${first.line}:${first.col}`);
  });

  it('keeps a lazy literal in the relaxed game where it alone binds a head variable, and plays like the original', () => {
    const text = TEXT.replace('(true (at ?x)) (cell ?y) (path ?x ?y)', '(true (at ?x)) (path ?x ?y)');
    const loaded = loadGame(text, FILE, LAZY, new StageTimer());
    const plan = planLazy(loaded.normal, ['path']);
    const relaxed = plan.relaxed.rules.find((r) => r.head.rel === 'legal' && r.body.some((l) => l.kind === 'pos' && l.atom.rel === 'path'));
    expect(relaxed).toBeDefined();
    // The relaxed game then needs path's own rules, or the legal rule would have no heads.
    expect(plan.relaxed.rules.some((r) => r.head.rel === 'path')).toBe(true);
    const { normal, game } = ground(LAZY, text);
    expect(game.lazy?.relations).toEqual(['path']);
    expectSame(verifyGrounding(normal, game, LAZY, { playouts: 12, seed: 3, maxSteps: 50 }));
  });
});

describe('a lazy program that reads a keyword, beside a relation read with the joint move', () => {
  const file = 'lazy-keyword.kif';
  const text = readFileSync(join(EXAMPLES_DIR, file), 'utf8');

  it('reads legal through its own copy and keeps free ground and non-ground, and plays like the original', () => {
    const loaded = loadGame(text, file, LAZY, new StageTimer());
    const plan = planLazy(loaded.normal, ['path']);
    expect(plan.relations).toEqual(['canmove', 'legal_read', 'path']);
    // free stays out of L: making it lazy would make moving (which reads does) lazy too.
    expect(plan.program).toContain('free');
    // A keyword is never taken for a static relation of the lazy program (its facts would be wrong).
    expect(plan.statics).toEqual(['cell', 'succ']);
    const full = groundNormalGame(loaded.normal, LAZY, new StageTimer()).ground;
    const game = removeUnusedInstances(full, new StageTimer(), LAZY).game;
    expectSame(verifyGrounding(loaded.normal, game, LAZY, { playouts: 20, seed: 3, maxSteps: 50 }));
    const back = loadGroundFile(emitGround(game, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions()), 'out.gdl', LAZY, new StageTimer());
    expectSame(verifyAgainst(loaded.normal, back.normal, LAZY, { playouts: 8, seed: 5, maxSteps: 50 }));
  });
});

describe('a ground axiom that reads a keyword with a lazy rule', () => {
  const file = 'lazy-keyword-ground.kif';
  const text = readFileSync(join(EXAMPLES_DIR, file), 'utf8');
  // Line 14's legal rule left non-ground as a whole, as a limit on its join does (PORTUGAL).
  const forced = resolvePipelineOptions({ lazyRelations: ['blocked', '@14:1'] });

  it('makes the axiom lazy, reading its own copy of legal, and plays like the original', () => {
    const loaded = loadGame(text, file, forced, new StageTimer());
    const plan = planLazy(loaded.normal, ['blocked', '@14:1']);
    // canmove's only moves are the lazy rule's: instantiated, it would have none (always terminal).
    expect(plan.relations).toEqual(['blocked', 'canmove']);
    expect(plan.program).toContain('legal_read');
    const full = groundNormalGame(loaded.normal, forced, new StageTimer()).ground;
    const game = removeUnusedInstances(full, new StageTimer(), forced).game;
    expectSame(verifyGrounding(loaded.normal, game, forced, { playouts: 4, seed: 1, maxSteps: 10 }));
  });
});

describe('refusals', () => {
  it('refuses a lazy relation that reads the joint move', () => {
    const text = `${TEXT}\n(<= (building ?c) (does blocker (build ?c)))\n(<= (next (built ?c)) (cell ?c) (not (building ?c)))\n`;
    const forced = resolvePipelineOptions({ lazyRelations: ['building'] });
    expect(() => ground(forced, text)).toThrow(/'building' depends on the joint move/);
  });
});

describe('the ground game', () => {
  it('without lazy axioms has no lazy part and its output says nothing of one', () => {
    const { game } = ground(resolvePipelineOptions({}));
    expect('lazy' in game).toBe(false);
    const gdl = emitGround(game, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions());
    expect(gdl).not.toContain('lazy');
    expect(gdl).toContain('(path 1 6)');
    expect(emitGround(game, 'json', { baseInput: true }, new StageTimer(), defaultPipelineOptions())).not.toContain('"lazy"');
  });

  it('with path lazy keeps its atoms negated and opaque, and writes the non-ground part', () => {
    const { game } = ground(LAZY);
    expect(game.lazy?.relations).toEqual(['path']);
    const gdl = emitGround(game, 'gdl', { baseInput: false }, new StageTimer(), defaultPipelineOptions());
    expect(gdl).toContain('(<= (goal walker 0) (true (at 1)) (not (path 1 6)))');
    expect(gdl).toContain('; lazy axioms: path stay non-ground (4 rules, 11 static facts follow)');
    expect(gdl).toContain('(<= (path ?x ?z) (path ?x ?y) (succ ?y ?z) (not (true (wall ?z))))');
    expect(gdl).toContain('(<= (legal walker (go ?y)) (true (at ?x)) (cell ?y) (path ?x ?y))');
    expect(gdl.split('\n').filter((l) => l.startsWith('(<= (path'))).toHaveLength(2);
    // The heads lazy rules may make are atoms of the game: walker's moves and goal 50.
    expect(game.lazy!.heads.map((t) => game.terms.text(t))).toContain('(legal walker (go 6))');
    expect(game.lazy!.heads.map((t) => game.terms.text(t))).toContain('(goal walker 50)');
    const json = JSON.parse(emitGround(game, 'json', { baseInput: true }, new StageTimer(), defaultPipelineOptions())) as { lazy: { relations: string[]; rules: string[] } };
    expect(json.lazy.relations).toEqual(['path']);
    expect(json.lazy.rules).toHaveLength(4);
  });

  it('makes the lazy heads alike from supersets handed over as term ids and from syntax trees (dg)', () => {
    const heads = (options: PipelineOptions): string[] => {
      const { game } = ground(options);
      return game.lazy!.heads.map((t) => game.terms.text(t));
    };
    const handed = heads(LAZY);
    const trees = heads(resolvePipelineOptions({ lazyRelations: ['path'], method: 'dg' }));
    // Both are every move of the rule's pattern in the supersets, and goal 50.
    for (const list of [handed, trees]) {
      expect(list).toContain('(legal walker (go 6))');
      expect(list.every((h) => h.startsWith('(legal walker (go ') || h === '(goal walker 50)')).toBe(true);
    }
    expect(trees).toEqual(handed);
  });

  it('is refused by the stages that need every rule ground; the mutex stage leaves the lazy atoms free in its ground SAT', () => {
    const { game, normal } = ground(LAZY);
    const mutex = mutexGroups(game, normal, LAZY, DEFAULT_MUTEX_SETTINGS, new StageTimer());
    expect(mutex.stats.opaqueAtoms).toBeGreaterThan(0);
    expect(() => removeGameAxioms(game, LAZY, DEFAULT_AXIOM_OPTIONS, new StageTimer())).toThrow(/lazy axioms \(path\)/);
  });

  it('makes a keyword rule over the rule budget lazy as a whole, automatically', () => {
    const strict = resolvePipelineOptions({ maxGroundRules: 60 });
    expect(() => ground(strict)).toThrow(GdlError);
    const options = resolvePipelineOptions({ maxGroundRules: 60, lazyAxioms: true });
    const { normal, game } = ground(options);
    expect(game.lazy?.relations).toEqual([]);
    expect(game.lazy?.rules.map((r) => r.head.rel)).toContain('next');
    // Its next rules read does atoms that no ground rule has: the joint move still reaches them.
    expectSame(verifyGrounding(normal, game, options, { playouts: 10, seed: 4, maxSteps: 50 }));
  });
});

describe('a wide rule over a lazy relation', () => {
  const WIDE = readFileSync(join(EXAMPLES_DIR, 'lazy-wide.kif'), 'utf8');

  it('is refused by its estimate, and stays non-ground as a whole with --lazy-axioms', () => {
    const forced = resolvePipelineOptions({ lazyRelations: ['blocked'] });
    expect(() => groundNormalGame(loadGame(WIDE, 'lazy-wide.kif', forced, new StageTimer()).normal, forced, new StageTimer())).toThrow(/about 146410 ground rules with lazy atoms/);
    const options = resolvePipelineOptions({ lazyRelations: ['blocked'], lazyAxioms: true });
    const loaded = loadGame(WIDE, 'lazy-wide.kif', options, new StageTimer());
    const { ground: game } = groundNormalGame(loaded.normal, options, new StageTimer());
    expect(game.lazy?.rules.filter((r) => r.head.rel === 'legal')).toHaveLength(1);
  });
});

describe('the evaluator of the lazy part', () => {
  // path(x, y): every cell after x up to y is free of walls (y > x), computed directly.
  const direct = (walls: ReadonlySet<number>, x: number, y: number): boolean => {
    if (y <= x) return false;
    for (let c = x + 1; c <= y; c++) if (walls.has(c)) return false;
    return true;
  };

  it('agrees with a direct computation of path and of the walker moves on 13 wall sets', () => {
    const { game } = ground(LAZY);
    const ev = createLazyEvaluator(game, Deadline.never());
    const t = game.terms;
    const fluent = (text: string): number => {
      const id = game.atoms.find((a) => t.text(a.term) === `(true ${text})`)?.args[0];
      if (id === undefined) throw new Error(`no fluent ${text}`);
      return id;
    };
    const pathAtoms = game.atoms.filter((a) => t.symbolName(a.rel) === 'path');
    expect(pathAtoms.length).toBeGreaterThan(5);
    let checked = 0;
    for (let mask = 0; mask < 64; mask += 5) {
      const walls = new Set([1, 2, 3, 4, 5, 6].filter((c) => (mask >> (c - 1)) & 1));
      ev.setState([fluent('(at 1)'), ...[...walls].map((c) => fluent(`(wall ${c})`))]);
      for (const a of pathAtoms) {
        const [x, y] = a.args.map((id) => Number(t.text(id)));
        expect(ev.holds(a.term), `path ${x} ${y} with walls ${[...walls]}`).toBe(direct(walls, x!, y!));
        checked++;
      }
      const moves = ev.heads('legal').map((id) => t.text(id)).sort();
      const expected = [2, 3, 4, 5, 6].filter((y) => direct(walls, 1, y)).map((y) => `(legal walker (go ${y}))`).sort();
      expect(moves).toEqual(expected);
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe('verify', () => {
  it('plays the lazy ground game like the original', () => {
    const { normal, game } = ground(LAZY);
    expectSame(verifyGrounding(normal, game, LAZY, { playouts: 12, seed: 3, maxSteps: 50 }));
  });

  it('plays the written lazy game, read back as GDL, like the original', () => {
    const { normal, game } = ground(LAZY);
    const back = loadGroundFile(emitGround(game, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions()), 'out.gdl', LAZY, new StageTimer());
    expectSame(verifyAgainst(normal, back.normal, LAZY, { playouts: 8, seed: 5, maxSteps: 50 }));
  });

  it('catches a lazy part that is wrong', () => {
    const { normal, game } = ground(LAZY);
    const rules = game.lazy!.rules.filter((r) => !(r.head.rel === 'path' && r.body.length === 3));
    const damaged: GroundGame = { ...game, lazy: { ...game.lazy!, rules } };
    expect(verifyGrounding(normal, damaged, LAZY, { playouts: 12, seed: 3, maxSteps: 50 }).kind).toBe('different');
  });
});
