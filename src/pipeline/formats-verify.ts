/**
 * Playing the GDDL and RDDL translations against the original game (`verify --gddl`, `verify
 * --rddl`): apart from formats.ts, which writes them, since reading and simulating them loads the
 * readers, the simulators and the reasoner, which writing does without (docs/corpus.md, gt15).
 */
import type { NormalGame, PipelineOptions, VerifyOptions, VerifyResult } from './stages.js';
import { NO_POS } from '../gdl/ast.js';
import { GdlError, diag } from '../gdl/diagnostics.js';
import type { GddlFiles } from '../formats/gddl/options.js';
import { type GddlGame, readGddl } from '../formats/gddl/read.js';
import { GddlPlayError, createGddlSimulator } from '../formats/gddl/sim.js';
import { type RddlSource, readRddl } from '../formats/rddl/read.js';
import { asEpisode, createRddlSimulator } from '../formats/rddl/sim.js';
import { createReasoner } from '../play/reasoner.js';
import { verifyGame } from '../play/verify.js';

/** Reads the three GDDL files (texts; `dir` names them in messages) into a playable game. */
export function readGddlFiles(files: GddlFiles, dir: string): GddlGame {
  return readGddl(files, dir);
}

/** Plays random matches of the original game (reasoner) and of a GDDL game side by side. */
export function verifyGddl(normal: NormalGame, game: GddlGame, options: PipelineOptions, verify: VerifyOptions): VerifyResult {
  const original = createReasoner(normal, { deadline: options.deadline });
  try {
    return verifyGame(original, createGddlSimulator(game), { ...verify, jointMovesOnly: true });
  } catch (err) {
    // A joint move the original allows but no applicable multi-action describes: a difference.
    if (!(err instanceof GddlPlayError)) throw err;
    throw new GdlError([diag('error', normal.file, NO_POS, `GDDL game differs: ${err.message}`)]);
  }
}

/**
 * Plays random matches of the original game (the reasoner) and of an RDDL translation (its
 * domain and instance texts, through this project's RDDL reader and simulator) side by side;
 * goal values are compared at terminal states only, against the reward the RDDL game pays:
 * the original's one value, 0 where it defines none, one of them where several (docs/rddl.md).
 */
export function verifyRddl(normal: NormalGame, domain: RddlSource, instance: RddlSource, options: PipelineOptions, verify: VerifyOptions): VerifyResult {
  const original = createReasoner(normal, { deadline: options.deadline });
  return verifyGame(asEpisode(original), createRddlSimulator(readRddl(domain, instance), original.roles, domain.file), { ...verify, oneGoalValue: true });
}
