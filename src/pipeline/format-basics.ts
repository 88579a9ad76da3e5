/**
 * What every `ground` run reads of the planners' formats, apart from formats.ts (which loads the
 * GDDL model and writer and the RDDL writer): the refusal of GDL-II games and the GDDL settings
 * and file names. The command line and the batch resolve their flags with these and load the
 * formats' modules only when GDDL or RDDL is asked for (docs/corpus.md, fred20).
 */
import { GdlError, diag } from '../gdl/diagnostics.js';
import type { GameDescription } from '../gdl/ast.js';
import { firstGdl2Feature } from '../gdl/gdl2.js';

export { DEFAULT_GDDL_OPTIONS, GDDL_FILE_NAMES, type GddlFiles, type GddlOptions } from '../formats/gddl/options.js';

/**
 * GDDL and RDDL have no percepts and no chance player: a GDL-II game (docs/gdl2.md) is refused
 * before any work, as an invalid input naming its first `sees` rule or its `random` role.
 */
export function refuseGdl2(game: GameDescription, format: 'GDDL' | 'RDDL'): void {
  const hit = firstGdl2Feature(game);
  if (hit === undefined) return;
  const what = hit.kind === 'sees' ? "a 'sees' rule (what a role perceives)" : "the role 'random' (moves chosen by chance)";
  throw new GdlError([diag('error', game.file, hit.pos, `${format} cannot describe GDL-II games: this game has ${what}; use --format gdl or json`)]);
}
