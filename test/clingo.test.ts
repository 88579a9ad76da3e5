/**
 * Issue 4, "Exact": the Prolog method's supersets must equal the least model of the relaxed
 * game, which clingo computes independently (test/support/clingo.ts). This runs a fixed,
 * varied subset of the corpus; scripts/compare-clingo.mjs runs every game.
 *
 * The subset is the games that agreed when test/expectations/clingo-agree.txt was written
 * (scripts/compare-clingo.mjs --write-agree, with limits of 3 s for clingo and 4 s for Prolog).
 * Each runs with ten times those limits, so that a loaded machine does not time out on them, and
 * every verdict but `agree` fails: a difference, a crash, a validator's refusal and a time-out
 * alike (a time-out is a slowdown, and used to pass as a skip). Scripts/compare-clingo.mjs runs
 * every game, the slow ones included.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HAVE_CORPUS, listGames, readGame } from './corpus.js';
import { compareWithClingo } from './support/clingo.js';

/** Ten times the limits the list was written with, so only a real slowdown misses them. */
const AGREE_LIMITS = { clingoMs: 30_000, prologMs: 40_000, alwaysProlog: false } as const;

/** Games that agreed with the short limits when the list was written. */
const EXPECTED_TO_AGREE = new Set(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'expectations/clingo-agree.txt'), 'utf8').split('\n').filter((l) => l !== ''),
);

/**
 * Games whose relaxed supersets are known to be very large (README of the corpus): they only
 * cost their time limits here, so the subset leaves them to scripts/compare-clingo.mjs.
 */
const KNOWN_HARD =
  /\/(chess|sudoku|merrills|slaughter|racer|racer4|mummymaze1p|gt_two_thirds_[46]p|laikLee_hex|ruleDepth(Exponential|Quadratic)|amazons.*|chinese[cC]heckers.*|pancakes.*|knightstour)\.kif$/;

/**
 * The fixed subset: every game of the small collections (ggp-base-test, libgdl) and every
 * second game, in name order, of ggp-repository-base, so that each family of variants
 * (checkers-*, tictactoe-*, ...) is sampled; then the known hard cases are left out.
 */
export function clingoSubset(all: readonly string[]): string[] {
  const base = all.filter((g) => g.startsWith('ggp-repository-base/'));
  const keep = new Set(base.filter((_g, i) => i % 2 === 0));
  return all.filter((g) => (!g.startsWith('ggp-repository-base/') || keep.has(g)) && !KNOWN_HARD.test(g));
}

/** The subset's games that agreed when the list was written: each must agree again. */
const games = clingoSubset(listGames()).filter((g) => EXPECTED_TO_AGREE.has(g));

describe.skipIf(!HAVE_CORPUS)('Prolog supersets equal clingo least model', () => {
  it('uses a subset of at least 120 games', () => {
    expect(games.length).toBeGreaterThanOrEqual(120);
  });

  it.each(games)('%s', async (game) => {
    const verdict = await compareWithClingo(readGame(game), game, AGREE_LIMITS);
    if (verdict.kind === 'differ') {
      const where = `${game}: clingo ${verdict.clingoLines} lines, prolog ${verdict.prologLines} lines`;
      expect.fail(`${where}; first differences (- only clingo, + only prolog):\n${verdict.differences.join('\n')}`);
    }
    expect(verdict.kind, `${game} agreed with clingo when the list was written, now: ${JSON.stringify(verdict)}`).toBe('agree');
  });
});
