/** The game corpus as the benchmark programs see it: its folder and the games to run. */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The corpus folder: GDL_GAMES_DIR, or ../shared/games beside the checkout. */
export function corpusRoot(): string {
  return process.env.GDL_GAMES_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/games');
}

/**
 * Games (`folder/file.kif`, sorted) of corpus folder `dir` (`all` for every folder) whose
 * file name contains one of `filter` (every game when `filter` is empty).
 */
export function listCorpus(root: string, dir: string, filter: readonly string[]): string[] {
  const dirs = dir === 'all' ? readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : [dir];
  const out: string[] = [];
  for (const d of dirs) {
    for (const f of readdirSync(join(root, d))) {
      if (f.endsWith('.kif') && (filter.length === 0 || filter.some((g) => f.includes(g)))) out.push(`${d}/${f}`);
    }
  }
  return out.sort();
}
