/**
 * Benchmark columns of the mutex stage: for one game, grounding (Prolog method) and unused
 * instances removed, as `gdl-ground mutex` does, then states sampled by random playouts and
 * mutex groups found, proven and chosen under the stage's default time budget (docs/mutex.md).
 * A game whose grounding stops at a limit that lazy axioms answer is ground again the way
 * `gdl-ground mutex GAME --lazy-axioms` grounds it (its recipe), and measured there.
 * Per game: the grounding's seconds T, the stage's seconds (sampling and proofs) against its
 * bound T + 10 s, the chosen groups by how they stand (proven lifted, proven ground, observed
 * only, unproven for lack of budget), proven fluents against the fluents of every group that
 * survived the playouts, bits per state, and how the game was ground.
 */
import { GdlError } from '../gdl/diagnostics.js';
import {
  DEFAULT_MUTEX_SETTINGS, MUTEX_EXTRA_SECONDS, type LoadedGame, type MutexResult, groundNormalGame, lazyWouldAnswer, removeUnusedInstances,
  resolvePipelineOptions,
} from '../pipeline/stages.js';
import { mutexGroups } from '../pipeline/stages-play.js';
import { mutexRecipe, runContext } from '../pipeline/recipes/index.js';
import { fullCollection } from '../runtime.js';
import { StageTimer } from '../timer.js';

/**
 * How the column ground the game: `eager` every rule ground (no lazy axioms), `lazy` with lazy
 * axioms after the eager grounding stopped at a limit that they answer (docs/lazy.md).
 */
type GroundingMode = 'eager' | 'lazy';

/** The mutex figures of one game. */
export interface MutexColumn {
  readonly status: 'ok' | 'limit' | 'invalid' | 'error';
  /** How the game was ground; the figures are those of this grounding. */
  readonly mode: GroundingMode;
  readonly fluents?: number;
  readonly bits?: number;
  readonly groups?: number;
  readonly provenGroups?: number;
  /** Chosen groups (two or more members, or exactly-one) by how they stand. */
  readonly lifted?: number;
  readonly ground?: number;
  readonly observed?: number;
  readonly unproven?: number;
  /** Fluents in proven groups of two or more members, or in proven exactly-one groups. */
  readonly provenFluents?: number;
  /** Fluents in every chosen group, proven or not: those that lie in observed groups. */
  readonly observedFluents?: number;
  /** The stage's time budget ran out. */
  readonly budgetReached?: boolean;
  /** Seconds of grounding (and unused-instance removal) before the stage (T); loading is not in it: the worker loads the game once, before. */
  readonly groundSeconds: number;
  /** Seconds of sampling and the mutex stage (grounding not included). */
  readonly seconds: number;
  /** Processor seconds of the process during the grounding, and during the mutex stage (what its budget counts). */
  readonly groundCpu?: number;
  readonly cpu?: number;
  /**
   * Mode `lazy`: the wall-clock and processor seconds of the eager grounding that stopped at
   * its limit, counted in neither T nor the stage's time (the run with lazy axioms starts its
   * own timer, deadline and budget after it).
   */
  readonly eagerSeconds?: number;
  readonly eagerCpu?: number;
  readonly message?: string;
}

/** The process's processor seconds so far. */
function processCpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Seconds of the grounding (T) and of the stage (sampling and proofs) by `timer`'s records. */
function wallTimes(timer: StageTimer): { groundSeconds: number; seconds: number } {
  const isMutex = (s: string): boolean => s === 'sample' || s === 'mutex';
  const ms = (stages: (s: string) => boolean): number => timer.list().filter((r) => stages(r.stage)).reduce((s, r) => s + r.ms, 0) / 1000;
  return { groundSeconds: ms((s) => !isMutex(s)), seconds: ms(isMutex) };
}

/** The figures of a finished stage. */
function figures(r: MutexResult): Omit<MutexColumn, 'status' | 'mode' | 'groundSeconds' | 'seconds'> {
  const proven = r.groups.filter((g) => g.proven);
  const c = r.stats.chosen;
  return {
    fluents: r.fluents, bits: r.bits, groups: r.groups.length, provenGroups: proven.length,
    lifted: c.lifted.groups, ground: c.ground.groups, observed: c.observed.groups, unproven: c.unproven.groups,
    provenFluents: proven.reduce((n, g) => n + g.members.length, 0), observedFluents: r.groups.reduce((n, g) => n + g.members.length, 0),
    budgetReached: r.stats.budgetReached,
  };
}

/** The column of a run that threw `err`. */
function failure(err: unknown, mode: GroundingMode, timer: StageTimer): MutexColumn {
  const status = err instanceof GdlError ? (err.code === 'limit' ? 'limit' : 'invalid') : 'error';
  return { status, mode, ...wallTimes(timer), message: String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 200) };
}

/**
 * Grounds `loaded` and measures the mutex stage, within `timeoutS` seconds; when the grounding
 * stops at a limit that lazy axioms answer, grounds it again with them, within `timeoutS`
 * seconds of its own, and measures the stage there (mode `lazy`).
 */
