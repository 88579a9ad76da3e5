// The frame rewrite refused on the rule budget before anything is made (src/ground/frame-run.ts,
// tryFrame): games/frame-budget.kif's touched rules are estimated at every move times every cell
// (1,296), over a budget of 1,000 rules, while its moved rules (one per move) fit. The moved
// rules used to be instantiated and rolled back first (amazons: 173,960 of them); their atoms
// then stayed in the term table. Refused at once, the table holds none, and the game is the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitGround, groundNormalGame, loadGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './examples.js';

const file = join(EXAMPLES_DIR, 'frame-budget.kif');
const text = readFileSync(file, 'utf8');

/** The ground game at `--frame-above 10 --max-rules maxGroundRules`, and the texts of its table's auxiliary terms. */
function ground(maxGroundRules: number): { gdl: string; rules: number; aux: string[] } {
  const options = resolvePipelineOptions({ frameAbove: 10, maxGroundRules });
  const normal = loadGame(text, file, options, new StageTimer()).normal;
  const { ground: game } = groundNormalGame(normal, options, new StageTimer());
  const aux: string[] = [];
  // split-1 is the rewrite's static domain (cells), made in both cases.
  for (let id = 0; id < game.terms.size; id++) if (/^split-[2-9]/.test(game.terms.name(id))) aux.push(game.terms.text(id));
  return { gdl: emitGround(game, 'gdl', { baseInput: true }, new StageTimer(), options), rules: game.rules.length, aux };
}

describe('the frame rewrite over the rule budget', () => {
  it('is kept when the budget allows it', () => {
    const kept = ground(100_000);
    expect(kept.rules).toBe(129);
    expect(kept.aux).toContain('(split-2 white)');
    expect(kept.aux).toContain('(split-3 white 1 1)');
  });

  it('is refused before its moved rules are made, the rule instantiated as written', () => {
    const refused = ground(1_000);
    expect(refused.rules).toBe(669);
    expect(refused.aux).toEqual([]);
    expect(refused.gdl).toContain('(<= (next (lit 1 1)) (does white (m 1 2)) (true (lit 1 1)))');
  });
});
