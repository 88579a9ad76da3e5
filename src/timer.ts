/**
 * Per-stage timing, counts and peak memory, for `--stats`, the comparison and the benchmarks:
 * the one timer of a run. The pipeline times every stage through it.
 */

/** What one stage took and produced. */
export interface StageRecord {
  readonly stage: string;
  readonly ms: number;
  /** Named counts of the stage's output (rules, fluents, ...). */
  readonly counts: Readonly<Record<string, number>>;
  /** Resident set size after the stage, in bytes. */
  readonly rss: number;
}

/**
 * Bytes of `text` in UTF-8, as the stats count outputs: Node's `Buffer.byteLength` where there is
 * a `Buffer`, else a `TextEncoder` (the library runs in browsers too, where Node's globals are absent).
 */
export function utf8Length(text: string): number {
  return typeof Buffer === 'undefined' ? new TextEncoder().encode(text).length : Buffer.byteLength(text);
}

/** The resident set size in bytes where the host reports one (Node), else 0 (a browser). */
function residentBytes(): number {
  // memoryUsage.rss() reads only the resident set size, much cheaper than memoryUsage().
  return typeof process === 'undefined' ? 0 : process.memoryUsage.rss();
}

/** Collects stage records; one per pipeline run, never shared. */
export class StageTimer {
  private readonly records: StageRecord[] = [];
  private peak = 0;

  /**
   * Runs `fn`, records its time and the counts `count` reads off its result. A stage that
   * throws is recorded too (without counts), so that a run cut short by a limit still shows
   * where its time went.
   */
  run<T>(stage: string, fn: () => T, count: (result: T) => Record<string, number> = () => ({})): T {
    const start = performance.now();
    let result: T;
    try {
      result = fn();
    } catch (err) {
      this.record(stage, performance.now() - start, {});
      throw err;
    }
    this.record(stage, performance.now() - start, count(result));
    return result;
  }

  private record(stage: string, ms: number, counts: Record<string, number>): void {
    const rss = residentBytes();
    this.peak = Math.max(this.peak, rss);
    this.records.push({ stage, ms, counts, rss });
  }

  /** The records so far, in order. */
  list(): readonly StageRecord[] {
    return [...this.records];
  }

  /**
   * Milliseconds per stage name, in order of first appearance, repeated stages summed: the
   * `times` of a superset computation whose phases run once per component.
   */
  steps(): { step: string; ms: number }[] {
    const out: { step: string; ms: number }[] = [];
    for (const r of this.records) {
      const prev = out.find((t) => t.step === r.stage);
      if (prev) prev.ms += r.ms;
      else out.push({ step: r.stage, ms: r.ms });
    }
    return out;
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
