/**
 * One measurement of the reach ablation (src/bench/ablation.ts), in a process of its own so
 * that no run warms up the next: `node FLAGS dist/bench/ablation-worker.js GAME VARIANT TIMEOUT_S`
 * (ablation-worker.ts runs this module's {@link main}, from its bundle when current, src/bundle.ts;
 * FLAGS: src/runtime.ts, `v8Flags`, which ablation.ts passes) prints one JSON line (an
 * {@link AblationRun}). VARIANT is `plain` (Algorithm 9.2 as the thesis writes it),
 * `optimized` (the `prolog` method), or `no-NAME`: the `prolog` method with the optimization
 * NAME switched off (src/reach/ablation.ts). The processor time is that of the superset
 * computation alone (`process.cpuUsage` around it: every thread of the
 * process, the collector's included), less disturbed by other processes than elapsed time.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { GdlError } from '../gdl/diagnostics.js';
import { type Optimization, formatSupersets, isOptimization, loadGame, reachGame, resolvePipelineOptions } from '../pipeline/stages.js';
import { StageTimer } from '../timer.js';

/** What one run reports. */
export interface AblationRun {
  readonly status: 'ok' | 'limit' | 'invalid' | 'error';
  readonly message?: string;
  /** Processor milliseconds of the superset computation (also for a run stopped by a limit). */
  readonly cpuMs: number;
  /** Elapsed milliseconds of the same. */
  readonly wallMs: number;
  /** SHA-256 of the supersets as `reach` prints them (the same text: the same supersets). */
  readonly digest?: string;
  readonly fluents?: number;
  readonly moves?: number;
  readonly axioms?: number;
}

/** The optimizations a variant switches off; undefined for a name that is no variant. */
function variantOff(variant: string): readonly Optimization[] | undefined {
  if (variant === 'plain' || variant === 'optimized') return [];
  const name = variant.replace(/^no-/, '');
  return variant.startsWith('no-') && isOptimization(name) ? [name] : undefined;
}

function measure(file: string, variant: string, timeoutS: number): AblationRun {
  const off = variantOff(variant);
  if (off === undefined) return { status: 'error', message: `no variant '${variant}'`, cpuMs: 0, wallMs: 0 };
  const method = variant === 'plain' ? 'prolog-plain' : 'prolog';
  const options = resolvePipelineOptions({ method, timeoutSeconds: timeoutS, reachOff: off });
  const normal = loadGame(readFileSync(file, 'utf8'), file, options, new StageTimer()).normal;
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  const elapsed = (): { cpuMs: number; wallMs: number } => {
    const c = process.cpuUsage(cpu0);
    return { cpuMs: (c.user + c.system) / 1000, wallMs: performance.now() - wall0 };
  };
  try {
    const { supersets } = reachGame(normal, options, new StageTimer());
    const times = elapsed();
    const digest = createHash('sha256').update(formatSupersets(supersets)).digest('hex');
    return { status: 'ok', ...times, digest, fluents: supersets.fluents.length, moves: supersets.moves.length, axioms: supersets.axioms.length };
  } catch (err) {
    const times = elapsed();
    const message = String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 300);
    if (err instanceof GdlError) return { status: err.code === 'limit' ? 'limit' : 'invalid', message, ...times };
    return { status: 'error', message, ...times };
  }
}

/**
 * Measures `args` (GAME VARIANT [TIMEOUT_S]) and prints its JSON line. V8's flags
 * (src/runtime.ts, v8Flags) come on this process's command line from ablation.ts.
 */
export function main(args: readonly string[]): void {
  const [file, variant, timeout] = args;
  if (file === undefined || variant === undefined) {
    process.stderr.write('usage: ablation-worker GAME VARIANT [TIMEOUT_S]\n');
    process.exitCode = 2;
    return;
  }
  process.stdout.write(`${JSON.stringify(measure(file, variant, Number(timeout ?? 60)))}\n`);
}
