// The one listing of the game corpus, in plain JavaScript so that the scripts need no build;
// src/bench/ and test/corpus.ts import it too (types in corpus.d.mts).
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Corpus folder: GDL_GAMES_DIR, or ../shared/games beside the checkout. */
export function gamesDir() {
  return process.env.GDL_GAMES_DIR ?? resolve(repo, '../shared/games');
}

/** True when `dir` holds the corpus (its INDEX.tsv). */
export function haveCorpus(dir = gamesDir()) {
  return existsSync(join(dir, 'INDEX.tsv'));
}

/**
 * Games of the corpus in `dir` as `folder/file.kif`, sorted: those of corpus folder `folder`
 * (every folder when 'all', the default) whose file name contains one of `filter` (every game
 * when `filter` is empty, the default).
 */
export function listGames(dir = gamesDir(), { folder = 'all', filter = [] } = {}) {
  const folders = folder === 'all'
    ? readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
    : [folder];
  const out = [];
  for (const d of folders) {
    for (const f of readdirSync(join(dir, d))) {
      if (f.endsWith('.kif') && (filter.length === 0 || filter.some((g) => f.includes(g)))) out.push(`${d}/${f}`);
    }
  }
  return out.sort();
}
