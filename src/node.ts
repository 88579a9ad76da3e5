/**
 * `gdl-grounder/node`: what the library does with files, for Node only (the main entry imports
 * nothing from Node, docs/library.md): read a game file as the command line reads it, load or
 * ground a file, and write an output's files atomically. Built on the command line's own file
 * handling (src/cli/io.ts), so a file is read and written exactly as `gdl-ground` does.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type GroundOptions, type Grounding, groundGame } from './api/ground.js';
import { type LoadOptions, type LoadResult, loadGame } from './api/load.js';
import type { Output } from './api/emit.js';
import { GdlError } from './gdl/diagnostics.js';
import { gameName, readGameFile, writeAtomicFiles } from './cli/io.js';

/**
 * The text of the game file at `path` (`-`: standard input), decoded as `gdl-ground` decodes it
 * (bytes that are not UTF-8 become U+FFFD, which loading reports at their position). Throws an
 * `Error` when the file cannot be read.
 */
export function readGame(path: string): string {
  return readGameFile(path);
}

/** {@link loadGame} of the file at `path`, named by its path in diagnostics (`<stdin>` for `-`). */
export function loadGameFile(path: string, options: Omit<LoadOptions, 'file'> = {}): LoadResult {
  return loadGame(readGame(path), { ...options, file: gameName(path) });
}

/**
 * Loads and grounds the file at `path` in one call (the settings of `options` for both; a time
 * limit counts for each). An invalid game throws `GdlError` with its diagnostics, as does a limit or an abort.
 */
export function groundFile(path: string, options: Omit<LoadOptions, 'file'> & GroundOptions = {}): Grounding {
  const { keepUnused, ...load } = options;
  const loaded = loadGameFile(path, load);
  if (!loaded.ok) throw new GdlError(loaded.diagnostics, loaded.limit ? 'limit' : 'invalid');
  const { signal, onProgress, onStageStart } = options;
  return groundGame(loaded.game, { keepUnused, signal, onProgress, onStageStart });
}

/**
 * Writes the files of `output` into the folder `dir` (made when missing), all or none: each goes
 * to a temporary file first, renamed into place once every one is whole. Returns the paths written.
 */
export function writeOutput(dir: string, output: Output): string[] {
  mkdirSync(dir, { recursive: true });
  const files = output.files.map((f) => [join(dir, f.name), f.text] as const);
  writeAtomicFiles(files);
  return files.map(([path]) => path);
}
