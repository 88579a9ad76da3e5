/**
 * The shared corpus of real games (../shared/games, beside the checkout), read in place, as
 * listed by scripts/corpus.mjs (the one listing). GDL_GAMES_DIR overrides the location. Tests that need it skip when it is absent.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamesDir, haveCorpus, listGames as listCorpus } from '../scripts/corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));

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

/** The file of the local example games (games/ of this repository). */
export const EXAMPLES_DIR = resolve(here, '../games');
