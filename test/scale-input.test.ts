// Large inputs through `check` (issue 27, "parse and validate linear"): a generated game of
// 5 MB of facts, and one whose facts stand on a single 2 MB line, load and are counted in full.
// No time is asserted; a step that turns quadratic again makes these run for minutes.
import { describe, expect, it } from 'vitest';
import { bigGame } from '../scripts/big-game.mjs';
import { loadRun } from '../src/pipeline/recipes/index.js';
import { summarizeLoaded } from '../src/pipeline/stages.js';
import { parseGdl } from '../src/gdl/parser.js';
import { validateGame } from '../src/normalize/validate.js';
import { formatDiagnostic } from '../src/gdl/diagnostics.js';
import { Deadline } from '../src/deadline.js';
import { testContext } from './support/context.js';

/** ticTacToe's facts besides the generated ones: roles, indexes, init. */
const OWN_FACTS = 15;

describe('large generated games pass check', () => {
  for (const [facts, oneLine] of [[50000, false], [20000, true]] as const) {
    it(`${facts} facts${oneLine ? ' on one line' : ''}`, () => {
      const text = bigGame({ facts, oneLine });
      expect(text.length).toBeGreaterThan(facts * 90);
      const loaded = loadRun(testContext('big.kif'), text);
      expect(loaded.warnings).toEqual([]);
      const summary = summarizeLoaded(loaded);
      expect(summary.facts).toBe(facts + OWN_FACTS);
      expect(loaded.normal.rules.length).toBe(summary.facts + summary.normalizedRules);
    });
  }
});

describe('arity checks report first uses in file order', () => {
  it('names the earliest use of each further arity, however deep the terms nest', () => {
    // The stack that walks terms visits (f a b) before (f a); the report must not depend on it.
    const text = '(role r)\n(p (g (f a) (f a b)) (f c d))\n(<= terminal (p ?x ?y))\n(q 1)\n(q 1 2)\n(q 3 4)\n';
    const parsed = parseGdl(text, 'a.kif', Deadline.never());
    const lines = validateGame(parsed.game, undefined, true, Deadline.never()).diagnostics.map(formatDiagnostic).filter((l) => l.includes('arguments here'));
    expect(lines).toEqual([
      "a.kif:2:13: warning: function 'f' is used with 2 arguments here but with 1 argument at 2:7; read as distinct functions f/1 and f/2",
      "a.kif:5:1: warning: relation 'q' is used with 2 arguments here but with 1 argument at 4:1; read as distinct relations q/1 and q/2",
    ]);
  });
});
