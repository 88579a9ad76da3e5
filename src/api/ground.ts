/**
 * Grounding a loaded game: exactly the game `gdl-ground ground` writes (the recipes'
 * `groundWritten`: supersets, instantiation, pruning, unused instances removed unless kept),
 * with the stages' statistics.
 */
import type { Diagnostic } from '../gdl/diagnostics.js';
import type { GroundGame } from '../ground/types.js';
import { type GroundRun, type RunContext, groundWritten } from '../pipeline/recipes/index.js';
import type { AxiomOptions, AxiomResult, MutexResult, MutexSettings } from '../pipeline/stages.js';
import type { StageRecord } from '../timer.js';
import { type Game, LOADED } from './load.js';
import { type RunControl, type Settings, afterYield, callContext } from './settings.js';

/** The key of a {@link Grounding}'s internals: what the recipes need to emit it. */
export const GROUNDED: unique symbol = Symbol('gdl-grounder grounding');

/**
 * What later calls on one grounding made, by the JSON of the settings they were made with:
 * the playground shows the mutex groups and then writes GDDL and RDDL, which need the same
 * groups and the same game without axioms; kept here, each is made once per grounding.
 */
interface FoundStore {
  readonly mutex: Map<string, MutexResult>;
  readonly axioms: Map<string, AxiomResult>;
}

/**
 * The key of mutex settings in a {@link FoundStore}: field by field, so that settings built in
 * another order (the defaults, or the caller's options) find the same entry.
 */
export function mutexKey(s: MutexSettings): string {
  return JSON.stringify([s.playouts, s.seed, s.maxSteps, s.seconds ?? null]);
}

/** The key of axiom-removal limits in a {@link FoundStore}, field by field. */
export function axiomKey(a: AxiomOptions): string {
  return JSON.stringify([a.maxFormula, a.maxTotal ?? null]);
}

/** How a game is ground: {@link Settings} (over those it was loaded with) and whether unused instances stay. */
export interface GroundOptions extends Settings, RunControl {
  /** Keep ground rules and atoms no legal, next, goal or terminal rule depends on (default false; CLI `--keep-unused`). */
  readonly keepUnused?: boolean;
}

/** What a grounding made, for {@link emitGame}, {@link findMutexGroups} and {@link createSimulator}. */
export interface Grounding {
  readonly kind: 'grounding';
  /** The game's name, as given to `loadGame`. */
  readonly file: string;
  /** The roles, as KIF texts, in the order of the description. */
  readonly roles: readonly string[];
  /** The ground game `gdl-ground ground` writes (src/ground/types.ts), for tools that read it. */
  readonly game: GroundGame;
  /** Each stage of the grounding: name, milliseconds, counts, resident memory after it. */
  readonly stats: readonly StageRecord[];
  /** The loader's warnings (repaired rules), sorted by position. */
  readonly warnings: readonly Diagnostic[];
  /** The settings of the grounding (the game's, then the call's). */
  readonly settings: Settings;
  /** The run the recipes made (internal). */
  readonly [GROUNDED]: { readonly game: Game; readonly run: GroundRun; readonly found: FoundStore };
}

/** The settings of `options` over the game's, without the call's control. */
function settingsOf(game: Game, options: GroundOptions): Settings {
  const { keepUnused: _keep, signal: _signal, onProgress: _progress, onStageStart: _start, ...settings } = options;
  return { ...game.settings, ...settings };
}

function grounding(ctx: RunContext, game: Game, settings: Settings, keepUnused: boolean): Grounding {
  const run = groundWritten(ctx, game[LOADED], keepUnused);
  const g = run.game;
  return {
    kind: 'grounding', file: game.file, roles: g.roles.map((r) => g.terms.text(r)), game: g, stats: ctx.timer.list(),
    warnings: game.warnings, settings, [GROUNDED]: { game, run, found: { mutex: new Map(), axioms: new Map() } },
  };
}

/**
 * Grounds a loaded game as `gdl-ground ground` does, with the same defaults. Throws `GdlError`
 * (code `limit`) past a limit or when aborted.
 */
export function groundGame(game: Game, options: GroundOptions = {}): Grounding {
  const settings = settingsOf(game, options);
  return grounding(callContext(game.file, settings, options), game, settings, options.keepUnused === true);
}

/** {@link groundGame} after yielding to the event loop once (docs/library.md, "Async"). */
export async function groundGameAsync(game: Game, options: GroundOptions = {}): Promise<Grounding> {
  const settings = settingsOf(game, options);
  const ctx = callContext(game.file, settings, options);
  return afterYield(ctx, 'grounding', () => grounding(ctx, game, settings, options.keepUnused === true));
}

/**
 * The context of a later call on a grounding (emit, mutex groups, a simulator): the grounding's
 * settings with the call's own time and memory limits, its deadline starting now.
 */
export function laterContext(grounding: Grounding, options: Pick<Settings, 'timeoutSeconds' | 'maxMemoryMb'> & RunControl): RunContext {
  const { timeoutSeconds, maxMemoryMb } = options;
  const limits = { ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }), ...(maxMemoryMb === undefined ? {} : { maxMemoryMb }) };
  return callContext(grounding.file, { ...grounding.settings, ...limits }, options);
}
