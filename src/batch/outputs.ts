/**
 * The emit step of a batch as a list of files `{name, text}`: a format that is a folder of
 * files (gddl, rddl) adds one entry to {@link BATCH_FORMATS} returning several files.
 */
import { type GroundGame, emitGround } from '../pipeline.js';
import type { StageTimer } from '../timer.js';
import type { BatchFormat } from './types.js';

/** One output file: its path relative to `--out`, and its text. */
export interface OutputFile {
  readonly name: string;
  readonly text: string;
}

/** Writes a ground game as files named after `name` (the game's name without extension). */
export type FormatWriter = (game: GroundGame, name: string, timer: StageTimer) => OutputFile[];

/** The formats `batch --format` takes, each a writer. */
export const BATCH_FORMATS: Readonly<Record<BatchFormat, FormatWriter>> = {
  gdl: (game, name, timer) => [{ name: `${name}.gdl`, text: emitGround(game, 'gdl', { baseInput: true }, timer) }],
  json: (game, name, timer) => [{ name: `${name}.json`, text: emitGround(game, 'json', { baseInput: true }, timer) }],
};

/** The names of the formats, for the option parser. */
export const BATCH_FORMAT_NAMES = Object.keys(BATCH_FORMATS) as BatchFormat[];
