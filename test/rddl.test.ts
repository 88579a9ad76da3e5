// RDDL output (docs/rddl.md): reversible names, the unrolling of recursive axioms
// (src/axioms/unroll.ts), the writer (src/formats/rddl), and the reader and simulator (src/formats/rddl)
// playing the written files against the original game under the Tau-Prolog reasoner, on the
// example games and corpus puzzles (recursive ones among them).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomKind } from '../src/axioms/atoms.js';
import { postOrder } from '../src/axioms/formula.js';
import { removeAxioms } from '../src/axioms/remove.js';
import type { FormulaGame } from '../src/axioms/types.js';
import { unrollRecursion } from '../src/axioms/unroll.js';
import { removeUnused } from '../src/axioms/unused.js';
import { emitFormulaGdlBytes } from '../src/formats/gdl/formula.js';
import { decodeChunks } from '../src/formats/gdl/bytes.js';
import { escapeText, parseRddlName, rddlName, unescapeText } from '../src/formats/rddl/names.js';
import { type RddlFiles, emitRddl } from '../src/formats/rddl/write.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { stronglyConnectedComponents } from '../src/gdl/scc.js';
import { defaultPipelineOptions, type PipelineOptions, loadGame, runGrounding } from '../src/pipeline/stages.js';
import { readRddl } from '../src/formats/rddl/read.js';
import { NO_ACTION, createRddlSimulator, asEpisode } from '../src/formats/rddl/sim.js';
import { createReasoner } from '../src/play/reasoner.js';
import { formatDifference, verifyGame } from '../src/play/verify.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

const example = (name: string): string => readFileSync(join(EXAMPLES_DIR, name), 'utf8');

/** pyRDDLGym's identifier syntax (its lexer's regular expression, primes left out). */
const RDDL_IDENT = /^[A-Za-z](?:[A-Za-z0-9_-]*[A-Za-z0-9])?$/;

/** The game without axioms and its reasoner. */
function prepare(text: string, file: string): { formula: FormulaGame; reasoner: ReturnType<typeof createReasoner> } {
  const { loaded, ground } = runGrounding(text, file, defaultPipelineOptions(), new StageTimer());
  const formula = removeAxioms(removeUnused(ground, Deadline.never()).game, undefined, Deadline.never()).game;
  return { formula, reasoner: createReasoner(loaded.normal, { deadline: Deadline.never() }) };
}

