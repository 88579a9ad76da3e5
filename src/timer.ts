/**
 * Per-stage timing, counts and peak memory, for `--stats`, the comparison and the benchmarks:
 * the one timer of a run. The pipeline times every stage through it.
 */
import { cpuMs } from './deadline.js';

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
  /** The process's processor time when this timer was made (ms), where the host reports it. */
  private readonly cpuStart = cpuMs();

  /**
   * `onStage`, when given, is told of each stage as it ends (failed ones too), and `onStart` of
   * each as it starts: the library's progress callbacks.
   */
  constructor(private readonly onStage?: (record: StageRecord) => void, private readonly onStart?: (stage: string) => void) {}

  /**
   * Runs `fn`, records its time and the counts `count` reads off its result. A stage that
   * throws is recorded too (without counts), so that a run cut short by a limit still shows
   * where its time went.
   */
  run<T>(stage: string, fn: () => T, count: (result: T) => Record<string, number> = () => ({})): T {
    this.onStart?.(stage);
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
    const record = { stage, ms, counts, rss };
    this.records.push(record);
    this.onStage?.(record);
  }

  /**
   * Processor seconds the process has used since this timer was made (the run so far, as a
   * stage budget counts time: docs/mutex.md, 2c); where the host reports none, the wall-clock
   * seconds of the stages recorded.
   */
  processorSeconds(): number {
    const now = cpuMs();
    if (now === undefined || this.cpuStart === undefined) return totalMs(this.records) / 1000;
    return (now - this.cpuStart) / 1000;
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

/** Sum of the stages' milliseconds: the `total` of `--stats` and `--stats-json`. */
function totalMs(records: readonly StageRecord[]): number {
  let total = 0;
  for (const r of records) total += r.ms;
  return total;
}

/**
 * Human-readable lines for stderr: `parse      12.3 ms  rules=40`, one per stage, then the
 * total of the stages and the peak memory.
 */
export function formatStages(records: readonly StageRecord[], peakRss: number): string {
  const lines = records.map((r) => {
    const counts = Object.entries(r.counts).map(([k, v]) => `${k}=${v}`).join(' ');
    return `${r.stage.padEnd(12)} ${r.ms.toFixed(1).padStart(9)} ms  ${counts}`;
  });
  lines.push(`${'total'.padEnd(12)} ${totalMs(records).toFixed(1).padStart(9)} ms`);
  lines.push(`${'peak memory'.padEnd(12)} ${(peakRss / 2 ** 20).toFixed(1).padStart(9)} MiB`);
  return lines.join('\n');
}

/** The machine-readable form of a run's stages (`--stats-json`, docs in README.md). */
interface StagesJson {
  /** Format version; changes when fields change meaning. */
  readonly version: 1;
  readonly stages: readonly StageRecord[];
  /** Sum of the stages' milliseconds. */
  readonly totalMs: number;
  /** Highest resident set size seen after any stage, in bytes. */
  readonly peakRss: number;
}

/** The stages of a run as one JSON text (with a final newline), for `--stats-json`. */
export function stagesJson(records: readonly StageRecord[], peakRss: number): string {
  const out: StagesJson = { version: 1, stages: records, totalMs: totalMs(records), peakRss };
  return `${JSON.stringify(out, null, 2)}\n`;
}
