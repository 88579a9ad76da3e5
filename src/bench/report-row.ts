/**
 * A benchmark measurement as a row of the batch report (src/batch/report.ts), so that
 * `npm run bench` and `gdl-ground batch` write the same table: the superset computation is the
 * `reach` stage, the benchmark's own columns (iterations, answers, SWI-Prolog, methods, ...)
 * are extra columns.
 */
import type { GameRow } from '../batch/types.js';
import type { Measurement } from './worker-main.js';

/** The report status of a measurement: a worker error is a crash. */
const STATUS: Readonly<Record<Measurement['status'], GameRow['status']>> = { ok: 'ok', invalid: 'invalid', limit: 'limit', error: 'crash' };

/** The exit code `gdl-ground` gives each status (70: internal error). */
const EXIT: Readonly<Record<Measurement['status'], number>> = { ok: 0, invalid: 1, limit: 3, error: 70 };

/** The row of `game` measured as `m`, with the benchmark's further columns `extra` (header to cell). */
export function measurementRow(game: string, m: Measurement, extra: Readonly<Record<string, string>>): GameRow {
  const defined = <K extends string>(key: K, v: number | undefined): Partial<Record<K, number>> => (v === undefined ? {} : ({ [key]: v } as Record<K, number>));
  return {
    game,
    status: STATUS[m.status],
    exitCode: EXIT[m.status],
    message: m.status === 'ok' ? '' : (m.message ?? ''),
    seconds: m.seconds,
    outputs: [],
    stages: m.status === 'ok' || m.seconds > 0 ? { reach: m.seconds * 1000 } : {},
    peakMiB: m.peakMiB,
    ...defined('fluents', m.fluents),
    ...defined('moves', m.moves),
    ...defined('axioms', m.axioms),
    ...(m.limit === undefined ? {} : { limit: m.limit }),
    extra: { it: String(m.iterations ?? ''), answers: String(m.answers ?? ''), ...extra },
  };
}
