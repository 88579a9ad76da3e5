// The frame rewrite decided on data both superset methods share (issue 17, docs/ground.md "One
// decision for both methods"): a game instantiated over loose supersets (more moves than can be
// made, as the dependency-graph method may give) must ground to the same bytes as over tight
// ones at every --frame-above, since the rewrite is decided again over the supersets read back
// from the pruned game. Also: when the recheck happens (frame candidates) and when not, and frame
// rules with a (next F) head rewritten in the first run, read back as the rules they replaced.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedSupersets } from '../src/ground/frame-run.js';
import { keepsFluent } from '../src/ground/frame.js';
import { instantiateGame } from '../src/ground/instantiate.js';
import { finalSupersets, pruneUnreachable, reachableAtoms } from '../src/ground/reachability.js';
import { writtenReach } from '../src/ground/frame-reach.js';
import { atomTerms } from '../src/ground/compact.js';
import { Deadline } from '../src/deadline.js';
import type { Supersets } from '../src/reach/types.js';
import { instantiateLimits } from '../src/pipeline/options.js';
import { defaultPipelineOptions, emitGround, groundGame, loadGame, reachGame, readBackSupersets, resolvePipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { ruleOf } from './support/rewrite.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './examples.js';

const file = join(EXAMPLES_DIR, 'frame.kif');
const text = readFileSync(file, 'utf8');
const normal = loadGame(text, file, defaultPipelineOptions(), new StageTimer()).normal;

/**
 * Supersets of a variant where every role may make every `move` whenever it is not in control:
 * sound for games/frame.kif (they contain its own), but with three times its moves.
 */
function looseSupersets(): Supersets {
  const extra = '(<= (legal ?r (move ?a ?b ?c ?d)) (role ?r) (index ?a) (index ?b) (index ?c) (index ?d) (not (true (control ?r))))';
  const variant = loadGame(`${text}\n${extra}`, file, defaultPipelineOptions(), new StageTimer()).normal;
  return reachGame(variant, defaultPipelineOptions(), new StageTimer()).supersets;
}

const tight = reachGame(normal, defaultPipelineOptions(), new StageTimer()).supersets;
const loose = looseSupersets();

function grounded(supersets: Supersets, frameAbove: number): string {
  const options = resolvePipelineOptions({ frameAbove });
  return emitGround(groundGame(normal, supersets, options, new StageTimer()), 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions());
}

/** Rules rewritten by the instantiation alone (no recheck), over `supersets`. */
function rewrittenOnce(supersets: Supersets, frameAbove: number): number {
  return instantiateGame(normal, supersets, instantiateLimits(resolvePipelineOptions({ frameAbove }))).frame?.rules ?? 0;
}

describe('the frame rewrite decided over method-independent supersets', () => {
  it('loose supersets have more moves than tight ones', () => {
    expect(loose.moves.length).toBeGreaterThan(2 * tight.moves.length);
  });

  // Thresholds around the estimates of the game's frame rules (12,288 summed at 100).
  const THRESHOLDS = [100, 1_000, 2_000, 3_000, 4_000, 6_000, 8_000, 12_000, 20_000];

  it('rewrites over loose supersets where tight ones do not, before the recheck', () => {
    // Without this the test below would not test anything: some threshold must be decided
    // differently by the two instantiations on their own.
    expect(THRESHOLDS.some((t) => rewrittenOnce(loose, t) !== rewrittenOnce(tight, t))).toBe(true);
  });

  it.each(THRESHOLDS)('grounds to the same bytes over loose and tight supersets at --frame-above %i', (t) => {
    expect(grounded(loose, t)).toBe(grounded(tight, t));
  });
});

describe('when the decision is made again', () => {
  const instantiated = (frameAbove: number) => instantiateGame(normal, tight, instantiateLimits(resolvePipelineOptions({ frameAbove })));

  it('counts frame rules whose bound is above the threshold as candidates', () => {
    const frame = instantiated(1_000).frame;
    expect(frame?.candidates).toBeGreaterThan(0);
  });

  it('counts none when every bound stays under the threshold, and the game keeps no frame record', () => {
    expect(instantiated(1e12).frame).toBeUndefined();
  });

  it('instantiates again only when the fluents or moves read back are fewer than those given', () => {
    const stages = (supersets: Supersets): string[] => {
      const timer = new StageTimer();
      groundGame(normal, supersets, resolvePipelineOptions({ frameAbove: 1_000 }), timer);
      return timer.list().map((r) => r.stage);
    };
    // The Prolog method's supersets are what ground reachability reads back: nothing to redo.
    expect(stages(tight)).not.toContain('reinstantiate');
    expect(stages(loose)).toContain('reinstantiate');
  });

  it('counts none when frame rules are off', () => {
    expect(instantiated(Infinity).frame).toBeUndefined();
  });
});

describe('the supersets the decision is made again over', () => {
  it('are those read back, without the atoms of auxiliary relations (names a new run gives again)', () => {
    const options = resolvePipelineOptions({ frameAbove: 100 });
    const pruned = pruneUnreachable(instantiateGame(normal, tight, instantiateLimits(options)), options.deadline);
    // The ground game's own read-back holds them; the pipeline's read-back (what reach prints) does not.
    const all = finalSupersets(normal, tight, pruned, options.deadline);
    const shared = sharedSupersets(normal, tight, pruned, options.deadline);
    const aux = (s: Supersets) => s.axioms.filter((a) => a.rel.startsWith('split-'));
    expect(aux(all).length).toBeGreaterThan(0);
    expect(aux(shared)).toEqual([]);
    expect(aux(readBackSupersets(normal, tight, pruned, options))).toEqual([]);
    expect(readBackSupersets(normal, tight, pruned, options).axioms.length).toBe(shared.axioms.length);
    expect(shared.axioms.length).toBe(all.axioms.length - aux(all).length);
    expect(shared.fluents).toEqual(all.fluents);
    expect(shared.moves).toEqual(all.moves);
  });
});

describe('frame rules whose rewrite could reach other fluents', () => {
  it('are those whose head is not (next F) with (true F) in the body', () => {
    expect(keepsFluent(ruleOf('(<= (next (c ?x)) (true (c ?x)) (does ?r (m ?a)) (distinct ?x ?a))'))).toBe(true);
    expect(keepsFluent(ruleOf('(<= (next (d ?x)) (true (c ?x)) (does ?r (m ?a)) (distinct ?x ?a))'))).toBe(false);
    expect(keepsFluent(ruleOf('(<= (stays ?x) (true (c ?x)) (does ?r (m ?a)) (distinct ?x ?a))'))).toBe(false);
  });

  // 16 cells, 16 moves: the frame rule of d reads c, 256 ground rules as written, 48 rewritten.
  const indexes = Array.from({ length: 16 }, (_, i) => `(index ${i + 1})`).join(' ');
  const game = `(role p) ${indexes}
    (<= (init (c ?x)) (index ?x)) (<= (legal p (m ?a)) (index ?a))
    (<= (next (c ?x)) (true (c ?x)))
    (<= (next (d ?x)) (true (c ?x)) (does ?r (m ?a)) (distinct ?x ?a))
    (<= (goal p 100) (true (d 1))) (<= (goal p 0) (not (true (d 1)))) (<= terminal (true (d 2)))`;
  const run = (method: 'prolog' | 'dg') => {
    const timer = new StageTimer();
    const { ground } = runGrounding(game, 'd.kif', resolvePipelineOptions({ method, frameAbove: 100 }), timer);
    return { gdl: emitGround(ground, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions()), stages: timer.list() };
  };

  it('with a (next F) head are rewritten in the first run, read back as the rule they replaced', () => {
    const { gdl, stages } = run('prolog');
    const first = stages.find((r) => r.stage === 'instantiate')!;
    expect(first.counts.frameRules).toBe(1);
    expect(stages.map((r) => r.stage)).not.toContain('reinstantiate');
    expect(gdl).toMatch(/\(<= \(next \(d 3\)\) \(split-\d+ p\) \(true \(c 3\)\) \(not \(split-\d+ p 3\)\)\)/);
    expect(run('dg').gdl).toBe(gdl);
  });

  it('with another head are rewritten only in the run over the read-back supersets, made for them', () => {
    const stays = game.replace('(next (d ?x)) (true (c ?x)) (does ?r (m ?a)) (distinct ?x ?a)', '(stays ?x) (true (c ?x)) (does ?r (m ?a)) (distinct ?x ?a)')
      .replace('(<= terminal (true (d 2)))', '(<= terminal (true (d 2))) (<= (next (d ?x)) (stays ?x))');
    const timer = new StageTimer();
    runGrounding(stays, 'stays.kif', resolvePipelineOptions({ frameAbove: 100 }), timer);
    const first = timer.list().find((r) => r.stage === 'instantiate')!;
    const again = timer.list().find((r) => r.stage === 'reinstantiate');
    expect(first.counts.frameRules).toBeUndefined();
    expect(again?.counts.frameRules).toBe(1);
  });
});

// games/frame-early.kif: q owns cell 24 and never moves, so (d 24) is never reached; the rewrite's
// relaxed game reaches it (p moved, 24 is in the domain). Read back as the rewrite, the
// dependency-graph method's supersets (which hold (d 24)) would keep its rules.
describe('early frame rewrites read back as the rules they replaced (games/frame-early.kif)', () => {
  const early = join(EXAMPLES_DIR, 'frame-early.kif');
  const earlyText = readFileSync(early, 'utf8');
  const options = (method: 'prolog' | 'dg') => resolvePipelineOptions({ method, frameAbove: 20 });
  const run = (method: 'prolog' | 'dg') => {
    const timer = new StageTimer();
    const { ground } = runGrounding(earlyText, early, options(method), timer);
    return { gdl: emitGround(ground, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions()), stages: timer.list().map((r) => r.stage) };
  };

  it('are made in the first run: no second run over the Prolog method\'s supersets', () => {
    const { gdl, stages } = run('prolog');
    expect(stages).not.toContain('reinstantiate');
    expect(gdl).toMatch(/\(<= \(next \(d 5\)\) \(split-\d+ p\) \(true \(c 5\)\) \(not \(split-\d+ p 5\)\)\)/);
    expect(gdl).not.toContain('(next (d 24)) (split');
  });

  it('give the same game over the dependency-graph method\'s supersets, which hold (d 24)', () => {
    const dg = run('dg');
    expect(dg.stages).toContain('reinstantiate');
    expect(dg.gdl).toBe(run('prolog').gdl);
  });

  it('reach (next (d 24)) in the relaxed game of the rewrite, not in that of the rule as written', () => {
    const normal = loadGame(earlyText, early, options('dg'), new StageTimer()).normal;
    const loose = reachGame(normal, options('dg'), new StageTimer()).supersets;
    const ground = instantiateGame(normal, loose, { ...instantiateLimits(options('dg')), frameNext: true });
    expect(ground.frame?.early.length).toBe(1);
    const id = atomTerms(ground).indexOf(ground.terms.lookup('next', [ground.terms.lookup('d', [ground.terms.lookup('24')])]));
    expect(id).toBeGreaterThanOrEqual(0);
    expect(reachableAtoms(ground, Deadline.never())[id]).toBe(1);
    expect(writtenReach(ground, ground.frame!.early, Deadline.never())[id]).toBe(0);
  });
});
