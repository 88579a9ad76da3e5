// The lemma pass's queries on kept cone encodings (src/mutex/lemma-cones.ts, sat-core.ts;
// docs/mutex.md, snake21): an "unsat" names the assumptions it used and no others, and a claim a
// transition can violate is answered "sat" on a kept encoding, so it is never proven.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { ruleIndex } from '../src/mutex/encode.js';
import { proveGroundJointly } from '../src/mutex/ground-joint.js';
import { KeptCones } from '../src/mutex/lemma-cones.js';
import type { Claim } from '../src/mutex/prove.js';
import { SatSolver } from '../src/mutex/sat.js';
import { type MutexView, mutexView } from '../src/mutex/view.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** The ground view of games/mutex-snake-lemmas.kif and a fluent lookup by its text. */
function snake(): { view: MutexView; fluent: (text: string) => number } {
  const text = readFileSync(join(EXAMPLES_DIR, 'mutex-snake-lemmas.kif'), 'utf8');
  const { ground } = runGrounding(text, 'mutex-snake-lemmas.kif', defaultPipelineOptions(), new StageTimer());
  const view = mutexView(ground);
  const index = new Map(view.fluents.map((f, i) => [f.text, i]));
  return { view, fluent: (text) => index.get(text)! };
}

describe('the failed assumptions of an unsat answer', () => {
  it('names the selectors the proof used, not an unrelated one', () => {
    const s = new SatSolver();
    const [a, b, x, y] = [s.newVar(), s.newVar(), s.newVar(), s.newVar()];
    s.addClause([-a, x]);
    s.addClause([-b, -x]);
    s.addClause([y, x]);
    const unrelated = s.newVar();
    s.addClause([-unrelated, y]);
    expect(s.solve([unrelated, a, b])).toBe('unsat');
    expect([...s.core].sort((p, q) => p - q)).toEqual([a, b].sort((p, q) => p - q));
    expect(s.solve([unrelated, a])).toBe('sat');
    // Learnt clauses stay valid: the same unsat again, the same core.
    expect(s.solve([b, unrelated, a])).toBe('unsat');
    expect(s.core).toContain(a);
    expect(s.core).toContain(b);
    expect(s.core).not.toContain(unrelated);
  });
});

describe('queries on kept cone encodings', () => {
  const { view, fluent } = snake();
  const pos = view.fluents.flatMap((f, i) => (f.name === 'pos' ? [i] : []));
  // "The head is at c1 r1 or at c2 r1": true initially, false after a move down.
  const row: Claim = { kind: 'alo', batch: 0, members: [fluent('(pos c1 r1)'), fluent('(pos c2 r1)')] };
  const one: Claim = { kind: 'amo', batch: 1, members: pos };

  it('a claim a transition violates is answered sat, with the head group assumed', () => {
    const cones = new KeptCones(view, ruleIndex(view), [row, one], () => false);
    const r = cones.ask(0, [2, 1], 10_000, () => false);
    expect(r.answer).toBe('sat');
    expect(cones.ask(1, [0, 2], 10_000, () => false)).toMatchObject({ answer: 'unsat', used: [1] });
    // Asked again on the kept encoding, with its learnt clauses: still sat.
    expect(cones.ask(0, [2, 1], 10_000, () => false).answer).toBe('sat');
  });

  it('the lemma pass proves the head group and not the false claim', () => {
    const r = proveGroundJointly(view, [row, one], [[0], [1]], [], { deadline: Deadline.never(), maxConflicts: 10_000, onDemand: true }, [false, false]);
    expect(r.proven).toEqual([false, true]);
    expect(r.complete).toBe(true);
  });
});