export function measureMutex(loaded: LoadedGame, timeoutS: number, maxAtoms: number): MutexColumn {
  const wall0 = performance.now();
  const cpu0 = processCpu();
  const eager = measureEager(loaded, timeoutS, maxAtoms);
  if (eager.kind === 'measured') return eager.column;
  if (!lazyWouldAnswer(loaded.normal, eager.error)) return failure(eager.error, 'eager', eager.timer);
  const stopped = { eagerSeconds: (performance.now() - wall0) / 1000, eagerCpu: processCpu() - cpu0 };
  return { ...measureLazy(loaded, timeoutS, maxAtoms), ...stopped };
}

/** An eager run's column, or the error that stopped its grounding (the stage's own stops are columns). */
type EagerRun = { readonly kind: 'measured'; readonly column: MutexColumn } | { readonly kind: 'stopped'; readonly error: unknown; readonly timer: StageTimer };

/** Grounding without lazy axioms, unused instances removed, then the stage: processor time read between them. */
function measureEager(loaded: LoadedGame, timeoutS: number, maxAtoms: number): EagerRun {
  const options = resolvePipelineOptions({ timeoutSeconds: timeoutS, maxReachAtoms: maxAtoms });
  const timer = new StageTimer();
  const cpu0 = processCpu();
  let written;
  try {
    const { ground } = groundNormalGame(loaded.normal, options, timer);
    written = removeUnusedInstances(ground, timer, options).game;
  } catch (err) {
    return { kind: 'stopped', error: err, timer };
  }
  const cpu1 = processCpu();
  try {
    const r = mutexGroups(written, loaded.normal, options, DEFAULT_MUTEX_SETTINGS, timer);
    return { kind: 'measured', column: { status: 'ok', mode: 'eager', ...figures(r), ...wallTimes(timer), groundCpu: cpu1 - cpu0, cpu: processCpu() - cpu1 } };
  } catch (err) {
    return { kind: 'measured', column: failure(err, 'eager', timer) };
  }
}

/**
 * `gdl-ground mutex GAME --lazy-axioms` on the loaded game: its recipe, with a timer, deadline
 * and budget of its own; the processor seconds are those the stage reports (its budget's T).
 */
function measureLazy(loaded: LoadedGame, timeoutS: number, maxAtoms: number): MutexColumn {
  // The command line collects a stopped lazy round's data before the next one where it can.
  const reclaim = fullCollection();
  const options = resolvePipelineOptions({ timeoutSeconds: timeoutS, maxReachAtoms: maxAtoms, lazyAxioms: true, ...(reclaim === undefined ? {} : { reclaim }) });
  const ctx = runContext(loaded.normal.file, options, new StageTimer());
  try {
    const r = mutexRecipe(ctx, loaded, DEFAULT_MUTEX_SETTINGS).mutex;
    const cpu = r.stats.time === undefined ? {} : { groundCpu: r.stats.time.beforeSeconds, cpu: r.stats.time.sampleSeconds + r.stats.time.proofSeconds };
    return { status: 'ok', mode: 'lazy', ...figures(r), ...wallTimes(ctx.timer), ...cpu };
  } catch (err) {
    return failure(err, 'lazy', ctx.timer);
  }
}

/** Header cells of the mutex columns, matching {@link mutexCells}. */
export function mutexHeaders(): string[] {
  return ['mx-fluents', 'mx-bits', 'T-s', 'mx-s', 'mx-cpu-s', `<=T+${MUTEX_EXTRA_SECONDS}`, 'lifted', 'ground', 'observed', 'unproven', 'proven/obs-fl', 'mx-grounding'];
}

/**
 * Whether the stage kept within its default bound, as the stage counts it: its processor
 * seconds against the grounding's processor seconds plus the extra seconds (the grounding's
 * wall-clock seconds grow with the machine's load, docs/mutex.md 2c); wall-clock seconds where
 * no processor time was measured.
 */
export function withinBound(m: MutexColumn): boolean {
  return (m.cpu ?? m.seconds) <= (m.groundCpu ?? m.groundSeconds) + MUTEX_EXTRA_SECONDS;
}

/** Cells of the mutex columns for one game (the status word when it did not finish). */
export function mutexCells(m: MutexColumn | undefined): string[] {
  if (m === undefined) return mutexHeaders().map(() => '-');
  if (m.status !== 'ok') return [m.status, '-', m.groundSeconds.toFixed(2), m.seconds.toFixed(2), '-', '-', '-', '-', '-', '-', '-', modeCell(m)];
  const share = m.observedFluents === 0 ? '-' : `${m.provenFluents}/${m.observedFluents} (${((100 * m.provenFluents!) / m.observedFluents!).toFixed(0)}%)`;
  return [
    String(m.fluents), String(m.bits), m.groundSeconds.toFixed(2), m.seconds.toFixed(2), m.cpu?.toFixed(2) ?? '-', withinBound(m) ? 'yes' : 'NO',
    String(m.lifted), String(m.ground), String(m.observed), String(m.unproven) + (m.budgetReached === true ? ' (budget)' : ''), share, modeCell(m),
  ];
}

/** How the game was ground; for `lazy`, the processor seconds of the eager grounding that stopped first (counted nowhere else). */
function modeCell(m: MutexColumn): string {
  // Measurements written before the column had modes (older --json files) were all eager.
  if (m.mode !== 'lazy') return 'eager';
  return m.eagerCpu === undefined ? 'lazy' : `lazy (eager stopped: ${m.eagerCpu.toFixed(2)} cpu-s)`;
}
