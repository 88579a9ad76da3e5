// "Some fluent per key" facts proven before the lifted induction (src/mutex/lifted-exists.ts,
// docs/mutex.md section 2e): games/mutex-marker.kif, a miniature of hexPie where a stone is placed
// with the marker of the role that moves, proves "every role has a marker", and with it the
// implication connected => cell and "one chain per square"; games/mutex-lost-marker.kif, where
// swap takes red's marker away, must prove none of the three (all are false there).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { hypotheses } from '../src/mutex/candidates.js';
import type { Existence, Implication } from '../src/mutex/implications.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { provenExistence } from '../src/mutex/lifted-exists.js';
import { key } from '../src/mutex/lifted-terms.js';
import { fluentArgs, mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** Text of a fact: `usingMarker/2 [0] player1 player2`. */
function existenceText(e: Existence): string {
  return `${e.name}/${e.arity} [${e.input.join(',')}] ${e.keys.map((k) => k.map((t) => key(t, new Map())).join(' ')).join(', ')}`;
}

/** (connected ?k ?m ?n) => (cell ?m ?n ?someone). */
const CONNECTED_CELL: Implication = { from: 'connected/3', to: 'cell/3', map: [1, 2, undefined] };

/** The facts proven, and whether the implication and "one chain per square" are, every hypothesis offered. */
function proofs(game: string): { exists: string[]; implied: number; amo: boolean } {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { loaded, ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const fluents = fluentArgs(ground);
  const exists = provenExistence(loaded.normal, view, hyps, fluents, new Map(), Deadline.never()).map(existenceText);
  const r = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6, fluents, implications: [CONNECTED_CELL] });
  const i = hyps.findIndex((h) => `${h.relation} [${h.input.join(',')}]` === 'connected/3 [1,2]');
  expect(i).toBeGreaterThanOrEqual(0);
  return { exists, implied: r.implied.length, amo: r.proven[i]! };
}

describe('"some fluent per key" facts, proven lifted', () => {
  it('mutex-marker: every role has a marker, so connected => cell and one chain per square are proven', () => {
    const r = proofs('mutex-marker.kif');
    expect(r.exists).toContain('usingmarker/2 [0] blue, red');
    expect(r).toMatchObject({ implied: 1, amo: true });
  });

  it('mutex-lost-marker: red may have no marker, and neither the fact, the implication nor the group is proven', () => {
    const r = proofs('mutex-lost-marker.kif');
    expect(r.exists.filter((e) => e.startsWith('usingmarker/2 [0]'))).toEqual([]);
    expect(r).toMatchObject({ implied: 0, amo: false });
  });
});
