/**
 * Benchmark columns of the mutex stage: for one game, grounding (Prolog method) and unused
 * instances removed, as `gdl-ground mutex` does, then states sampled by random playouts and
 * mutex groups found, proven and chosen under the stage's default time budget (docs/mutex.md).
 * Per game: the grounding's seconds T, the stage's seconds (sampling and proofs) against its
 * bound T + 10 s, the chosen groups by how they stand (proven lifted, proven ground, observed
 * only, unproven for lack of budget), proven fluents against the fluents of every group that
 * survived the playouts, and bits per state.
 */
import { GdlError } from '../gdl/diagnostics.js';
import {
  DEFAULT_MUTEX_SETTINGS, MUTEX_EXTRA_SECONDS, type NormalGame, groundNormalGame, removeUnusedInstances, resolvePipelineOptions,
} from '../pipeline/stages.js';
import { mutexGroups } from '../pipeline/stages-play.js';
import { StageTimer } from '../timer.js';

/** The mutex figures of one game. */
export interface MutexColumn {
  readonly status: 'ok' | 'limit' | 'invalid' | 'error';
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
  /** Seconds of loading and grounding before the stage (T). */
  readonly groundSeconds: number;
  /** Seconds of sampling and the mutex stage (grounding not included). */
  readonly seconds: number;
  /** Processor seconds of the process during the grounding, and during the mutex stage (what its budget counts). */
  readonly groundCpu?: number;
  readonly cpu?: number;
  readonly message?: string;
}

/** Grounds `game` and measures the mutex stage, all within `timeoutS` seconds. */
export function measureMutex(game: NormalGame, timeoutS: number, maxAtoms: number): MutexColumn {
  const options = resolvePipelineOptions({ timeoutSeconds: timeoutS, maxReachAtoms: maxAtoms });
  const timer = new StageTimer();
  const ms = (stages: (s: string) => boolean): number => timer.list().filter((r) => stages(r.stage)).reduce((s, r) => s + r.ms, 0) / 1000;
  const isMutex = (s: string): boolean => s === 'sample' || s === 'mutex';
  const times = (): { groundSeconds: number; seconds: number } => ({ groundSeconds: ms((s) => !isMutex(s)), seconds: ms(isMutex) });
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const cpu0 = cpu();
  try {
    const { ground } = groundNormalGame(game, options, timer);
    const written = removeUnusedInstances(ground, timer, options).game;
    const cpu1 = cpu();
    const r = mutexGroups(written, game, options, DEFAULT_MUTEX_SETTINGS, timer);
    const cpuTimes = { groundCpu: cpu1 - cpu0, cpu: cpu() - cpu1 };
    const proven = r.groups.filter((g) => g.proven);
    const c = r.stats.chosen;
    return {
      status: 'ok', fluents: r.fluents, bits: r.bits, groups: r.groups.length, provenGroups: proven.length,
      lifted: c.lifted.groups, ground: c.ground.groups, observed: c.observed.groups, unproven: c.unproven.groups,
      provenFluents: proven.reduce((n, g) => n + g.members.length, 0), observedFluents: r.groups.reduce((n, g) => n + g.members.length, 0),
      budgetReached: r.stats.budgetReached, ...times(), ...cpuTimes,
    };
  } catch (err) {
    const status = err instanceof GdlError ? (err.code === 'limit' ? 'limit' : 'invalid') : 'error';
    return { status, ...times(), message: String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 200) };
  }
}

/** Header cells of the mutex columns, matching {@link mutexCells}. */
export function mutexHeaders(): string[] {
  return ['mx-fluents', 'mx-bits', 'T-s', 'mx-s', 'mx-cpu-s', `<=T+${MUTEX_EXTRA_SECONDS}`, 'lifted', 'ground', 'observed', 'unproven', 'proven/obs-fl'];
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
  if (m.status !== 'ok') return [m.status, '-', m.groundSeconds.toFixed(2), m.seconds.toFixed(2), '-', '-', '-', '-', '-', '-', '-'];
  const share = m.observedFluents === 0 ? '-' : `${m.provenFluents}/${m.observedFluents} (${((100 * m.provenFluents!) / m.observedFluents!).toFixed(0)}%)`;
  return [
    String(m.fluents), String(m.bits), m.groundSeconds.toFixed(2), m.seconds.toFixed(2), m.cpu?.toFixed(2) ?? '-', withinBound(m) ? 'yes' : 'NO',
    String(m.lifted), String(m.ground), String(m.observed), String(m.unproven) + (m.budgetReached === true ? ' (budget)' : ''), share,
  ];
}
