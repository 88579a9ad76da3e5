// The lifted prover's verdicts on a small game of games/, every hypothesis offered (no sampling):
// what the mutex tests of single lifted rules (entail, functional) assert on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deadline } from '../../src/deadline.js';
import { hypotheses } from '../../src/mutex/candidates.js';
import { proveLifted } from '../../src/mutex/lifted.js';
import { fluentArgs, mutexView } from '../../src/mutex/view.js';
import { defaultPipelineOptions } from '../../src/pipeline/options.js';
import { runGrounding } from '../../src/pipeline/stages.js';
import { StageTimer } from '../../src/timer.js';
import { EXAMPLES_DIR } from '../corpus.js';

/** Per hypothesis `relation [input]` of the game, whether it is proven lifted (every hypothesis offered). */
export function provenLifted(game: string): Record<string, boolean> {
  const text = readFileSync(join(EXAMPLES_DIR, game), 'utf8');
  const { loaded, ground } = runGrounding(text, game, defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const hyps = hypotheses(view);
  const r = proveLifted(loaded.normal, view, hyps, hyps.map(() => true), { deadline: Deadline.never(), maxPairs: 1e6, fluents: fluentArgs(ground) });
  return Object.fromEntries(hyps.map((h, i) => [`${h.relation} [${h.input.join(',')}]`, r.proven[i]!]));
}
