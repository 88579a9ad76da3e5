// The game corpus as the scripts see it (the same rule as test/corpus.ts).
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Corpus folder: GDL_GAMES_DIR, or ../shared/games beside the checkout. */
export function gamesDir() {
  return process.env.GDL_GAMES_DIR ?? resolve(repo, '../shared/games');
}

/** Every game of the corpus as `folder/file.kif`, sorted. */
export function listGames(dir) {
  const out = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const f of readdirSync(join(dir, d.name))) if (f.endsWith('.kif')) out.push(`${d.name}/${f}`);
  }
  return out.sort();
}
