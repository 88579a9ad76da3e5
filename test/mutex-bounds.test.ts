// Bounds of derived relations in the lifted mutex proof (src/mutex/lifted-bounds.ts, docs/mutex.md
// 2a "Bounds of derived relations"): games/mutex-recursive.kif, a miniature of amazons' move, whose
// "one thing per square" holds only because a recursive relation never relates a square to itself;
// proven lifted with the bounds, never where the group is false (a reflexive slide); the bounds'
// rows themselves, with a cross product left out; games/mutex-demand.kif, where they are computed
// on demand (the costly relations no proof reads never are); a component whose first round alone
// passes its join steps ends at once with the same steps charged (lifted-bounds.ts firstRoundSpends).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import type { Term } from '../src/gdl/ast.js';
import { hypotheses } from '../src/mutex/candidates.js';
import { key } from '../src/mutex/lifted-terms.js';
import { relaxedBounds } from '../src/mutex/lifted-bounds.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { fluentArgs, mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { loadGame, runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

const RECURSIVE = readFileSync(join(EXAMPLES_DIR, 'mutex-recursive.kif'), 'utf8');
const DEMAND = readFileSync(join(EXAMPLES_DIR, 'mutex-demand.kif'), 'utf8');

/** Per hypothesis `relation [input]`, whether the lifted proof proves it (all offered, the ground fluents known). */
function lifted(text: string): Map<string, boolean> {
  const { loaded, ground } = runGrounding(text, 'game.kif', defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const fluents = fluentArgs(ground);
  const r = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6, fluents });
  return new Map(hyps.map((h, i) => [`${h.relation} [${h.input.join(',')}]`, r.proven[i]!]));
}

/** The game's bounds, computed on demand (static facts only known) within `deadline`. */
function boundsWithin(text: string, deadline: Deadline): ReturnType<typeof relaxedBounds> {
  const loaded = loadGame(text, 'game.kif', defaultPipelineOptions(), new StageTimer());
  const facts = new Map<string, Term[][]>();
  for (const r of loaded.normal.rules) {
    if (r.body.length > 0 || ['init', 'role'].includes(r.head.rel)) continue;
    const k = `${r.head.rel}/${r.head.args.length}`;
    facts.set(k, [...(facts.get(k) ?? []), [...r.head.args]]);
  }
  return relaxedBounds(loaded.normal, facts, new Map(), deadline);
}

/** The rows of each bound as KIF texts, per relation (static facts only known). */
function bounds(text: string): Map<string, { keep: readonly number[]; rows: string[] }> {
  const out = boundsWithin(text, Deadline.never());
  // The bounds are computed on demand: each relation named by the tests is asked for.
  const named = ['slide/2', 'empty/1', 'legal/2', 'does/2', 'ign/5', 'different_cells/4'];
  return new Map(named.flatMap((k) => {
    const b = out.get(k);
    return b === undefined ? [] : [[k, { keep: b.keep, rows: b.rows.map((row) => row.map((t) => key(t, new Map())).join(' ')).sort() }] as const];
  }));
}

