// Lemmas through a mapping relation (src/mutex/ground-lemmas.ts, ground-lemma-pass.ts; docs/mutex.md,
// snake19): games/mutex-snake-lemmas.kif, a snake on a 3 x 3 torus, proves "one symbol per square"
// only with the lemmas its mapping rule (the tail following its square's move) gives: the ground
// SAT alone and the pairs of section 2h prove no square. A game without a mapping rule makes none.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { strengthen } from '../src/mutex/ground-exclusions.js';
import { mappedLemmas } from '../src/mutex/ground-lemmas.js';
import { type Claim, proveClaims } from '../src/mutex/prove.js';
import { type MutexView, mutexView } from '../src/mutex/view.js';
import { sampleStates } from '../src/play/sample.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

const LIMITS = { maxConflicts: 20_000, maxPairQueries: 0, maxWork: 100_000_000, deadline: Deadline.never() };

/** The ground view of a game of games/ and 50 sampled playouts' states. */
function load(game: string): { view: MutexView; states: number[][] } {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const index = new Map(view.fluents.map((f, i) => [f.term, i]));
  const states = sampleStates(ground, { playouts: 50, seed: 1, maxSteps: 50, deadline: Deadline.never() }).map((s) => s.map((t) => index.get(t)!));
  return { view, states };
}

describe('lemmas through a mapping relation', () => {
  it('mutex-snake-lemmas: the nine squares are proven with the lemmas, none without', () => {
    const { view, states } = load('mutex-snake-lemmas.kif');
    const square = (k: string): number[] => view.fluents.flatMap((f, i) => (f.name === 'cell' && `${f.args[0]} ${f.args[1]}` === k ? [i] : []));
    const keys = ['c1', 'c2', 'c3'].flatMap((x) => ['r1', 'r2', 'r3'].map((y) => `${x} ${y}`));
    const rel = (name: string): number[] => view.fluents.flatMap((f, i) => (f.name === name ? [i] : []));
    const groups = [...keys.map(square), rel('pos'), rel('tailpos')];
    const claims: Claim[] = groups.map((members, k) => ({ kind: 'amo', batch: k, members }));
    expect(claims.map((c) => c.members.length)).toEqual([...keys.map(() => 5), 9, 9]);
    const alone = proveClaims(view, claims, LIMITS);
    expect(alone.proven.slice(0, 9)).toEqual(keys.map(() => false));
    const joint = strengthen(view, states, claims, alone, LIMITS);
    expect(keys.map((_, i) => joint?.verdicts[i])).toEqual(keys.map(() => 'proven'));
    expect(joint?.lemmas?.mappingRules).toBe(36);
    expect(joint?.lemmas?.complete).toBe(true);
  });

  it('mutex-snake-lemmas-5: the 25 squares proven, the lemmas just pulled in asked first (snake20)', () => {
    const { view, states } = load('mutex-snake-lemmas-5.kif');
    const keys = [...new Set(view.fluents.flatMap((f) => (f.name === 'cell' ? [`${f.args[0]} ${f.args[1]}`] : [])))];
    const square = (k: string): number[] => view.fluents.flatMap((f, i) => (f.name === 'cell' && `${f.args[0]} ${f.args[1]}` === k ? [i] : []));
    const rel = (name: string): number[] => view.fluents.flatMap((f, i) => (f.name === name ? [i] : []));
    const claims: Claim[] = [...keys.map(square), rel('pos'), rel('tailpos')].map((members, k) => ({ kind: 'amo', batch: k, members }));
    const joint = strengthen(view, states, claims, proveClaims(view, claims, LIMITS), LIMITS);
    expect(keys.filter((_, i) => joint?.verdicts[i] === 'proven').length).toBe(25);
    expect(joint?.lemmas?.complete).toBe(true);
    // A count, not a time: 437 queries to the fixpoint; 447 in the queue's order with every claim
    // whose cone a leaving claim touches asked again (ff6207e's parent). snake_2009_big: 3,166 and 5,049.
    expect(joint?.lemmas?.queries).toBeLessThan(447);
  });

  it('a game without a mapping rule makes no lemma', () => {
    const { view, states } = load('mutex-gravity.kif');
    const r = mappedLemmas(view, [view.init, ...states], [], { maxGenerated: 1000, maxKept: 1000, stop: () => false });
    expect(r).toEqual({ lemmas: [], counts: { mappingRules: 0, generated: 0, kept: 0 } });
  });
});
