/**
 * The one corpus runner: every harness that runs games one process each (`gdl-ground batch`,
 * `npm run bench` and its modes, scripts/run-corpus.mjs, snapshot-corpus.mjs,
 * corpus-expectations.mjs, overshoot.mjs, the fuzzer) starts, times, bounds and kills its child
 * processes here. A child is a Node script (or a command such as GNU time in front of one), with
 * or without an IPC channel; it is killed past its time limit or on abort, its stdout is
 * ignored, counted or kept, its stderr kept in a bounded head and tail, and its ending comes
 * back as data. {@link runAll} schedules the games, `jobs` at a time (p-limit).
 *
 * The only place that spawns is {@link startChild}: how a child is started (and how it dies
 * with its parent) changes there alone.
 */
import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import pLimit from 'p-limit';

/** What to do with a child's stdout: nothing, count its bytes, or keep them. */
type StdoutUse = 'ignore' | 'count' | 'keep';

/** How to run one child process. */
interface ChildSpec {
  /** Arguments of Node (a script first), or of `command` when given. */
  readonly args: readonly string[];
  /** Executable to start instead of this Node (e.g. GNU time, which then starts Node); default `process.execPath`. */
  readonly command?: string;
  /** Node options before the script (`--max-old-space-size=N`); only when `command` is Node. */
  readonly execArgv?: readonly string[];
  /**
   * A message sent over an IPC channel once the child is started; made from the start time
   * (ms since the epoch) so that a child can count its time limit from its own start. Without
   * it the child has no IPC channel.
   */
  readonly message?: (startedAt: number) => unknown;
  /** An IPC channel even without a first message (a child that is sent jobs later, as the fuzzer's). */
  readonly ipc?: boolean;
  readonly stdout?: StdoutUse;
  /** Characters of stderr kept: the first and the last half (default 8192). */
  readonly stderrCap?: number;
  /** Milliseconds after which the child is killed (SIGKILL); undefined for never. */
  readonly killAfterMs?: number;
}

/** How a child ended, as the parent saw it. */
export interface Ending {
  /** The last message the child sent over IPC, if any. */
  readonly reply: unknown;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Stdout as UTF-8 (with `stdout: 'keep'`; '' otherwise). */
  readonly stdout: string;
  /** Bytes of stdout (with `'count'` or `'keep'`). */
  readonly stdoutBytes: number;
  /** Stderr, its middle cut out past `stderrCap` characters. */
  readonly stderr: string;
  /** Killed at `killAfterMs`. */
  readonly timedOut: boolean;
  /** Killed because the signal aborted. */
  readonly aborted: boolean;
  /** Wall-clock seconds from start to exit. */
  readonly seconds: number;
  /** When the child was started, ms since the epoch. */
  readonly startedAt: number;
}

/** V8's words when a heap limit aborts the process: the one place a child's death is read from its stderr. */
const HEAP_ABORT = /heap out of memory|Reached heap limit|Allocation failed/i;

/** True when the child died because V8 ran out of heap (V8 leaves no other trace than its words on stderr). */
export function heapAborted(e: Ending): boolean {
  return e.reply === undefined && HEAP_ABORT.test(e.stderr);
}

/** Keeps at most `cap` characters of a stream: the first half and the last half. */
function boundedText(cap: number): { add(s: string): void; text(): string } {
  let head = '';
  let tail = '';
  let total = 0;
  const half = Math.floor(cap / 2);
  return {
    add(s: string): void {
      total += s.length;
      const room = half - head.length;
      if (room > 0) head += s.slice(0, room);
      tail = (tail + s.slice(Math.max(room, 0))).slice(-half);
    },
    text: () => (total > head.length + tail.length ? `${head}\n[...]\n${tail}` : head + tail),
  };
}

/**
 * Starts one child as `spec` says (the one spawn of the runner; the IPC channel is the fourth
 * stdio slot when a message is to be sent). Callers that keep a child for many jobs (the
 * fuzzer) use it directly; the others go through {@link runChild}.
 */
export function startChild(spec: Pick<ChildSpec, 'args' | 'command' | 'execArgv' | 'message' | 'ipc' | 'stdout'>): ChildProcess {
  const command = spec.command ?? process.execPath;
  const args = spec.command === undefined ? [...(spec.execArgv ?? []), ...spec.args] : [...spec.args];
  const out = (spec.stdout ?? 'ignore') === 'ignore' ? 'ignore' : 'pipe';
  const ipc = spec.ipc === true || spec.message !== undefined;
  const stdio: StdioOptions = ipc ? ['ignore', out, 'pipe', 'ipc'] : ['ignore', out, 'pipe'];
  return spawn(command, args, { stdio });
}

/** Runs one child to its end; resolves when it has exited and its streams are closed (never rejects). */
export function runChild(spec: ChildSpec, signal?: AbortSignal): Promise<Ending> {
  const start = performance.now();
  const startedAt = Date.now();
  return new Promise((done) => {
    const child = startChild(spec);
    const stderr = boundedText(spec.stderrCap ?? 8192);
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let reply: unknown;
    let timedOut = false;
    let aborted = false;
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    const onAbort = (): void => {
      aborted = true;
      kill();
    };
    const timer = spec.killAfterMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      kill();
    }, spec.killAfterMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (s: string) => stderr.add(s));
    child.stdout?.on('data', (b: Buffer) => {
      stdoutBytes += b.length;
      if (spec.stdout === 'keep') stdout.push(b);
    });
    child.on('message', (m) => {
      reply = m;
    });
    const finish = (code: number | null, sig: NodeJS.Signals | null, extra = ''): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const text = Buffer.concat(stdout).toString('utf8');
      done({ reply, code, signal: sig, stdout: text, stdoutBytes, stderr: stderr.text() + extra, timedOut, aborted, seconds: (performance.now() - start) / 1000, startedAt });
    };
    // 'error' when the process could not be started (no 'exit' follows) or could not be sent to (then it is killed).
    child.on('error', (err) => {
      if (child.pid === undefined) finish(null, null, `cannot start the worker: ${err.message}`);
      else kill();
    });
    // stderr may still hold bytes after 'exit'; 'close' waits for them.
    child.on('close', (code, sig) => finish(code, sig));
    if (spec.message !== undefined) {
      child.send(spec.message(startedAt) as object, (err) => {
        if (err) kill();
      });
    }
    if (signal?.aborted === true) onAbort();
  });
}

/**
 * Runs `run` on every item, at most `jobs` at a time, in item order of the results (an item
 * whose run gives undefined, or that is not started because `signal` aborted, is left out).
 */
export async function runAll<T, R>(items: readonly T[], jobs: number, run: (item: T, index: number) => Promise<R | undefined>, signal?: AbortSignal): Promise<R[]> {
  const limit = pLimit(Math.max(1, jobs));
  const results = await limit.map(items, async (item, index) => (signal?.aborted === true ? undefined : run(item, index)));
  return results.filter((r): r is Awaited<R> => r !== undefined) as R[];
}

/** Why a child gave no usable output, in a few words: killed at its limit, its signal, or its exit code and first stderr line. */
export function failureText(e: Ending): string {
  if (e.timedOut) return `killed after ${e.seconds.toFixed(0)} s`;
  const first = e.stderr.trim().split('\n')[0] ?? '';
  return `exit ${e.code ?? e.signal}: ${first}`;
}
