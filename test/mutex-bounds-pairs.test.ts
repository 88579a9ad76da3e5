// Bounds that keep negative static atoms, bounded atoms checked in pairs (src/mutex/lifted-relax.ts,
// lifted-join.ts, lifted-core.ts; docs/mutex.md 2a "Bounds: absent facts and pairs"), and
// implications whose implied relation a negated derived relation reads (src/mutex/implications.ts;
// docs/mutex.md 2d "Read through a derived relation"). games/mutex-bidding.kif (a miniature of
// colonelBlotto: one gain per transition) and games/mutex-occupied.kif (of atariGo's groups: one
// stamp per square) are proven lifted; their twins, where the groups are false, are refused. So is
// games/mutex-step-jump.kif (two atoms of two bounded relations sharing three variables, held against
// their rows together: checkersTiny's step and jump), and refused its twin mutex-step-jump-both.kif.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import type { Term } from '../src/gdl/ast.js';
import { hypotheses } from '../src/mutex/candidates.js';
import { type Implication, impliedCandidates } from '../src/mutex/implications.js';
import { relaxedBounds } from '../src/mutex/lifted-bounds.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { fluentArgs, mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';
import { provenLifted } from './support/lifted-proofs.js';

/** (stamp ?x ?k) => (cell ?x ?someone): a stamped square has a stone. */
const STAMP_CELL: Implication = { from: 'stamp/2', to: 'cell/2', map: [0, undefined] };

/** The game grounded, its view and the implications its initial state holds (no sampled state). */
function grounded(game: string) {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { loaded, ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const tried = new Set(hyps.map((h) => h.relation));
  return { loaded, ground, view, hyps, implications: impliedCandidates(view, loaded.normal, tried, new Set(), []) };
}

describe('bounds with absent facts, bounded atoms in pairs', () => {
  it('mutex-bidding: one gain per transition, so one score (input {}) is proven lifted', () => {
    expect(provenLifted('mutex-bidding.kif')).toMatchObject({ 'score/1 []': true });
  });

  it('mutex-unbidding: equal bids give every gain, and the (false) score group is refused', () => {
    expect(provenLifted('mutex-unbidding.kif')).toMatchObject({ 'score/1 []': false });
  });

  it('the bound of gt keeps (not (zero ?d)): no row (gt a a), and the twin has them', () => {
    const rowsOf = (game: string): string[] => {
      const { loaded } = grounded(game);
      const facts = new Map<string, Term[][]>();
      for (const r of loaded.normal.rules) {
        if (r.body.length > 0 || !['num', 'succ', 'zero'].includes(r.head.rel)) continue;
        const k = `${r.head.rel}/${r.head.args.length}`;
        facts.set(k, [...(facts.get(k) ?? []), [...r.head.args]]);
      }
      const gt = relaxedBounds(loaded.normal, facts, new Map(), Deadline.never()).get('gt/2');
      expect(gt?.keep).toEqual([0, 1]);
      return gt!.rows.map((row) => row.map((t) => (t.kind === 'const' ? t.name : '?')).join(' '));
    };
    const strict = rowsOf('mutex-bidding.kif');
    expect(strict).toContain('3 1');
    expect(strict.filter((r) => r.split(' ')[0] === r.split(' ')[1])).toEqual([]);
    expect(rowsOf('mutex-unbidding.kif')).toContain('2 2');
  });
});

describe('bounded atoms of two relations in pairs (lifted-rows.ts boundPairsFit)', () => {
  it('mutex-step-jump: an up-move and a down-move between the same three digits fit no two rows, so last is proven lifted', () => {
    expect(provenLifted('mutex-step-jump.kif')).toMatchObject({ 'last/1 []': true });
  });

  it('mutex-step-jump-both: (go 2 2 2) is both, the rows fit together, and the (false) last group is refused', () => {
    expect(provenLifted('mutex-step-jump-both.kif')).toMatchObject({ 'last/1 []': false });
  });
});

describe('implications read through a negated derived relation', () => {
  it('mutex-occupied: stamp => cell is a candidate and one stamp per square is proven with it', () => {
    const { loaded, ground, view, hyps, implications } = grounded('mutex-occupied.kif');
    // The initial state alone holds every map (no stamp yet): the relations are what is asked.
    expect(implications.filter((m) => m.from === 'stamp/2' && m.to === 'cell/2')).not.toEqual([]);
    const r = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6, fluents: fluentArgs(ground), implications: [STAMP_CELL] });
    const i = hyps.findIndex((h) => `${h.relation} [${h.input.join(',')}]` === 'stamp/2 [0]');
    expect(r.proven[i]).toBe(true);
  });

  it('mutex-unoccupied: a square placed on twice, and the (false) stamp group is refused', () => {
    const { loaded, ground, view, hyps } = grounded('mutex-unoccupied.kif');
    const r = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6, fluents: fluentArgs(ground), implications: [STAMP_CELL] });
    const i = hyps.findIndex((h) => `${h.relation} [${h.input.join(',')}]` === 'stamp/2 [0]');
    expect(r.proven[i]).toBe(false);
  });
});
