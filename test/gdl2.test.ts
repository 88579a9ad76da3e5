// GDL-II (docs/gdl2.md): `sees` is validated as a keyword, ground like legal and goal, kept by
// every later stage and compared by verify per role; `random` is a role with uniform moves;
// GDDL and RDDL refuse GDL-II games. On the GDL-II games of games/.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import type { GroundGame } from '../src/ground/types.js';
import { defaultPipelineOptions, loadGame, type ReachMethod, runGrounding } from '../src/pipeline/stages.js';
import { refuseGdl2 } from '../src/pipeline/formats.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { createGroundSimulator } from '../src/play/ground-sim.js';
import { createReasoner } from '../src/play/reasoner.js';
import { type VerifyResult, formatDifference, verifyGame } from '../src/play/verify.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';
import { runCli } from './support/cli.js';

const GAMES = ['montyhall.kif', 'blind-ttt.kif', 'sees-axiom.kif', 'sees-does.kif'];
const text = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

function ground(name: string, method: ReachMethod = 'prolog'): ReturnType<typeof runGrounding> {
  return runGrounding(text(name), name, { ...defaultPipelineOptions(), method }, new StageTimer());
}

const isSees = (g: GroundGame, id: number): boolean => g.terms.symbolName(g.atoms[id]!.rel) === 'sees';
const seesRules = (g: GroundGame): string[] => g.rules.filter((r) => isSees(g, r.head)).map((r) => g.terms.text(g.atoms[r.head]!.term));

function verify(name: string, method: ReachMethod, fast: boolean, damage?: (g: GroundGame) => GroundGame): VerifyResult {
  const { loaded, ground: game0 } = ground(name, method);
  const game = damage === undefined ? game0 : damage(game0);
  const sim = fast ? createFastSimulator(game, Deadline.never()) : createGroundSimulator(game, Deadline.never());
  return verifyGame(createReasoner(loaded.normal, { deadline: Deadline.never() }), sim, { playouts: 20, seed: 3, maxSteps: 40 });
}

describe('GDL-II games: ground, verify with percepts compared', () => {
  for (const name of GAMES) {
    for (const method of ['prolog', 'dg'] as const) {
      for (const fast of [false, true]) {
        it(`${name} (${method}, ${fast ? 'fast' : 'ground'} simulator)`, () => {
          const result = verify(name, method, fast);
          if (result.kind === 'different') expect.fail(formatDifference(result.difference));
          expect(result.stats.terminals).toBeGreaterThan(0);
        });
      }
    }
  }

  it('keeps every sees rule: Monty Hall has 11, the same for both superset methods', () => {
    const a = seesRules(ground('montyhall.kif').ground);
    expect(a).toHaveLength(11);
    expect(seesRules(ground('montyhall.kif', 'dg').ground)).toEqual(a);
    expect(a).toContain('(sees candidate (open_door 2))');
  });

  it('keeps a sees rule read through an axiom, and a sees fact', () => {
    const rules = seesRules(ground('sees-axiom.kif').ground);
    expect(rules).toContain('(sees guesser warm)');
    expect(rules).toContain('(sees guesser start)');
  });

  it('the random role is an ordinary role of the ground game, first or not', () => {
    const g = ground('sees-axiom.kif').ground;
    expect(g.roles.map((r) => g.terms.text(r))).toEqual(['random', 'guesser']);
  });

  for (const fast of [false, true]) {
    it(`verify catches a ground game that lost a sees rule (${fast ? 'fast' : 'ground'} simulator)`, () => {
      const drop = (g: GroundGame): GroundGame => ({ ...g, rules: g.rules.filter((r) => !(isSees(g, r.head) && g.terms.text(g.atoms[r.head]!.term).includes('open_door'))) });
      const result = verify('montyhall.kif', 'prolog', fast, drop);
      expect(result.kind).toBe('different');
      if (result.kind !== 'different') return;
      expect(result.difference.kind).toBe('sees');
      expect(result.difference.role).toBe('candidate');
      expect(result.difference.onlyOriginal[0]).toMatch(/^\(open_door [123]\)$/);
      expect(formatDifference(result.difference)).toContain('difference in percepts (sees)');
    });
  }
});

