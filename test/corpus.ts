/**
 * The shared corpus of real games (../shared/games, beside the checkout), read in place, as
 * listed by scripts/corpus.mjs (the one listing). GDL_GAMES_DIR overrides the location. Tests that
 * need it skip when it is absent, except under CI (`CI` set, and not `false` or `0`): there every
 * test file that imports this module gets a failing test instead, so a run without the corpus
 * cannot pass as if the corpus tests had run. Tests that need only the example games import
 * test/examples.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { gamesDir, haveCorpus, listGames as listCorpus } from '../scripts/corpus.mjs';

export { EXAMPLES_DIR } from './examples.js';

/** Folder of the corpus. */
export const GAMES_DIR = gamesDir();

/** True when the corpus is present. */
export const HAVE_CORPUS = haveCorpus(GAMES_DIR);

/** Paths, relative to GAMES_DIR, of every .kif file (sorted), e.g. `ggp-base-test/3puzzle.kif`. */
export function listGames(): string[] {
  return HAVE_CORPUS ? listCorpus(GAMES_DIR) : [];
}

/** Reads a corpus game as text. */
export function readGame(rel: string): string {
  return readFileSync(join(GAMES_DIR, rel), 'utf8');
}

/** True when the environment says this is a CI run (`CI=true`, `CI=1`, ...). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.CI;
  return v !== undefined && !['', '0', 'false'].includes(v.toLowerCase());
}

// Under CI a missing corpus is a failure: the file's corpus tests would otherwise skip silently.
if (!HAVE_CORPUS && isCi()) {
  it('has the game corpus (CI: corpus tests may not skip)', () => {
    throw new Error(`the game corpus is absent at ${GAMES_DIR} (set GDL_GAMES_DIR, or unset CI to let the corpus tests skip)`);
  });
}
