// Foresight in the superset stage (issue 33, src/reach/foresight.ts): a relation that has not
// grown yet is named early, with an estimate.
// - A dense chain built for it: level k of `p` holds all 2^k bit vectors once `(step k)` is
//   reached, one level per round, like ruleDepthExponential. Levels 1..16 make 131,070 atoms:
//   with a budget of 100,000 the run stops at about 20,000 atoms, naming level 16 (whose
//   remainder takes the sum past the budget); with 140,000 it is not refused and derives them all.
// - chess without lazy axioms: refused within its first rounds, naming `queen_threatens`
//   (before: after 9 rounds and 12-16 s, when the relation itself had 375,000 instances).
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { loadGame, reachForGrounding, resolvePipelineOptions } from '../src/pipeline/stages.js';
import type { NormalGame } from '../src/normalize/types.js';
import { StageTimer } from '../src/timer.js';
import { HAVE_CORPUS, readGame } from './corpus.js';
import { limitError } from './support/limits.js';

const LEVELS = 16;

/** The chain game: `p<k>` over k bits, true once `(step k)` is. */
function chain(levels: number): string {
  const lines = ['(role r)', '(init (step 1))', '(bit 0)', '(bit 1)', '(legal r wait)', '(<= (legal r go) (p1 0))'];
  lines.push('(<= (next done) (does r go))', '(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))', `(<= terminal (true (step ${levels})))`, '(goal r 100)');
  for (let k = 1; k < levels; k++) lines.push(`(succ ${k} ${k + 1})`);
  for (let k = 1; k <= levels; k++) {
    const vars = Array.from({ length: k }, (_, i) => `?b${k - 1 - i}`);
    const bits = vars.map((v) => `(bit ${v})`).join(' ');
    lines.push(`(<= (p${k} ${vars.join(' ')}) ${bits} (true (step ${k})))`);
    // Each level also reads the next one, legal reads p1 and next reads does: so every level is
    // relevant and in the loop's component, one level per round, as in ruleDepthExponential.
    if (k < levels) lines.push(`(<= (p${k} ${vars.join(' ')}) ${bits} (not (true (step ${k}))) (p${k + 1} ${vars.join(' ')} 0) (p${k + 1} ${vars.join(' ')} 1))`);
  }
  return lines.join('\n');
}

function load(text: string, file: string): NormalGame {
  return loadGame(text, file, resolvePipelineOptions(), new StageTimer()).normal;
}


const foresight = { mayBeLazy: () => true };

describe('foresight', () => {
  it('names the level of a dense chain that takes the run past the budget, early', () => {
    const game = load(chain(LEVELS), 'chain.kif');
    const err = limitError(() => computeSupersetsProlog(game, { deadline: Deadline.never(), maxAtoms: 100_000, foresight }, { relevantOnly: true }));
    expect(err.limit?.kind).toBe('atoms');
    const d = err.diagnostics[0]!;
    expect(d.relation).toBe(`p${LEVELS}`);
    expect(d.message).toMatch(/would take the superset stage past its budget of 100000 ground atoms: about/);
    // 2^17 - 2 atoms of p in all, and a few others.
    expect(err.limit?.estimate).toBeGreaterThan(100_000);
    expect(err.limit?.estimate).toBeLessThan(140_000);
    // Early: when about 20,000 atoms are found, not at the budget.
    const found = Number(/, (\d+) atoms found/.exec(d.message)![1]);
    expect(found).toBeLessThan(40_000);
  });

  it('does not refuse a dense chain that fits the budget', () => {
    const game = load(chain(LEVELS), 'chain.kif');
    const r = computeSupersetsProlog(game, { deadline: Deadline.never(), maxAtoms: 140_000, foresight }, { relevantOnly: true });
    const p = r.supersets.axioms.filter((a) => a.rel === `p${LEVELS}`);
    expect(p.length).toBe(2 ** LEVELS);
  });

  it('is off outside grounding (no foresight in the limits): the run goes to the budget', () => {
    const game = load(chain(LEVELS), 'chain.kif');
    const err = limitError(() => computeSupersetsProlog(game, { deadline: Deadline.never(), maxAtoms: 100_000 }, { relevantOnly: true }));
    expect(err.diagnostics[0]!.message).toMatch(/more than 100000 ground atoms in all/);
  });

  it.skipIf(!HAVE_CORPUS)('refuses chess without lazy axioms in its first rounds, naming queen_threatens', () => {
    const file = 'ggp-repository-base/chess.kif';
    const options = resolvePipelineOptions({ timeoutSeconds: 600 });
    const normal = loadGame(readGame(file), file, options, new StageTimer()).normal;
    const err = limitError(() => reachForGrounding(normal, options, new StageTimer()));
    expect(err.limit?.kind).toBe('atoms');
    expect(err.limit?.estimate).toBeGreaterThan(4_000_000);
    const d = err.diagnostics[0]!;
    expect(d.relation).toBe('queen_threatens');
    const rounds = Number(/an estimate after (\d+) rounds/.exec(d.message)![1]);
    expect(rounds).toBeLessThanOrEqual(5);
  }, 300_000);
});
