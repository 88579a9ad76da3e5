/**
 * Finds the games of a batch: files given by name, and every `.kif` (or `.gdl`) file under the
 * folders given, recursively, sorted, each game once. Each game is named after its path under
 * the folder argument, so that games of the same name in different folders keep apart.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import type { FoundGame } from './types.js';

/** File endings of game descriptions looked for in folders. */
const GAME_EXTENSIONS: readonly string[] = ['.kif', '.gdl'];

/** A path that does not exist or cannot be read. */
export class MissingPathError extends Error {}

/** Every file under `dir` with a game ending, iteratively (folders may nest deeply), sorted. */
function gamesUnder(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile() && GAME_EXTENSIONS.includes(extname(e.name).toLowerCase())) out.push(p);
    }
  }
  return out.sort();
}

/** A name without extension and with `/` separators. */
function outputName(path: string): string {
  const noExt = path.slice(0, path.length - extname(path).length);
  return noExt.split(sep).join('/');
}

/**
 * The games under `paths` (files or folders), in the order of the paths, each folder's games
 * sorted; a file reached twice counts once, and a name taken twice gets `-2`, `-3`, ...
 */
export function discoverGames(paths: readonly string[]): FoundGame[] {
  const seen = new Set<string>();
  const names = new Set<string>();
  const out: FoundGame[] = [];
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      throw new MissingPathError(`cannot read '${path}': no such file or folder`);
    }
    const files = isDir ? gamesUnder(path) : [path];
    for (const file of files) {
      const abs = resolve(file);
      if (seen.has(abs)) continue;
      seen.add(abs);
      const base = outputName(isDir ? relative(path, file) : basename(file));
      let name = base;
      for (let i = 2; names.has(name); i++) name = `${base}-${i}`;
      names.add(name);
      out.push({ file, name });
    }
  }
  return out;
}
