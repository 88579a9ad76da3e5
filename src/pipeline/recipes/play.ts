/**
 * The recipes that play or analyse the ground game: `verify` (against the grounding made now,
 * a ground file, a GDDL or an RDDL translation), `mutex` and `play`. The grounding made now is
 * always {@link groundWritten}'s: the very game `ground GAME` writes.
 */
import { type RunContext, runContext } from '../context.js';
import type { GddlFiles, RddlSource } from '../formats.js';
import { readGddlFiles, verifyGddl, verifyRddl } from '../formats-verify.js';
import {
  type LoadedGame, type MutexResult, type MutexSettings, type PlayoutOptions, type PlayoutResult, type VerifyOptions, type VerifyResult,
  DEFAULT_MUTEX_SETTINGS, loadGroundFile,
} from '../stages.js';
import { mutexGroups, playGroundGame, playOriginalGame, verifyAgainst, verifyGrounding } from '../stages-play.js';
import { StageTimer } from '../../timer.js';
import type { Diagnostic } from '../../gdl/diagnostics.js';
import { type GroundRun, groundWritten } from './game.js';

/** What `verify` plays the original game against. */
export type VerifyTarget =
  | { readonly kind: 'grounding'; readonly keepUnused: boolean; readonly mutex: boolean }
  | { readonly kind: 'ground-file'; readonly text: string; readonly file: string }
  | { readonly kind: 'gddl'; readonly files: GddlFiles; readonly dir: string }
  | { readonly kind: 'rddl'; readonly domain: RddlSource; readonly instance: RddlSource };

/** The verdict of `verify`, the warnings of a ground file read for it, the grounding made now. */
interface VerifyRun {
  readonly result: VerifyResult;
  readonly warnings: readonly Diagnostic[];
  /** Against the grounding made now: that grounding (the game `ground` writes). */
  readonly run?: GroundRun;
  /**
   * The repairs made at loading (warnings with `repair` set). Both sides play the repaired
   * rules: the original's side is the loaded game, so a repair that changed the game would go
   * unseen here; the repairs read rules as Prolog-based players do (docs/validation.md).
   */
  readonly repairs: readonly Diagnostic[];
}

/**
 * `verify`: random matches of the original game against `target`. Against the grounding made
 * now, with `mutex` every visited state must also satisfy every proven mutex group of it.
 */
export function verifyRecipe(ctx: RunContext, loaded: LoadedGame, target: VerifyTarget, verify: VerifyOptions): VerifyRun {
  return { ...verifyTarget(ctx, loaded, target, verify), repairs: loaded.warnings.filter((d) => d.repair !== undefined) };
}

/** The comparison `verifyRecipe` makes, by target. */
function verifyTarget(ctx: RunContext, loaded: LoadedGame, target: VerifyTarget, verify: VerifyOptions): Omit<VerifyRun, 'repairs'> {
  const none: readonly Diagnostic[] = [];
  switch (target.kind) {
    case 'gddl':
      return { result: verifyGddl(loaded.normal, readGddlFiles(target.files, target.dir), ctx.options, verify), warnings: none };
    case 'rddl':
      return { result: verifyRddl(loaded.normal, target.domain, target.instance, ctx.options, verify), warnings: none };
    case 'ground-file': {
      const other = loadGroundFile(target.text, target.file, ctx.options, ctx.timer);
      return { result: verifyAgainst(loaded.normal, other.normal, ctx.options, verify), warnings: other.warnings };
    }
    case 'grounding': {
      const run = groundWritten(ctx, loaded, target.keepUnused);
      const groups = target.mutex ? mutexGroups(run.game, loaded.normal, ctx.options, DEFAULT_MUTEX_SETTINGS, ctx.timer).groups.filter((g) => g.proven) : undefined;
      return { result: verifyGrounding(loaded.normal, run.game, ctx.options, groups === undefined ? verify : { ...verify, groups }), warnings: none, run };
    }
  }
}

/** `mutex`: the mutex groups of the game `ground` writes (and that game). */
export function mutexRecipe(ctx: RunContext, loaded: LoadedGame, settings: MutexSettings): { run: GroundRun; mutex: MutexResult } {
  const run = groundWritten(ctx, loaded, false);
  return { run, mutex: mutexOfRun(ctx, loaded, run, settings) };
}

/** {@link mutexRecipe} on a grounding made already (by {@link groundWritten}) of `loaded`. */
export function mutexOfRun(ctx: RunContext, loaded: LoadedGame, run: GroundRun, settings: MutexSettings): MutexResult {
  return mutexGroups(run.game, loaded.normal, ctx.options, settings, ctx.timer);
}

/** Which engines `play` runs. */
type PlayEngine = 'ground' | 'prolog' | 'both';

/** One engine's playouts and the timer of its preparation and play (the ground engine: and the game played). */
interface EngineRun {
  readonly result: PlayoutResult;
  readonly timer: StageTimer;
  readonly run?: GroundRun;
}

/**
 * `play`: depth charges of the game `ground` writes on the fast simulator, and of the original
 * game on the reasoner, each engine timed apart (its own timer) under the run's one deadline.
 */
export function playRecipe(ctx: RunContext, loaded: LoadedGame, engine: PlayEngine, playouts: PlayoutOptions): { ground?: EngineRun; prolog?: EngineRun } {
  const out: { ground?: EngineRun; prolog?: EngineRun } = {};
  if (engine !== 'prolog') {
    const own = runContext(ctx.file, ctx.options, new StageTimer());
    const run = groundWritten(own, loaded, false);
    out.ground = { result: playGroundGame(run.game, own.options, playouts, own.timer), timer: own.timer, run };
  }
  if (engine !== 'ground') {
    const timer = new StageTimer();
    out.prolog = { result: playOriginalGame(loaded.normal, ctx.options, playouts, timer), timer };
  }
  return out;
}
