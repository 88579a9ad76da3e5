// Forbidden derived atoms in the lifted "at most one" proof (src/mutex/lifted-entail.ts,
// docs/mutex.md section 2a): games/mutex-affected.kif keeps a piece by (not (affected ?x)) and a
// move makes both its squares affected, so "one piece per square" is proven lifted; in its twin
// games/mutex-unaffected.kif only the square left is affected, a capture leaves two pieces on
// one square, and the group must not be proven. Every hypothesis is offered (no sampling).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { hypotheses } from '../src/mutex/candidates.js';
import { proveLifted } from '../src/mutex/lifted.js';
import { fluentArgs, mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** Per hypothesis `relation [input]` of the game, whether it is proven lifted. */
function provenLifted(game: string): Record<string, boolean> {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { loaded, ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const r = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6, fluents: fluentArgs(ground) });
  return Object.fromEntries(hyps.map((h, i) => [`${h.relation} [${h.input.join(',')}]`, r.proven[i]!]));
}

describe('forbidden derived atoms, lifted', () => {
  it('mutex-affected: a move affects the square it enters, so one piece per square is proven', () => {
    expect(provenLifted('mutex-affected.kif')).toMatchObject({ 'cell/2 [0]': true, 'cell/2 [1]': true });
  });

  it('mutex-unaffected: only the square left is affected, and one piece per square (false) is refused', () => {
    expect(provenLifted('mutex-unaffected.kif')).toMatchObject({ 'cell/2 [0]': false, 'cell/2 [1]': true });
  });
});
