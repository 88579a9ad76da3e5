/**
 * The ground game as GDL (KIF) text: roles, `base` and `input` declarations, the initial state,
 * then one ground rule per line, sorted — a valid, variable-free game description that any GDL
 * player can read, deterministic byte for byte.
 */
import { Deadline } from '../deadline.js';
import { deadlineTicker } from '../gdl/diagnostics.js';
import { atomText } from '../ground/atoms.js';
import type { GroundGame, GroundRule } from '../ground/types.js';
import { vocabulary } from './vocabulary.js';
import { lazyLines } from './lazy.js';

/** Options of the GDL output. */
export interface GdlEmitOptions {
  /**
   * Emit `(base F)` for every fluent and `(input R M)` for every move the ground game mentions.
   * They only declare the vocabulary (GDL gives them no role in play), which some tools want.
   */
  readonly baseInput: boolean;
}

/** Default: with `base` and `input` facts. */
export const DEFAULT_GDL_EMIT_OPTIONS: GdlEmitOptions = { baseInput: true };

function ruleText(game: GroundGame, r: GroundRule): string {
  const head = atomText(game, r.head);
  if (r.pos.length === 0 && r.neg.length === 0) return head;
  const body = r.pos.map((id) => atomText(game, id));
  for (const id of r.neg) body.push(`(not ${atomText(game, id)})`);
  return `(<= ${head} ${body.join(' ')})`;
}

/**
 * The lines of the GDL output, without line ends (for writing large games piecewise); past a
 * limit of `deadline` (looked at per line) it throws a limit error.
 */
export function emitGdlLines(game: GroundGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline = Deadline.never()): string[] {
  const tick = deadlineTicker(deadline, game.file, 'writing the ground game');
  const lines = ['; ground game written by gdl-grounder'];
  for (const role of game.roles) lines.push(`(role ${game.terms.text(role)})`);
  if (options.baseInput) {
    const vocab = vocabulary(game);
    for (const f of vocab.fluents) lines.push(`(base ${f.term})`);
    for (const m of vocab.moves) lines.push(`(input ${m.role} ${m.action})`);
  }
  for (const id of game.init) {
    lines.push(`(init ${game.terms.text(game.atoms[id]!.args[0]!)})`);
  }
  for (const r of game.rules) {
    tick();
    lines.push(ruleText(game, r));
  }
  // With lazy axioms, the non-ground part follows (absent otherwise: output unchanged).
  for (const line of lazyLines(game)) lines.push(line);
  return lines;
}

/** The ground game as GDL text, deterministic byte for byte; every line ends with `\n`. */
export function emitGdl(game: GroundGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline = Deadline.never()): string {
  return `${emitGdlLines(game, options, deadline).join('\n')}\n`;
}
