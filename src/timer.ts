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
  /**
   * The process's highest resident set size so far, read after the stage, in bytes (0 where the
   * host reports none): where it is above the stage before's, this stage raised the peak. The
   * size at a stage's end misses what a stage holds only while it runs (the writer's texts, a
   * join's blocks), which is what GNU time and the benchmarks report as the peak.
   */
  readonly maxRss: number;
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

/** The process's highest resident set size so far in bytes where the host reports one (Node), else 0. */
function highWaterBytes(): number {
  // resourceUsage().maxRSS is in KiB (getrusage's ru_maxrss on Linux).
  return typeof process === 'undefined' || typeof process.resourceUsage !== 'function' ? 0 : process.resourceUsage().maxRSS * 1024;
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
    const record = { stage, ms, counts, rss, maxRss: highWaterBytes() };
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

const MIB = 2 ** 20;

/**
 * The memory part of a stage's line: resident size at its end and the process's high-water mark
 * after it, with how far this stage raised the mark (`+N`) when it did: the stage marked last
 * is where the run's peak was reached. Empty where the host reports no memory.
 */
function memoryCell(r: StageRecord, before: number | undefined): string {
  if (r.maxRss === 0) return '';
  const rose = before !== undefined && r.maxRss > before ? ` +${((r.maxRss - before) / MIB).toFixed(0)}` : '';
  return `  [rss ${(r.rss / MIB).toFixed(0)} MiB, peak ${(r.maxRss / MIB).toFixed(0)} MiB${rose}]`;
}

/** The last stage of `records` that raised the process's high-water mark, with the mark (undefined: none known). */
function peakStage(records: readonly StageRecord[]): { stage: string; maxRss: number } | undefined {
  let found: StageRecord | undefined;
  for (let i = 1; i < records.length; i++) if (records[i]!.maxRss > records[i - 1]!.maxRss) found = records[i];
  return found === undefined ? undefined : { stage: found.stage, maxRss: found.maxRss };
}

/**
 * Human-readable lines for stderr: `parse      12.3 ms  rules=40  [rss 60 MiB, peak 61 MiB +1]`,
 * one per stage, then the total of the stages, the peak memory at a stage's end and the
 * process's high-water mark with the stage that reached it.
 */
export function formatStages(records: readonly StageRecord[], peakRss: number): string {
  const lines = records.map((r, i) => {
    const counts = Object.entries(r.counts).map(([k, v]) => `${k}=${v}`).join(' ');
    return `${r.stage.padEnd(12)} ${r.ms.toFixed(1).padStart(9)} ms  ${counts}${memoryCell(r, i === 0 ? undefined : records[i - 1]!.maxRss)}`;
  });
  lines.push(`${'total'.padEnd(12)} ${totalMs(records).toFixed(1).padStart(9)} ms`);
  lines.push(`${'peak memory'.padEnd(12)} ${(peakRss / MIB).toFixed(1).padStart(9)} MiB`);
  const peak = peakStage(records);
  if (peak !== undefined) lines.push(`${'high water'.padEnd(12)} ${(peak.maxRss / MIB).toFixed(1).padStart(9)} MiB  reached in ${peak.stage}`);
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
