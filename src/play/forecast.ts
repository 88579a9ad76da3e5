/**
 * The forecast of the reachable-state search (reachable.ts): whether the states it has still to
 * expand would, at its cost per expansion so far, outlast its budget, so that a search bound to
 * be incomplete stops early and leaves its time to what follows. A search stopped wrongly loses a
 * small game its proofs from every reachable state (docs/mutex.md 2f), so the forecast counts no
 * state it has no evidence for, except on a plateau (below). The cost per expansion is the
 * average so far, except in a layer whose expansions seldom insert a new state
 * ({@link costPerExpansion}).
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
  /** States expanded (as `expanded` counts them) when the search last found a new state. */
  readonly lastNew: number;
  /** Expansions by kind in the layer under expansion, and in the layer before it (undefined for the first). */
  readonly layerKinds: ExpansionKinds;
  readonly previousKinds?: ExpansionKinds;
}

/**
 * A layer's expansions by kind (nim30): those that inserted a new state, and the cost of those
 * that found only old ones, read at the looks at the clock between which no expansion inserted.
 */
export interface ExpansionKinds {
  /** States of the layer expanded (as `expanded` counts them). */
  readonly expanded: number;
  /** Of them, those that inserted at least one new state. */
  readonly inserting: number;
  /** Seconds and expansions between two looks of the layer with no inserting expansion between them. */
  readonly oldSeconds: number;
  readonly oldExpanded: number;
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
 * Expansions of the layer under expansion, and a share of it, before the next layer counts as
 * settled ({@link settledPlateau}): the first expansions of a layer find its successors unevenly.
 */
const SETTLED_AFTER = 1024;
const SETTLED_SHARE = 1 / 8;

/**
 * Whether the layer after the one under expansion is already known to make a plateau with it:
 * it holds within {@link PLATEAU_TOLERANCE} of as many states, and no new state has been found
 * over the last half (at least) of the layer's expansions so far, themselves at least
 * {@link SETTLED_AFTER} and {@link SETTLED_SHARE} of the layer. lightsOnParallel (docs/mutex.md,
 * lights28): the 65,536 states of its sixth layer are all found by the first 8,251 expansions of
 * its fifth, and none after: from about 16,500 expansions of the fifth the plateau is known, a
 * layer (0.4 s) before the sixth's own size shows it. A layer whose successors keep
 * coming (nim4's fourth, 16,858 states, finds its 72,956 successors throughout) is not settled.
 */
function settledPlateau(p: SearchProgress): boolean {
  const done = p.expanded - p.layerStart;
  if (done < Math.max(SETTLED_AFTER, SETTLED_SHARE * p.layerSize)) return false;
  if (2 * (p.expanded - p.lastNew) < done) return false;
  const next = p.found - (p.layerStart + p.layerSize);
  return Math.abs(next - p.layerSize) <= PLATEAU_TOLERANCE * p.layerSize;
}

/**
 * The states still to be expanded, as the forecast counts them: those found and not yet
 * expanded; on a plateau, at least the rest of the layer and {@link PLATEAU_LAYERS} more of its
 * size; when the next layer is settled as a plateau ({@link settledPlateau}), the rest of the
 * layer, the next one and {@link PLATEAU_LAYERS} - 1 more of this one's size.
 */
export function statesAhead(p: SearchProgress): number {
  const waiting = p.found - p.expanded;
  const restOfLayer = p.layerStart + p.layerSize - p.expanded;
  if (settledPlateau(p)) {
    const next = p.found - (p.layerStart + p.layerSize);
    return Math.max(waiting, restOfLayer + next + (PLATEAU_LAYERS - 1) * p.layerSize);
  }
  const plateau = p.previousSize > 0 && Math.abs(p.layerSize - p.previousSize) <= PLATEAU_TOLERANCE * p.previousSize;
  if (!plateau) return waiting;
  return Math.max(waiting, restOfLayer + PLATEAU_LAYERS * p.layerSize);
}

/**
 * Expansions that found only old states, measured, before their cost counts
 * ({@link costPerExpansion}): a few looks' worth (a look every 1,024 successors) is noise.
 */
const OLD_MEASURED = 1024;

/**
 * The share of a layer's expansions that insert a new state below which the states ahead may be
 * costed as expansions that find only old ones. nim4 (docs/mutex.md, nim30): its fourth layer,
 * 72,956 states, finds the whole fifth (57,599) in 4,960 expansions (7%), its third 28%, and the
 * fifth inserts none; bomberman2p, whose search cannot complete, would stop 0.19 s later without
 * this test (its trace, at its share).
 */
const INSERTING_SHARE = 0.3;

/**
 * The cost per expansion the states ahead are counted at: the average so far, or, when the
 * layer under expansion (while fewer than {@link SETTLED_AFTER} and {@link SETTLED_SHARE} of it
 * are expanded: the layer before it) inserts new states in fewer than {@link INSERTING_SHARE} of
 * its expansions and the next layer found so far is smaller than it, the cost of its expansions
 * that found only old states, if lower. The average holds the first expansions (the runtime
 * warming up) and those of the growing layers: nim4's was 21 us at its largest forecast in a
 * trace under load, its fourth layer's old-only expansions 17 us, its last layer's 15 us (nim30).
 * A search seen to grow keeps the average, which its stop depends on: racetrackcorridor's layers
 * grow (39,601, then 86,826) while only about a tenth of their expansions insert, and at its
 * expansions' cost by kind it would stop 0.4 s later.
 */
export function costPerExpansion(p: SearchProgress): number {
  const average = p.spent / p.expanded;
  if (p.found - (p.layerStart + p.layerSize) >= p.layerSize) return average;
  const young = p.layerKinds.expanded < Math.max(SETTLED_AFTER, SETTLED_SHARE * p.layerSize);
  const kinds = young ? p.previousKinds : p.layerKinds;
  if (kinds === undefined || kinds.oldExpanded < OLD_MEASURED || kinds.inserting >= INSERTING_SHARE * kinds.expanded) return average;
  return Math.min(average, kinds.oldSeconds / kinds.oldExpanded);
}

/** Whether the states ahead, at {@link costPerExpansion}, would take the search past `seconds`. */
export function outlasts(p: SearchProgress, seconds: number): boolean {
  if (p.spent < FORECAST_AFTER_SECONDS || p.expanded === 0) return false;
  return p.spent + statesAhead(p) * costPerExpansion(p) > seconds;
}

/** Records one layer's expansions by kind at the search's looks at the clock (reachable.ts). */
interface KindsRecorder {
  /** At a look: seconds spent, states of the layer expanded and inserting expansions so far. */
  look(spent: number, expanded: number, inserting: number): ExpansionKinds;
  /** At the layer's end (its size and inserting expansions): its kinds, and a new layer begun. */
  close(expanded: number, inserting: number): ExpansionKinds;
}

/**
 * A {@link KindsRecorder}: the time between two looks of a layer counts as that of expansions
 * finding only old states when no expansion inserted in between; the first look of a layer starts
 * its count.
 */
export function kindsRecorder(): KindsRecorder {
  let oldSeconds = 0;
  let oldExpanded = 0;
  let lastSpent = 0;
  let lastExpanded = 0;
  let lastInserting = -1;
  return {
    look(spent, expanded, inserting) {
      if (inserting === lastInserting) {
        oldSeconds += spent - lastSpent;
        oldExpanded += expanded - lastExpanded;
      }
      lastSpent = spent;
      lastExpanded = expanded;
      lastInserting = inserting;
      return { expanded, inserting, oldSeconds, oldExpanded };
    },
    close(expanded, inserting) {
      const kinds = { expanded, inserting, oldSeconds, oldExpanded };
      oldSeconds = 0;
      oldExpanded = 0;
      lastInserting = -1;
      return kinds;
    },
  };
}