/** Writes the RDDL files of `text`, reads them back, and plays them against the original. */
function playRddl(text: string, file: string, playouts: number, maxSteps = 60): RddlFiles {
  const { formula, reasoner } = prepare(text, file);
  const files = emitRddl(unrollRecursion(formula, undefined, Deadline.never()).game, file.replace(/.*\//, '').replace('.kif', ''), undefined, Deadline.never());
  const model = readRddl({ text: files.domain, file: 'domain.rddl' }, { text: files.instance, file: 'inst.rddl' });
  const result = verifyGame(asEpisode(reasoner), createRddlSimulator(model, reasoner.roles), { playouts, seed: 5, maxSteps });
  if (result.kind === 'different') expect.fail(formatDifference(result.difference));
  expect(result.stats.terminals).toBeGreaterThan(0);
  return files;
}

describe('RDDL names', () => {
  const texts = ['(cell 1 1 x)', 'wait', '(f (g a) b)', '(f g a b)', '(a_b c-d)', '(a__b c)', '(move 1 ?)', '(f ü)', '(x (y (z)))'];
  it('are RDDL identifiers that decode to the text they came from', () => {
    for (const t of texts) {
      for (const kind of ['fluent', 'action', 'derived'] as const) {
        const name = rddlName(kind, t);
        expect(name).toMatch(RDDL_IDENT);
        expect(parseRddlName(name)).toEqual({ kind, text: t });
      }
    }
  });
  it('never collide: distinct texts give distinct names', () => {
    const names = texts.map((t) => rddlName('fluent', t));
    expect(new Set(names).size).toBe(texts.length);
    expect(rddlName('fluent', '(cell 1 1 x)')).toBe('f-cell-1-1-x');
    expect(escapeText('a_b')).toBe('a_ub');
    expect(unescapeText('a_q')).toBeNull();
    expect(parseRddlName('gdl_terminal_state')).toBeNull();
  });
});

describe('unrolling recursive axioms', () => {
  it('leaves no recursive axiom and plays like the original (linkpath, rddl-chain)', () => {
    for (const name of ['linkpath.kif', 'rddl-chain.kif']) {
      const { formula } = prepare(example(name), name);
      const { game, stats } = unrollRecursion(formula, undefined, Deadline.never());
      expect(stats.components).toBeGreaterThan(0);
      const deps: number[][] = game.atoms.map(() => []);
      for (const r of game.rules) {
        if (atomKind(game, r.head) !== 'axiom') continue;
        postOrder(r.body, (f) => {
          if (f.kind === 'atom' && atomKind(game, f.atom) === 'axiom') deps[r.head]!.push(f.atom);
        });
      }
      const cyclic = stronglyConnectedComponents(game.atoms.length, (v) => deps[v]!).filter((c) => c.length > 1 || deps[c[0]!]!.includes(c[0]!));
      expect(cyclic).toEqual([]);
      // The unrolled game, written as GDL and read back, plays like the original.
      const readBack: PipelineOptions = { ...defaultPipelineOptions(), normalize: { ...defaultPipelineOptions().normalize, splitGround: true } };
      const other = loadGame(decodeChunks(emitFormulaGdlBytes(game, undefined, Deadline.never())), `${name}.unrolled`, readBack, new StageTimer());
      const original = loadGame(example(name), name, defaultPipelineOptions(), new StageTimer());
      const result = verifyGame(createReasoner(original.normal, { deadline: Deadline.never() }), createReasoner(other.normal, { deadline: Deadline.never() }), { playouts: 15, seed: 2, maxSteps: 30 });
      if (result.kind === 'different') expect.fail(formatDifference(result.difference));
    }
  });
  it('uses as many layers as the component has atoms, and leaves games without recursion alone', () => {
    const { formula } = prepare(example('rddl-chain.kif'), 'rddl-chain.kif');
    const { stats } = unrollRecursion(formula, undefined, Deadline.never());
    expect(stats.maxLayers).toBe(stats.atoms);
    const plain = prepare(example('tictactoe.kif'), 'tictactoe.kif').formula;
    expect(unrollRecursion(plain, undefined, Deadline.never()).game).toBe(plain);
  });
  it('refuses to add more layer rules than its limit', () => {
    const { formula } = prepare(example('rddl-chain.kif'), 'rddl-chain.kif');
    expect(() => unrollRecursion(formula, { maxRules: 3 }, Deadline.never())).toThrow(/would add \d+ rules/);
  });
});

describe('RDDL writer, reader and simulator', () => {
  it('plays linkpath and rddl-chain like the original, goal paid as the reward', () => {
    const files = playRddl(example('linkpath.kif'), 'linkpath.kif', 30);
    expect(files.horizon).toBe(6);
    expect(files.horizonDetected).toBe(true);
    expect(files.instance).toContain('max-nondef-actions = 1;');
    playRddl(example('rddl-chain.kif'), 'rddl-chain.kif', 30);
  });
  it('writes kept axioms as interm-fluents (move-dependent) and state fluents one step ahead', () => {
    const { loaded, ground } = runGrounding(example('rddl-interm.kif'), 'rddl-interm.kif', defaultPipelineOptions(), new StageTimer());
    const kept = removeAxioms(removeUnused(ground, Deadline.never()).game, { maxFormula: 1 }, Deadline.never());
    expect(kept.stats.kept.map((k) => k.atom)).toEqual(expect.arrayContaining(['(lit2 1)', 'bright']));
    const files = emitRddl(unrollRecursion(kept.game, undefined, Deadline.never()).game, 'rddl-interm', undefined, Deadline.never());
    expect(files.domain).toContain('d-lit2-1 : { interm-fluent, bool, level = 1 };');
    expect(files.domain).toContain("d-bright' = (f-on-1' ^ f-on-2');");
    const reasoner = createReasoner(loaded.normal, { deadline: Deadline.never() });
    const model = readRddl({ text: files.domain, file: 'd' }, { text: files.instance, file: 'i' });
    const result = verifyGame(asEpisode(reasoner), createRddlSimulator(model, reasoner.roles), { playouts: 20, seed: 4, maxSteps: 20 });
    if (result.kind === 'different') expect.fail(formatDifference(result.difference));
  });
  it('pays 100 after the plan that links 1 to 6, once', () => {
    const { formula, reasoner } = prepare(example('rddl-chain.kif'), 'rddl-chain.kif');
    const files = emitRddl(unrollRecursion(formula, undefined, Deadline.never()).game, 'rddl-chain', undefined, Deadline.never());
    const sim = createRddlSimulator(readRddl({ text: files.domain, file: 'd' }, { text: files.instance, file: 'i' }), reasoner.roles);
    let state = sim.initialState();
    for (const want of ['(add 2 3)', '(add 4 5)']) {
      const info = sim.info(state);
      expect(info.terminal).toBe(false);
      const move = info.legal[0]!.find((m) => sim.text.move(m) === want);
      expect(move).toBeDefined();
      state = sim.successor(state, [move!]);
    }
    const end = sim.info(state);
    expect(end).toMatchObject({ terminal: true, legal: [[]], goals: [['100']] });
  });
  it('tic-tac-toe has two roles: an invalid-input error naming them', () => {
    const { formula } = prepare(example('tictactoe.kif'), 'tictactoe.kif');
    expect(() => emitRddl(formula, 'tictactoe', undefined, Deadline.never())).toThrow(GdlError);
    expect(() => emitRddl(formula, 'tictactoe', undefined, Deadline.never())).toThrow(/one agent; this game has 2 roles/);
  });
  it('finds a wrong reward, a wrong precondition and a missing exactly-one constraint', () => {
    const { formula, reasoner } = prepare(example('linkpath.kif'), 'linkpath.kif');
    const files = emitRddl(unrollRecursion(formula, undefined, Deadline.never()).game, 'linkpath', undefined, Deadline.never());
    const play = (domain: string): string => {
      const model = readRddl({ text: domain, file: 'd' }, { text: files.instance, file: 'i' });
      const r = verifyGame(asEpisode(reasoner), createRddlSimulator(model, reasoner.roles), { playouts: 20, seed: 5, maxSteps: 60 });
      return r.kind === 'different' ? r.difference.kind : 'same';
    };
    expect(play(files.domain)).toBe('same');
    expect(play(files.domain.replace('then 100 else', 'then 99 else'))).toBe('goal');
    expect(play(files.domain.replace(/a-wait => \(/, 'a-wait => (false ^ '))).toBe('legal');
    const withoutChoice = files.domain.replace(/\n {4}\(+gdl_terminal_action \|[^\n]*;/, '');
    expect(withoutChoice).not.toBe(files.domain);
    const model = readRddl({ text: withoutChoice, file: 'd' }, { text: files.instance, file: 'i' });
    const sim = createRddlSimulator(model, reasoner.roles);
    expect(sim.info(sim.initialState()).legal[0]!.map((m) => sim.text.move(m))).toContain(NO_ACTION);
  });
  it('reports RDDL syntax errors with file, line and column', () => {
    const bad = 'domain d {\n  pvariables {\n    x : { state-fluent, bool, default = false };\n  };\n  cpfs { x\' = x $ x; };\n}\n';
    try {
      readRddl({ text: bad, file: 'bad.rddl' }, { text: 'instance i { domain = d; }', file: 'i.rddl' });
      expect.fail('no error');
    } catch (err) {
      expect(err).toBeInstanceOf(GdlError);
      expect((err as GdlError).diagnostics[0]).toMatchObject({ file: 'bad.rddl', line: 5, col: 17 });
    }
  });
});

describe.skipIf(!HAVE_CORPUS)('RDDL on corpus puzzles', () => {
  // Recursive in the original (hanoi, coins), goal used in a body (chineseCheckers1),
  // legal used in a body (coins), a step counter (buttons), objects as actions (snake_2008's
  // `(legal snake ?move)`, which Brand could not translate).
  const games = [
    'ggp-repository-base/snake_2008.kif',
    'ggp-repository-base/buttons.kif',
    'ggp-repository-base/hanoi.kif',
    'ggp-repository-base/coins.kif',
    'ggp-repository-base/chineseCheckers1.kif',
  ];
  for (const g of games) {
    it(`plays ${g} like the original`, () => {
      playRddl(readGame(g), g, 5, 120);
    }, 120_000);
  }
  it('inlines legal atoms read in bodies (coins): no derived fluent, default horizon without a counter', () => {
    const files = playRddl(readGame('ggp-repository-base/coins.kif'), 'coins.kif', 3, 120);
    expect(files.domain).not.toMatch(/^ {4}d_/m);
    expect(files.domain).toContain('a-jump-1-3 =>');
    expect(files).toMatchObject({ horizon: 100, horizonDetected: false });
  }, 120_000);
});
