// A per-transition claim of a derived relation that failed is not proven again under fewer state
// claims, nor in the second lifted proof that shares its record (src/mutex/lifted-derived.ts,
// `failsAgain`; docs/mutex.md, margin30): games/mutex-derived-failed.kif, (dest ?o ?x ?y) asked
// "[0] -> [1, 2]". The pair check is a stub that counts its calls and closes no pair, so the claim
// fails whenever it is proven; the calls say when it was.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import type { AssumedClaim } from '../src/mutex/lifted-core.js';
import { type DerivedFailures, transitionFunctions } from '../src/mutex/lifted-derived.js';
import { ruleBase } from '../src/mutex/lifted-unfold.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

/** The game's per-transition claims under a failing stub check, its calls counted, the failures kept in `failed`. */
function claims(failed: DerivedFailures, calls: { n: number }): ReturnType<typeof transitionFunctions> {
  const text = readFileSync(join(EXAMPLES_DIR, 'mutex-derived-failed.kif'), 'utf8');
  const { loaded } = runGrounding(text, 'mutex-derived-failed.kif', defaultPipelineOptions(), new StageTimer());
  const close = (): boolean => (calls.n++, false);
  return transitionFunctions(loaded.normal, ruleBase(loaded.normal, new Map()).facts, ['at/3'], close, () => Deadline.never(), failed);
}

/** State claims on `at/3`: one position per object (hypothesis 0), and one object per square (hypothesis 1). */
const position: AssumedClaim = { input: [0], hypothesis: 0 };
const square: AssumedClaim = { input: [1, 2], hypothesis: 1 };
const state = (...cs: AssumedClaim[]): Map<string, AssumedClaim[]> => new Map([['at/3', cs]]);
const ask = (view: ReturnType<ReturnType<typeof transitionFunctions>>): void => view.want!('static dest/3', [true, false, false]);

describe('per-transition claims that failed', () => {
  it('failed under two state claims: not proven again under one of them, nor under none; again under another', () => {
    const calls = { n: 0 };
    const transition = claims(new Map(), calls);
    ask(transition(state(position, square)));
    const once = calls.n;
    expect(once).toBeGreaterThan(0);
    ask(transition(state(position)));
    ask(transition(state()));
    expect(calls.n).toBe(once);
    expect(transition(state(position)).get('static dest/3')).toBeUndefined();
    // Not among those it failed under: proven again.
    ask(transition(state(position, { input: [1], hypothesis: 2 })));
    expect(calls.n).toBe(2 * once);
  });

  it('the record is shared: a second lifted proof given it does not prove the claim again', () => {
    const calls = { n: 0 };
    const failed: DerivedFailures = new Map();
    ask(claims(failed, calls)(state(position)));
    const once = calls.n;
    ask(claims(failed, calls)(state(position)));
    expect(calls.n).toBe(once);
    ask(claims(new Map(), calls)(state(position)));
    expect(calls.n).toBe(2 * once);
  });
});
