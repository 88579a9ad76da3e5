/**
 * The emit step of a batch as a list of files `{name, text}`: a format that is a folder of
 * files (gddl, rddl) adds one entry to {@link BATCH_FORMATS} returning several files.
 */
import {
  DEFAULT_AXIOM_OPTIONS, DEFAULT_MUTEX_SETTINGS, type GroundGame, type PipelineOptions, emitGround, emitGroundStream, removeGameAxioms,
} from '../pipeline/stages.js';
import { DEFAULT_GDDL_OPTIONS, GDDL_FILE_NAMES, emitRddlGround, groundToGddl } from '../pipeline/formats.js';
import type { StageTimer } from '../timer.js';
import type { BatchFormat } from './types.js';

/** One output file: its path relative to `--out`, and its text (GDL: in chunks, whose concatenation is the text). */
export interface OutputFile {
  readonly name: string;
  readonly text: string | readonly string[];
}

/** The chunks of a ground game's GDL (a game too large for one string is still written). */
function gdlChunks(game: GroundGame, timer: StageTimer, options: PipelineOptions): string[] {
  const chunks: string[] = [];
  emitGroundStream(game, 'gdl', { baseInput: true }, (c) => chunks.push(c), timer, options);
  return chunks;
}

/** Writes a ground game as files named after `name` (the game's name without extension). */
export type FormatWriter = (game: GroundGame, name: string, timer: StageTimer, options: PipelineOptions) => OutputFile[];

/** GDDL: the three files (docs/gddl.md) in a folder named after the game, default limits. */
function gddlFiles(game: GroundGame, name: string, timer: StageTimer, options: PipelineOptions): OutputFile[] {
  const settings = { gddl: DEFAULT_GDDL_OPTIONS, axioms: DEFAULT_AXIOM_OPTIONS, mutex: DEFAULT_MUTEX_SETTINGS };
  const files = groundToGddl(game, options, settings, timer).files;
  return [
    { name: `${name}/${GDDL_FILE_NAMES.domain}`, text: files.domain },
    { name: `${name}/${GDDL_FILE_NAMES.problem}`, text: files.problem },
    { name: `${name}/${GDDL_FILE_NAMES.partition}`, text: files.partition },
  ];
}

/** RDDL: `<game>_mdp.rddl` and `<game>_inst.rddl` (docs/rddl.md), default horizon; one role only. */
function rddlFiles(game: GroundGame, name: string, timer: StageTimer, options: PipelineOptions): OutputFile[] {
  const axioms = removeGameAxioms(game, options, DEFAULT_AXIOM_OPTIONS, timer);
  const files = emitRddlGround(axioms.game, name, {}, options, timer);
  return [{ name: `${name}_mdp.rddl`, text: files.domain }, { name: `${name}_inst.rddl`, text: files.instance }];
}

/** The formats `batch --format` takes, each a writer. */
export const BATCH_FORMATS: Readonly<Record<BatchFormat, FormatWriter>> = {
  gdl: (game, name, timer, options) => [{ name: `${name}.gdl`, text: gdlChunks(game, timer, options) }],
  json: (game, name, timer, options) => [{ name: `${name}.json`, text: emitGround(game, 'json', { baseInput: true }, timer, options) }],
  gddl: gddlFiles,
  rddl: rddlFiles,
};

/** The names of the formats, for the option parser. */
export const BATCH_FORMAT_NAMES = Object.keys(BATCH_FORMATS) as BatchFormat[];
