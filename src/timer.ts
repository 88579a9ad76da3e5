/** Per-stage timing, counts and peak memory, for `--stats` and benchmarks. */

/** What one stage took and produced. */
export interface StageRecord {
  readonly stage: string;
  readonly ms: number;
  /** Named counts of the stage's output (rules, fluents, ...). */
  readonly counts: Readonly<Record<string, number>>;
  /** Resident set size after the stage, in bytes. */
  readonly rss: number;
}

/** Collects stage records; one per pipeline run, never shared. */
export class StageTimer {
  private readonly records: StageRecord[] = [];
  private peak = 0;

  /** Runs `fn`, records its time and the counts `count` reads off its result. */
  run<T>(stage: string, fn: () => T, count: (result: T) => Record<string, number> = () => ({})): T {
    const start = performance.now();
    const result = fn();
    const ms = performance.now() - start;
    const rss = process.memoryUsage().rss;
    this.peak = Math.max(this.peak, rss);
    this.records.push({ stage, ms, counts: count(result), rss });
    return result;
  }

  /** The records so far, in order. */
  list(): readonly StageRecord[] {
    return [...this.records];
  }

  /** Highest resident set size seen after any stage, in bytes. */
  peakRss(): number {
    return this.peak;
  }
}

/** Human-readable lines for stderr: `parse      12.3 ms  rules=40`. */
export function formatStages(records: readonly StageRecord[], peakRss: number): string {
  const lines = records.map((r) => {
    const counts = Object.entries(r.counts).map(([k, v]) => `${k}=${v}`).join(' ');
    return `${r.stage.padEnd(12)} ${r.ms.toFixed(1).padStart(9)} ms  ${counts}`;
  });
  lines.push(`${'peak memory'.padEnd(12)} ${(peakRss / 2 ** 20).toFixed(1).padStart(9)} MiB`);
  return lines.join('\n');
}
