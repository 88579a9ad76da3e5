/** Small GDL texts as normalized games and rule shapes, for the join-plan tests. */
import { expect } from 'vitest';
import { parseGdl } from '../../src/gdl/parser.js';
import { normalizeGame } from './normalize.js';
import { type RuleShape, ruleShape } from '../../src/reach/plan.js';
import { planRelaxedGame } from '../../src/reach/relaxed.js';
import { Deadline } from '../../src/deadline.js';

/** `text` parsed (without diagnostics) and normalized. */
export function game(text: string) {
  const parsed = parseGdl(text, 't.kif', Deadline.never());
  expect(parsed.diagnostics).toEqual([]);
  return normalizeGame(parsed.game);
}

/** The shape of the first relaxed rule whose head is `rel`. */
export function shapeOf(text: string, rel: string): RuleShape {
  const rule = planRelaxedGame(game(text)).components.flatMap((c) => c.rules).find((r) => r.head.rel === rel)!;
  return ruleShape(rule);
}
