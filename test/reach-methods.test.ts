// `reach` prints the game's relations only, whatever the method (docs/architecture.md): the
// dependency-graph method's supersets are read back from the pruned ground game, which also holds
// the auxiliary relations of instantiation's rewrites (`split-2`, `split-3`, ... of the frame and
// split rules); those are the grounder's, and `reach --method dg` printed them on these games,
// where `reach --method prolog` never did. Each game runs as `gdl-ground reach` runs it.
import { StageTimer } from '../src/timer.js';
import { describe, expect, it } from 'vitest';
import { atomToString } from '../src/gdl/terms.js';
import { finalSupersets } from '../src/ground/reachability.js';
import { formatSupersets, groundGame, loadGame, postProcessedSupersets, reachGame, resolvePipelineOptions } from '../src/pipeline/stages.js';
import { HAVE_CORPUS, readGame } from './corpus.js';

const GAMES = ['breakthrough', 'breakthroughSmall', 'endgame', 'sheepAndWolf'].map((g) => `ggp-repository-base/${g}.kif`);

describe.skipIf(!HAVE_CORPUS)('reach prints the same relations by both methods', () => {
  it.each(GAMES)('%s: reach --method dg equals reach --method prolog', (file) => {
    const text = readGame(file);
    const prolog = resolvePipelineOptions({ method: 'prolog', timeoutSeconds: 120 });
    const dg = resolvePipelineOptions({ method: 'dg', timeoutSeconds: 120 });
    const byProlog = formatSupersets(reachGame(loadGame(text, file, prolog, new StageTimer()).normal, prolog, new StageTimer()).supersets);
    const byDg = formatSupersets(postProcessedSupersets(loadGame(text, file, dg, new StageTimer()).normal, dg, new StageTimer()).supersets);
    expect(byDg).not.toMatch(/^\(split-/m);
    expect(byDg).toBe(byProlog);
  });

  it('has auxiliary relations in the ground game to leave out (breakthrough)', () => {
    // Without them the case above could not fail: the read-back before filtering holds them.
    const file = GAMES[0]!;
    const options = resolvePipelineOptions({ method: 'dg', timeoutSeconds: 120 });
    const normal = loadGame(readGame(file), file, options, new StageTimer()).normal;
    const reach = reachGame(normal, options, new StageTimer());
    const all = finalSupersets(normal, reach.supersets, groundGame(normal, reach.supersets, options, new StageTimer()), options.deadline);
    expect(all.axioms.map(atomToString).filter((a) => a.startsWith('(split-')).length).toBeGreaterThan(0);
  });
});
