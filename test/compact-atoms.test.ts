/**
 * The ground game's atoms held as term ids (src/ground/compact.ts): the `atoms` objects made on
 * the first read are those the term ids say, and pruning, unused-instance removal and the GDL
 * writer work without ever making them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { atomCount, atomTerm, atomTerms } from '../src/ground/compact.js';
import { instantiateGame } from '../src/ground/instantiate.js';
import { pruneUnreachable } from '../src/ground/reachability.js';
import { removeUnused } from '../src/axioms/unused.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import type { GroundGame } from '../src/ground/types.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { TEST_INSTANTIATE_LIMITS, TEST_REACH_LIMITS } from './support/context.js';
import { EXAMPLES_DIR } from './examples.js';

function instantiated(name: string): GroundGame {
  const file = join(EXAMPLES_DIR, name);
  const { normal } = loadGame(readFileSync(file, 'utf8'), file, defaultPipelineOptions(), new StageTimer());
  return instantiateGame(normal, computeSupersetsProlog(normal, TEST_REACH_LIMITS).supersets, TEST_INSTANTIATE_LIMITS);
}

/** `game` with reading its `atoms` objects made to throw. */
function trapped(game: GroundGame): GroundGame {
  Object.defineProperty(game, 'atoms', { get: () => { throw new Error('atom objects read'); } });
  return game;
}

describe('ground atoms as term ids', () => {
  it('makes the atom objects the term ids say, on the first read', () => {
    const game = instantiated('tictactoe.kif');
    const terms = atomTerms(game);
    expect(atomCount(game)).toBe(game.atoms.length);
    expect(game.atoms.length).toBeGreaterThan(20);
    game.atoms.forEach((a, id) => {
      expect(a.term).toBe(terms[id]);
      expect(atomTerm(game, id)).toBe(a.term);
      expect(a.rel).toBe(game.terms.functor(a.term));
      expect(a.args).toEqual(game.terms.args(a.term));
    });
  });

  it('prunes, removes unused instances and writes GDL without making atom objects', () => {
    const text = emitGdl(removeUnused(pruneUnreachable(instantiated('tictactoe.kif'), Deadline.never()), Deadline.never()).game, undefined, Deadline.never());
    const pruned = trapped(pruneUnreachable(trapped(instantiated('tictactoe.kif')), Deadline.never()));
    const fromIds = emitGdl(trapped(removeUnused(pruned, Deadline.never()).game), undefined, Deadline.never());
    expect(fromIds).toBe(text);
    expect(() => trapped(instantiated('tictactoe.kif')).atoms).toThrow('atom objects read');
  });
});
