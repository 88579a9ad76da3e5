/**
 * One benchmark measurement, in its own process so that peak memory and crashes stay per game:
 * `node FLAGS dist/bench/worker.js GAME TIMEOUT_S MAX_ATOMS [swi] [methods] [plain] [clingo] [mutex] [method=M]`
 * (worker.ts runs this module's {@link main}, from its bundle when current, src/bundle.ts)
 * prints one JSON line (a {@link Measurement}) on stdout; FLAGS: the command line's V8 flags
 * (src/runtime.ts, `v8Flags`), which run.ts passes. `methods` adds both superset methods
 * through instantiation (`plain` also prolog-plain), `clingo` clingo's time for the relaxed
 * game's least model; `method=M` measures the superset method M (prolog, prolog-plain, dg;
 * default prolog) in the main columns.
 */
import { readFileSync } from 'node:fs';
import { GdlError, type LimitInfo } from '../gdl/diagnostics.js';
import { type NormalGame, type ReachMethod, loadGame, reachGame, resolvePipelineOptions } from '../pipeline/stages.js';
import { StageTimer } from '../timer.js';
import { type MethodColumns, measureMethods } from './dg-column.js';
import { type SwiOutcome, runSwi } from './swi.js';
import { type ClingoTime, timeClingo } from './clingo-column.js';
import { type MutexColumn, measureMutex } from './mutex-column.js';

/** What the worker reports for one game. */
export interface Measurement {
  readonly status: 'ok' | 'limit' | 'invalid' | 'error';
  readonly message?: string;
  /** For a limit: which one, from the error's data. */
  readonly limit?: LimitInfo;
  readonly fluents?: number;
  readonly moves?: number;
  readonly axioms?: number;
  readonly iterations?: number;
  readonly answers?: number;
  readonly kept?: number;
  /** Seconds of the superset computation (after parsing and normalizing). */
  readonly seconds: number;
  /** Peak resident set size of the worker, MiB. */
  readonly peakMiB: number;
  readonly swi?: SwiOutcome;
  /** Both superset methods through instantiation and pruning (with `methods`). */
  readonly methods?: MethodColumns;
  /** clingo's time for the least model of the relaxed game (with `clingo`). */
  readonly clingo?: ClingoTime;
  /** Mutex groups of the ground game (with `mutex`). */
  readonly mutex?: MutexColumn;
}

/** What the worker is asked to measure beyond the superset computation. */
interface WorkerFlags {
  readonly swi: boolean;
  readonly methods: boolean;
  readonly plain: boolean;
  readonly clingo: boolean;
  readonly mutex: boolean;
  /** The superset method of the main columns. */
  readonly method: ReachMethod;
}

/** The flags of the worker's command line (the words after MAX_ATOMS). */
function workerFlags(words: readonly string[]): WorkerFlags {
  const method = words.find((w) => w.startsWith('method='))?.slice('method='.length);
  return {
    swi: words.includes('swi'), methods: words.includes('methods'), plain: words.includes('plain'),
    clingo: words.includes('clingo'), mutex: words.includes('mutex'),
    method: method === 'prolog-plain' || method === 'dg' ? method : 'prolog',
  };
}

async function measure(file: string, timeout: number, maxAtoms: number, f: WorkerFlags): Promise<Measurement> {
  const { swi, methods, clingo, mutex } = f;
  let loaded;
  try {
    loaded = loadGame(readFileSync(file, 'utf8'), file, resolvePipelineOptions({ timeoutSeconds: timeout }), new StageTimer());
  } catch (err) {
    return failed(err, 0);
  }
  const ours = measureTau(loaded.normal, timeout, maxAtoms, f.method);
  // SWI-Prolog and the method columns run after Tau-Prolog's own measurement, so the peak
  // memory reported is that of the superset computation.
  const withSwi = swi ? { ...ours, swi: runSwi(loaded.normal, timeout) } : ours;
  const withMethods = methods ? { ...withSwi, methods: measureMethods(loaded.normal, timeout, maxAtoms, f.plain) } : withSwi;
  const withMutex = mutex ? { ...withMethods, mutex: measureMutex(loaded, timeout, maxAtoms) } : withMethods;
  return clingo ? { ...withMutex, clingo: await timeClingo(loaded.normal, timeout) } : withMutex;
}

const peakMiB = (): number => process.resourceUsage().maxRSS / 1024;

function failed(err: unknown, seconds: number): Measurement {
  if (err instanceof GdlError) {
    const limit = err.limit === undefined ? {} : { limit: err.limit };
    return { status: err.code === 'limit' ? 'limit' : 'invalid', message: err.message.split('\n')[0], ...limit, seconds, peakMiB: peakMiB() };
  }
  return { status: 'error', message: String((err as Error)?.message ?? err).slice(0, 300), seconds, peakMiB: peakMiB() };
}

function measureTau(normal: NormalGame, timeout: number, maxAtoms: number, method: ReachMethod): Measurement {
  const timer = new StageTimer();
  const seconds = (): number => timer.list().reduce((sum, r) => sum + r.ms, 0) / 1000;
  try {
    const options = resolvePipelineOptions({ method, timeoutSeconds: timeout, maxReachAtoms: maxAtoms });
    const { supersets: s, stats } = reachGame(normal, options, timer);
    return {
      status: 'ok' as const, fluents: s.fluents.length, moves: s.moves.length, axioms: s.axioms.length,
      iterations: stats.iterations, answers: stats.answers, kept: stats.kept, seconds: seconds(), peakMiB: peakMiB(),
    };
  } catch (err) {
    return failed(err, seconds());
  }
}

/**
 * Measures the game of `args` (GAME TIMEOUT_S MAX_ATOMS [flags]) and prints its JSON line. V8's
 * flags (src/runtime.ts, v8Flags) come on this process's command line from run.ts.
 */
export async function main(args: readonly string[]): Promise<void> {
  const [file, timeout, maxAtoms, ...flags] = args;
  if (file === undefined) {
    process.stderr.write('usage: worker GAME TIMEOUT_S MAX_ATOMS [swi] [methods] [plain] [clingo] [mutex] [method=M]\n');
    process.exitCode = 2;
    return;
  }
  const result = await measure(file, Number(timeout ?? 60), Number(maxAtoms ?? 2_000_000), workerFlags(flags));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // clingo-wasm keeps a worker thread alive: end the process once the line is written.
  process.exit(0);
}
