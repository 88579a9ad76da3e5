/**
 * The shared corpus of real games (../shared/games, beside the checkout), read in place.
 * GDL_GAMES_DIR overrides the location. Tests that need it skip when it is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Folder of the corpus. */
export const GAMES_DIR = process.env.GDL_GAMES_DIR ?? resolve(here, '../../shared/games');

/** True when the corpus is present. */
export const HAVE_CORPUS = existsSync(join(GAMES_DIR, 'INDEX.tsv'));

/** Paths, relative to GAMES_DIR, of every .kif file (sorted), e.g. `ggp-base-test/3puzzle.kif`. */
export function listGames(): string[] {
  if (!HAVE_CORPUS) return [];
  const out: string[] = [];
  for (const dir of readdirSync(GAMES_DIR, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const f of readdirSync(join(GAMES_DIR, dir.name))) if (f.endsWith('.kif')) out.push(`${dir.name}/${f}`);
  }
  return out.sort();
}

/** Reads a corpus game as text. */
export function readGame(rel: string): string {
  return readFileSync(join(GAMES_DIR, rel), 'utf8');
}

/** The file of the local example games (games/ of this repository). */
export const EXAMPLES_DIR = resolve(here, '../games');
