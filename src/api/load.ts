/**
 * Loading a game: parse, validate, normalize and repair (the command line's `check`), with the
 * problems found returned as data, never thrown: a program that lets its users edit games shows
 * them at their positions.
 */
import { type Diagnostic, GdlError } from '../gdl/diagnostics.js';
import type { LoadedGame } from '../pipeline/stages.js';
import { loadRun } from '../pipeline/recipes/index.js';
import type { StageRecord } from '../timer.js';
import { type RunControl, type Settings, afterYield, callContext, isAbort } from './settings.js';

/** The key of a {@link Game}'s internals: the loaded game the recipes take. */
export const LOADED: unique symbol = Symbol('gdl-grounder loaded game');

/** A valid game, loaded; opaque but for its name, warnings and settings. */
export interface Game {
  readonly kind: 'game';
  /** The name given to {@link loadGame}, used in messages and output names. */
  readonly file: string;
  /** Warnings: rules the loader repaired (docs/validation.md), sorted by position. */
  readonly warnings: readonly Diagnostic[];
  /** The settings it was loaded with; grounding starts from them. */
  readonly settings: Settings;
  /** The stages of loading: parse, validate, normalize, repair. */
  readonly stats: readonly StageRecord[];
  /** The parsed, validated and normalized game (internal). */
  readonly [LOADED]: LoadedGame;
}

/**
 * What {@link loadGame} found: a game (`ok`), or the problems that make it invalid or that
 * stopped loading at a limit (`limit` true then). Diagnostics carry file, line, column (from 1),
 * severity and message.
 */
export type LoadResult =
  | { readonly ok: true; readonly game: Game; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly limit: boolean; readonly diagnostics: readonly Diagnostic[] };

/** Where a game comes from and how to load it: its name in messages, and the run's settings. */
export interface LoadOptions extends Settings, RunControl {
  /** The game's name in diagnostics and output file names (default `game.kif`). */
  readonly file?: string;
}

/** The control part of `options` (a Game keeps only the settings). */
function settingsOf(options: LoadOptions): Settings {
  const { file: _file, signal: _signal, onProgress: _progress, onStageStart: _start, ...settings } = options;
  return settings;
}

/** A failed result for a `GdlError` (invalid game or limit); anything else, an abort included, is thrown on. */
function failure(err: unknown): LoadResult {
  if (!(err instanceof GdlError) || isAbort(err)) throw err;
  return { ok: false, limit: err.code === 'limit', diagnostics: err.diagnostics };
}

/**
 * Loads and validates the KIF text of a game. Never throws on an invalid game: the result says
 * `ok: false` with every problem found (syntax and meaning together, sorted by position). Only
 * an aborted `options.signal` throws.
 */
export function loadGame(text: string, options: LoadOptions = {}): LoadResult {
  try {
    const ctx = callContext(options.file ?? 'game.kif', settingsOf(options), options);
    return loaded(loadRun(ctx, text), ctx.timer.list(), settingsOf(options));
  } catch (err) {
    return failure(err);
  }
}

/** {@link loadGame} after yielding to the event loop once (docs/library.md, "Async"). */
export async function loadGameAsync(text: string, options: LoadOptions = {}): Promise<LoadResult> {
  const ctx = callContext(options.file ?? 'game.kif', settingsOf(options), options);
  try {
    return await afterYield(ctx, 'loading', () => loaded(loadRun(ctx, text), ctx.timer.list(), settingsOf(options)));
  } catch (err) {
    return failure(err);
  }
}

function loaded(game: LoadedGame, stats: readonly StageRecord[], settings: Settings): LoadResult {
  const value: Game = { kind: 'game', file: game.game.file, warnings: game.warnings, settings, stats, [LOADED]: game };
  return { ok: true, game: value, diagnostics: game.warnings };
}