describe('GDL-II outputs', () => {
  it('GDL and JSON keep the sees rules and the random role', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gdl2-'));
    try {
      const gdl = runCli(['ground', join(EXAMPLES_DIR, 'montyhall.kif')]);
      expect(gdl.code).toBe(0);
      expect(gdl.stdout).toContain('(role random)');
      expect(gdl.stdout.split('\n').filter((l) => l.startsWith('(<= (sees '))).toHaveLength(11);
      const json = runCli(['ground', '--json', join(EXAMPLES_DIR, 'montyhall.kif')]);
      const parsed = JSON.parse(json.stdout) as { roles: string[]; percepts: { role: string; percept: string; atom: number }[]; atoms: string[] };
      expect(parsed.roles).toEqual(['candidate', 'random']);
      expect(parsed.percepts).toHaveLength(11);
      for (const p of parsed.percepts) expect(parsed.atoms[p.atom]).toBe(`(sees ${p.role} ${p.percept})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a game without sees has no percepts field', () => {
    const json = runCli(['ground', '--json', join(EXAMPLES_DIR, 'nim.kif')]);
    expect(JSON.parse(json.stdout)).not.toHaveProperty('percepts');
  });

  it('GDDL and RDDL refuse GDL-II games, naming the random role or the first sees rule', () => {
    const loaded = loadGame(text('montyhall.kif'), 'montyhall.kif', defaultPipelineOptions(), new StageTimer());
    expect(() => refuseGdl2(loaded.game, 'GDDL')).toThrow(GdlError);
    const dir = mkdtempSync(join(tmpdir(), 'gdl2-'));
    try {
      for (const format of ['gddl', 'rddl']) {
        const r = runCli(['ground', '--format', format, '-o', join(dir, format), join(EXAMPLES_DIR, 'montyhall.kif')]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`montyhall.kif:4:1: error: ${format.toUpperCase()} cannot describe GDL-II games: this game has the role 'random'`);
      }
      const blind = runCli(['ground', '--format', 'gddl', '-o', join(dir, 'b'), join(EXAMPLES_DIR, 'blind-ttt.kif')]);
      expect(blind.code).toBe(1);
      expect(blind.stderr).toMatch(/blind-ttt\.kif:20:1: error: GDDL cannot describe GDL-II games: this game has a 'sees' rule/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a plain GDL game is not refused', () => {
    const loaded = loadGame(text('nim.kif'), 'nim.kif', defaultPipelineOptions(), new StageTimer());
    expect(() => refuseGdl2(loaded.game, 'RDDL')).not.toThrow();
  });
});

describe('GDL-II validation', () => {
  const FRAME = '(role robot)\n(init p)\n(legal robot go)\n(<= terminal (true p))\n(goal robot 100)\n';
  function load(rules: string): string[] {
    try {
      return loadGame(FRAME + rules, 'g.kif', defaultPipelineOptions(), new StageTimer()).warnings.map((d) => `${d.line - 5}:${d.col} ${d.severity}: ${d.message}`);
    } catch (err) {
      if (err instanceof GdlError) return err.diagnostics.map((d) => `${d.line - 5}:${d.col} ${d.severity}: ${d.message}`);
      throw err;
    }
  }

  it('accepts sees depending on true and does', () => {
    expect(load('(<= (sees robot seen) (true p) (does robot go))\n')).toEqual([]);
  });
  it('accepts a percept naming a move, (does R M), but no keyword function elsewhere', () => {
    expect(load('(<= (sees ?r (does ?r ?m)) (does ?r ?m))\n')).toEqual([]);
    expect(load('(<= (sees robot x) (true (does robot go)))\n')).toContain("1:26 error: keyword 'does' is used as a function inside a term");
  });
  it('refuses sees in a body', () => {
    expect(load('(<= q (sees robot x))\n(<= (sees robot x) (true p))\n')).toContain("1:7 error: 'sees' cannot stand in the body of a rule");
  });
  it('refuses sees inside init', () => {
    expect(load('(init (sees robot x))\n')).toContain("1:7 error: keyword 'sees' is used as a function inside a term");
  });
  it('refuses a sees fact with variables', () => {
    expect(load('(sees ?r x)\n')).toContain("1:1 error: a 'sees' fact must be ground: what a role perceives is given by rules on 'true' and 'does'");
  });
  it('refuses sees with the wrong arity', () => {
    expect(load('(<= (sees robot) (true p))\n').some((l) => l.startsWith('1:5 error:') && l.includes('sees'))).toBe(true);
  });
  it('refuses init depending on sees', () => {
    expect(load('(<= (sees robot x) (true p))\n(<= (init q) (sees robot x))\n').some((l) => l.includes("'init' must not depend on the state"))).toBe(true);
  });
});