describe('bounds of derived relations', () => {
  it('mutex-recursive: one thing per square is proven lifted with the bound of the recursive slide', () => {
    expect(lifted(RECURSIVE).get('at/2 [0]')).toBe(true);
  });

  it('mutex-demand: the bounds are computed on demand, so six costly relations read only under `not` leave slide its bound', () => {
    expect(lifted(DEMAND).get('at/2 [0]')).toBe(true);
    expect(bounds(DEMAND).get('slide/2')!.rows).toHaveLength(28 + 8);
  });

  it('a slide that may stay on its square: the group is false and not proven', () => {
    const reflexive = RECURSIVE.replace('(<= (slide ?x ?y)', '(<= (slide ?x ?x) (square ?x))\n(<= (slide ?x ?y)');
    expect(reflexive).not.toBe(RECURSIVE);
    expect(lifted(reflexive).get('at/2 [0]')).toBe(false);
  });

  it('the bound of a recursive relation is its relaxed least model; negative literals and state dropped', () => {
    const b = bounds(RECURSIVE);
    // slide: every pair x < y of 1..8 (empty's negated fluents dropped, so every square is empty).
    expect(b.get('slide/2')!.rows).toHaveLength(28 + 8);
    expect(b.get('slide/2')!.rows.some((r) => r.split(' ')[0] === r.split(' ')[1])).toBe(false);
    expect(b.get('empty/1')!.rows).toHaveLength(8);
    // legal reads (true (at ?a piece)): no fluents known here, so that literal is dropped and ?a
    // is bound by slide; `does` shares legal's bound.
    expect(b.get('does/2')).toEqual(b.get('legal/2'));
  });

  it("chess's different_cells over 16 coordinates (state-free) keeps all its 65,280 rows: no projection rules out (different_cells ?x ?y ?x ?y)", () => {
    const coords = Array.from({ length: 16 }, (_, i) => `(coordinate c${i})`).join(' ');
    const rules = [0, 1].map((i) => `(<= (different_cells ?x1 ?y1 ?x2 ?y2) (distinct ${['?x1 ?x2', '?y1 ?y2'][i]}) (coordinate ?x1) (coordinate ?x2) (coordinate ?y1) (coordinate ?y2))`).join('\n');
    const b = bounds(`${RECURSIVE}\n${coords}\n${rules}`).get('different_cells/4')!;
    expect(b.keep).toEqual([0, 1, 2, 3]);
    expect(b.rows).toHaveLength(16 ** 4 - 16 ** 2);
  });

  it('a component whose first round alone passes its share of the join steps ends at once, charged the whole share', () => {
    // big1 .. big6: (m ?x) (m ?y) over 800 values, the head bound only by the second atom: 800 +
    // 800 x 800 steps in the first round, past a component's 500,000. Six such shares spend the
    // bounds' 3,000,000 join steps; `small` (800 steps) is asked for after them.
    const m = Array.from({ length: 800 }, (_, i) => `(m ${i})`).join(' ');
    const big = [1, 2, 3, 4, 5, 6].map((k) => `(<= (big${k} ?x ?y) (m ?x) (m ?y))`).join('\n');
    const text = `${RECURSIVE}\n${m}\n${big}\n(<= (small ?x) (m ?x))`;
    const after = (hard: number): { small: boolean; looks: number } => {
      let looks = 0;
      const out = boundsWithin(text, new Deadline(Infinity, Infinity, { get aborted(): boolean { return ++looks < 0; } }));
      for (let k = 1; k <= hard; k++) expect(out.get(`big${k}/2`)).toBeUndefined();
      return { small: out.get('small/1') !== undefined, looks };
    };
    // Five shares spent leave small its bound; six leave it none: each big was charged its whole
    // share, as the join that runs out of it is. Counted before it is joined, no join ran: the join
    // looks at the budget every 65,536 steps, and no look was taken.
    expect(after(5)).toEqual({ small: true, looks: 0 });
    expect(after(6)).toEqual({ small: false, looks: 0 });
  });

  it('a bound past 20,000 rows (of a relation reading the state) is cut to all but one factor of its cross product, the most precise kept', () => {
    const n = Array.from({ length: 14 }, (_, i) => `(n ${i + 1})`).join(' ');
    const b = bounds(`${RECURSIVE}\n${n}\n(<= (ign ?a ?b ?c ?x ?y) (n ?a) (n ?b) (n ?c) (slide ?x ?y))`);
    // Whole: 14^3 x 36 = 98,784 rows; without one of ?a, ?b, ?c: 14^2 x 36 = 7,056; without ?x ?y: 14^3 = 2,744
    // but one position fewer kept.
    expect(b.get('ign/5')!.keep).toEqual([1, 2, 3, 4]);
    expect(b.get('ign/5')!.rows).toHaveLength(14 * 14 * 36);
  });
});
