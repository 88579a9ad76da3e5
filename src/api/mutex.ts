/**
 * Mutex groups of a grounding (docs/mutex.md): groups of fluents of which at most one holds in
 * any reachable state, and the bits per state they give; the recipe of `gdl-ground mutex`, on
 * the grounding made already.
 */
import { mutexOfRun } from '../pipeline/recipes/index.js';
import { DEFAULT_MUTEX_SETTINGS, type MutexResult } from '../pipeline/stages.js';
import type { RunContext } from '../pipeline/recipes/index.js';
import type { StageRecord } from '../timer.js';
import { GROUNDED, type Grounding, laterContext, mutexKey } from './ground.js';
import { LOADED } from './load.js';
import { type RunControl, type Settings, afterYield } from './settings.js';

/** How states are sampled to refute candidates (the command line's `mutex` flags), all optional. */
export interface MutexOptions extends Pick<Settings, 'timeoutSeconds' | 'maxMemoryMb'>, RunControl {
  /** Random playouts whose states refute candidates (default 100; CLI `--playouts`). */
  readonly playouts?: number;
  /** Seed of the playouts (default 1; CLI `--seed`). */
  readonly seed?: number;
  /** Joint moves per playout before it is cut off (default 500; CLI `--max-steps`). */
  readonly maxSteps?: number;
}

/**
 * How a group stands (docs/mutex.md, 2c): proven on the rules with variables (`lifted`), proven
 * with at least one claim by the ground SAT (`ground`), shown not inductive by the SAT
 * (`observed`: it only survived the sampled states), or left unproven when the time budget ran
 * out (`unproven`); or proven by enumerating every reachable state of a small game (`states`, 2f).
 */
export type MutexProof = 'lifted' | 'ground' | 'observed' | 'unproven' | 'states';

/** One group: its members (fluent KIF texts, as `ground` writes them). */
export interface MutexGroup {
  /** The fluent relation of the members. */
  readonly relation: string;
  readonly members: readonly string[];
  /** Exactly one member holds in every reachable state (not just at most one). */
  readonly exactlyOne: boolean;
  /** Proven on the rules; otherwise only no sampled state broke it. */
  readonly proven: boolean;
  /** How it was proven, or why not: `lifted`, `ground` or `states` exactly when `proven`. */
  readonly proof: MutexProof;
}

/** The groups of the chosen encoding, the game's fluents and the bits per state of that encoding. */
export interface MutexGroups {
  readonly fluents: number;
  readonly bits: number;
  readonly groups: readonly MutexGroup[];
  readonly stats: readonly StageRecord[];
}

function groupsOf(ctx: RunContext, grounding: Grounding, options: MutexOptions): MutexGroups {
  const { game, run, found } = grounding[GROUNDED];
  const settings = { playouts: options.playouts ?? DEFAULT_MUTEX_SETTINGS.playouts, seed: options.seed ?? DEFAULT_MUTEX_SETTINGS.seed, maxSteps: options.maxSteps ?? DEFAULT_MUTEX_SETTINGS.maxSteps };
  const key = mutexKey(settings);
  const r: MutexResult = found.mutex.get(key) ?? mutexOfRun(ctx, game[LOADED], run, settings);
  found.mutex.set(key, r);
  const groups = r.groups.map((g) => ({ relation: g.relation, members: g.members, exactlyOne: g.exactlyOne, proven: g.proven, proof: g.proof }));
  return { fluents: r.fluents, bits: r.bits, groups, stats: ctx.timer.list() };
}


/** The mutex groups `gdl-ground mutex` finds. Throws `GdlError` for a game with lazy axioms, past a limit, or when aborted. */
export function findMutexGroups(grounding: Grounding, options: MutexOptions = {}): MutexGroups {
  return groupsOf(laterContext(grounding, options), grounding, options);
}

/** {@link findMutexGroups} after yielding to the event loop once (docs/library.md, "Async"). */
export async function findMutexGroupsAsync(grounding: Grounding, options: MutexOptions = {}): Promise<MutexGroups> {
  const ctx = laterContext(grounding, options);
  return afterYield(ctx, 'mutex groups', () => groupsOf(ctx, grounding, options));
}
