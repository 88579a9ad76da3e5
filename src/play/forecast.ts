/**
 * The forecast of the reachable-state search (reachable.ts): whether the states it has still to
 * expand would, at its cost per expansion so far, outlast its budget, so that a search bound to
 * be incomplete stops early and leaves its time to what follows. A search stopped wrongly loses a
 * small game its proofs from every reachable state (docs/mutex.md 2f), so the forecast counts no
 * state it has no evidence for, except on a plateau (below).
 */

/** Where a breadth-first search stands at one of its looks at the clock. */
export interface SearchProgress {
  /** Seconds of the search's clock since it started (its simulator's compilation not counted). */
  readonly spent: number;
  /** States expanded, the one under expansion counted. */
  readonly expanded: number;
  /** States found (expanded or waiting). */
  readonly found: number;
  /** The layer under expansion (the states at one distance from the initial state): its first state's index and its size. */
  readonly layerStart: number;
  readonly layerSize: number;
  /** The size of the layer before it (0 for the initial state's). */
  readonly previousSize: number;
}

/**
 * The forecast is not made before this many seconds: the first expansions (compilation, the
 * runtime warming up) cost more than the rest.
 */
export const FORECAST_AFTER_SECONDS = 0.05;

/**
 * A layer within this share of the size of the one before it is a plateau. lightsOnParallel
 * (docs/mutex.md, lights27): 1, 16, 256, 4,096, then 65,536 states a layer, a step counter
 * carrying the same positions on, for 16 more layers, past the search's cap of states.
 */
const PLATEAU_TOLERANCE = 0.05;

/**
 * On a plateau the forecast counts this many more layers of the same size after the rest of
 * the layer under expansion (lightsOnParallel: stopped at its sixth layer's first look, 0.6 s,
 * instead of 2.5 s). Growth is never extrapolated: stateSpaceMedium (four times more states a
 * layer up to its last, terminal one), nim3 and nim4 (a last big layer of old states only)
 * complete their searches today, and a forecast of more growth stopped them. The plateaus of
 * the searches that complete are of small layers or cheap ones (snake_2009's peak, 35,705
 * states: its largest forecast 1.43 -> 1.60 s, below the 1.8 s its search takes).
 */
const PLATEAU_LAYERS = 4;

/**
 * The states still to be expanded, as the forecast counts them: those found and not yet
 * expanded; on a plateau, at least the rest of the layer and {@link PLATEAU_LAYERS} more of its size.
 */
export function statesAhead(p: SearchProgress): number {
  const waiting = p.found - p.expanded;
  const plateau = p.previousSize > 0 && Math.abs(p.layerSize - p.previousSize) <= PLATEAU_TOLERANCE * p.previousSize;
  if (!plateau) return waiting;
  const restOfLayer = p.layerStart + p.layerSize - p.expanded;
  return Math.max(waiting, restOfLayer + PLATEAU_LAYERS * p.layerSize);
}

/** Whether the states ahead, at the cost per expansion so far, would take the search past `seconds`. */
export function outlasts(p: SearchProgress, seconds: number): boolean {
  if (p.spent < FORECAST_AFTER_SECONDS || p.expanded === 0) return false;
  return p.spent + (statesAhead(p) * p.spent) / p.expanded > seconds;
}
