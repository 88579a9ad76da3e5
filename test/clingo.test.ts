/**
 * Issue 4, "Exact": the Prolog method's supersets must equal the least model of the relaxed
 * game, which clingo computes independently (test/support/clingo.ts). This runs a fixed,
 * varied subset of the corpus; scripts/compare-clingo.mjs runs every game.
 *
 * Any difference, and any crash of the Prolog method, fails. The games that agreed when
 * test/expectations/clingo-agree.txt was written (scripts/compare-clingo.mjs --write-agree,
 * with the short limits below) must agree again: they get generous limits, so that a loaded
 * machine does not skip them, and a time-out on one of them fails, as a slowdown. Any other
 * game on which clingo or the Prolog method exceeds the short limits, or that the validator
 * rejects, is skipped and counted.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HAVE_CORPUS, listGames, readGame } from './corpus.js';
import { FAILING_VERDICTS, type Verdict, compareWithClingo } from './support/clingo.js';

/** Per-engine limits for the other games: "a few seconds"; slower games are skipped, not failed. */
const LIMITS = { clingoMs: 3_000, prologMs: 4_000, alwaysProlog: false } as const;

/** Limits for games expected to agree: ten times the short ones, so only a real slowdown misses them. */
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

const games = clingoSubset(listGames());
const verdicts = new Map<string, Verdict>();

describe.skipIf(!HAVE_CORPUS)('Prolog supersets equal clingo least model', () => {
  it('uses a subset of at least 150 games', () => {
    expect(games.length).toBeGreaterThanOrEqual(150);
  });

  it('expects most of the subset to agree', () => {
    expect(games.filter((g) => EXPECTED_TO_AGREE.has(g)).length).toBeGreaterThanOrEqual(Math.floor(games.length / 2));
  });

  it.each(games)('%s', async (game) => {
    const expectAgree = EXPECTED_TO_AGREE.has(game);
    const verdict = await compareWithClingo(readGame(game), game, expectAgree ? AGREE_LIMITS : LIMITS);
    verdicts.set(game, verdict);
    if (expectAgree && verdict.kind !== 'agree' && verdict.kind !== 'differ') {
      expect.fail(`${game} agreed with clingo when the list was written, now: ${verdict.kind}${'reason' in verdict ? ` (${verdict.reason})` : ''}`);
    }
    if (verdict.kind === 'differ') {
      const where = `${game}: clingo ${verdict.clingoLines} lines, prolog ${verdict.prologLines} lines`;
      expect.fail(`${where}; first differences (- only clingo, + only prolog):\n${verdict.differences.join('\n')}`);
    }
    expect(FAILING_VERDICTS.has(verdict.kind), `${game}: ${JSON.stringify(verdict)}`).toBe(false);
  });

  afterAll(() => {
    const counts = new Map<string, number>();
    for (const v of verdicts.values()) counts.set(v.kind, (counts.get(v.kind) ?? 0) + 1);
    const skipped = [...verdicts].filter(([, v]) => v.kind !== 'agree' && !FAILING_VERDICTS.has(v.kind));
    const lines = [`clingo comparison on ${verdicts.size} games: ${[...counts].map(([k, n]) => `${k} ${n}`).join(', ')}`];
    for (const [game, v] of skipped) lines.push(`  skipped ${game}: ${v.kind}${'reason' in v ? ` (${v.reason})` : ''}`);
    console.log(lines.join('\n'));
  });
});
