// Every corpus game loads (parse, validate, normalize) with exactly the outcome recorded for
// it in test/expectations/corpus.tsv: valid, or invalid with that first error. A game added to
// or removed from the corpus fails too, until scripts/corpus-expectations.mjs is run again.
import { describe, expect, it } from 'vitest';
import { GdlError, formatDiagnostic } from '../src/gdl/diagnostics.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import { HAVE_CORPUS, listGames, readGame } from './corpus.js';
import { readExpectations } from './support/expectations.js';
import { StageTimer } from '../src/timer.js';

/** How loading `rel` ends: ok, or invalid with its first error (file name removed). */
function loadOutcome(rel: string): { load: string; loadMessage: string } {
  try {
    loadGame(readGame(rel), rel, defaultPipelineOptions(), new StageTimer());
    return { load: 'ok', loadMessage: '' };
  } catch (err) {
    if (!(err instanceof GdlError)) throw err;
    const first = err.diagnostics.find((d) => d.severity === 'error') ?? err.diagnostics[0]!;
    return { load: err.code, loadMessage: formatDiagnostic(first).slice(rel.length + 1) };
  }
}

describe.skipIf(!HAVE_CORPUS)('every corpus game loads with its recorded outcome', () => {
  const expected = readExpectations();
  const games = listGames();

  it('lists exactly the games of the corpus', () => {
    expect([...expected.keys()].sort()).toEqual(games);
  });

  it('records both outcomes, so that a wrong one can fail', () => {
    const loads = [...expected.values()].map((e) => e.load);
    expect(loads.filter((l) => l === 'invalid').length).toBeGreaterThan(0);
    expect(loads.filter((l) => l === 'ok').length).toBeGreaterThan(300);
  });

  it.each(games)('%s', (rel) => {
    const want = expected.get(rel);
    expect(want, `${rel} has no expectation: run scripts/corpus-expectations.mjs`).toBeDefined();
    expect(loadOutcome(rel)).toEqual({ load: want!.load, loadMessage: want!.loadMessage });
  });
});
