/**
 * Benchmark columns of the mutex stage: for one game, grounding (Prolog method), then states
 * sampled by random playouts and mutex groups found, proven and chosen (docs/mutex.md), with
 * fluents, bits per state, groups, the share of fluents in proven groups and the stage's time.
 */
import { GdlError } from '../gdl/diagnostics.js';
import { DEFAULT_MUTEX_SETTINGS, type NormalGame, groundNormalGame, mutexGroups, resolvePipelineOptions } from '../pipeline/stages.js';
import { StageTimer } from '../timer.js';

/** The mutex figures of one game. */
export interface MutexColumn {
  readonly status: 'ok' | 'limit' | 'invalid' | 'error';
  readonly fluents?: number;
  readonly bits?: number;
  readonly groups?: number;
  readonly provenGroups?: number;
  /** Fluents in proven groups of two or more members, or in proven exactly-one groups. */
  readonly provenFluents?: number;
  /** Seconds of sampling and the mutex stage (grounding not included). */
  readonly seconds: number;
  readonly message?: string;
}

/** Grounds `game` and measures the mutex stage, all within `timeoutS` seconds. */
export function measureMutex(game: NormalGame, timeoutS: number, maxAtoms: number): MutexColumn {
  const options = resolvePipelineOptions({ timeoutSeconds: timeoutS, maxReachAtoms: maxAtoms });
  const timer = new StageTimer();
  const seconds = (): number => timer.list().filter((r) => r.stage === 'sample' || r.stage === 'mutex').reduce((s, r) => s + r.ms, 0) / 1000;
  try {
    const { ground } = groundNormalGame(game, options, timer);
    const r = mutexGroups(ground, game, options, DEFAULT_MUTEX_SETTINGS, timer);
    const proven = r.groups.filter((g) => g.proven);
    return {
      status: 'ok', fluents: r.fluents, bits: r.bits, groups: r.groups.length, provenGroups: proven.length,
      provenFluents: proven.reduce((n, g) => n + g.members.length, 0), seconds: seconds(),
    };
  } catch (err) {
    const status = err instanceof GdlError ? (err.code === 'limit' ? 'limit' : 'invalid') : 'error';
    return { status, seconds: seconds(), message: String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 200) };
  }
}

/** Header cells of the mutex columns, matching {@link mutexCells}. */
export function mutexHeaders(): string[] {
  return ['mx-fluents', 'mx-bits', 'mx-groups', 'proven%', 'mx-s'];
}

/** Cells of the mutex columns for one game (the status word when it did not finish). */
export function mutexCells(m: MutexColumn | undefined): string[] {
  if (m === undefined) return ['-', '-', '-', '-', '-'];
  if (m.status !== 'ok') return [m.status, '-', '-', '-', m.seconds.toFixed(2)];
  const share = m.fluents === 0 ? '-' : `${((100 * m.provenFluents!) / m.fluents!).toFixed(0)}%`;
  return [String(m.fluents), String(m.bits), `${m.provenGroups}/${m.groups}`, share, m.seconds.toFixed(2)];
}
