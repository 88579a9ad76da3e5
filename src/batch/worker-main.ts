/**
 * The program of a batch's worker process (forked by run.ts, one per game, through worker.ts
 * and this module's bundle, src/bundle.ts): receives one
 * {@link WorkerJob} over IPC, grounds it, sends one {@link WorkerReply} and exits. An
 * unexpected error is written to stderr and ends the process with code 70, which the parent
 * records as a crash; a V8 heap abort or a kill is seen by the parent the same way.
 */
import { Worker } from 'node:worker_threads';
import { groundOne } from './ground-one.js';
import type { WorkerJob } from './types.js';
import type { PipelineSettings } from '../pipeline/stages.js';

/** Exit code of an unexpected error, as `gdl-ground`'s internal error. */
const INTERNAL = 70;

/** Milliseconds into a job after which the watchdog thread is started (see {@link parentWatch}). */
const WATCHDOG_AFTER_MS = 1000;

/**
 * Ends this process when its parent is gone. 'disconnect' alone is not enough: it is an event of
 * the main thread, which grounds synchronously and would see it only at the end (workers of a
 * killed batch kept running minutes at 1.8 GB each). The parent's id changes when the parent dies
 * and the process is re-parented; the parent passes its id as the first argument (by the time
 * this module runs, after loading the library, the parent may already be gone). It is read two ways:
 * - as the abort flag of the job's deadline, which every stage reads with its clock (a getppid
 *   call, once a millisecond or so): the run stops as aborted, and the reply finds no parent;
 * - by a thread of its own that polls it and kills the process, for work between two reads of the
 *   clock. A thread costs 30-50 ms of processor time to start (a second Node environment), a sixth
 *   of a small game's whole run in a batch, so it is started only once a job has run a second.
 */
function parentWatch(parentId: string | undefined): NonNullable<PipelineSettings['signal']> {
  const parent = Number(parentId) || process.ppid;
  const started = Date.now();
  let watching = false;
  return {
    get aborted(): boolean {
      if (!watching && Date.now() - started > WATCHDOG_AFTER_MS) {
        watching = true;
        const watch = new Worker(`setInterval(() => { if (process.ppid !== ${parent}) process.kill(process.pid, 'SIGKILL'); }, 200);`, { eval: true });
        watch.unref();
      }
      return process.ppid !== parent;
    },
  };
}

/**
 * Runs the worker: `args` is the parent's process id (see {@link parentWatch}); the job comes
 * over IPC. V8's flags (src/runtime.ts, v8Flags) come on this process's command line from run.ts.
 */
export function main(args: readonly string[]): void {
  const parentGone = parentWatch(args[0]);
  // The parent is gone (killed): nobody waits for the reply.
  process.once('disconnect', () => process.exit(INTERNAL));
  process.once('message', async (job: WorkerJob) => {
    try {
      // Only a GDDL job loads the GDDL writer, which proves mutex groups (the mutex stage's
      // modules), and only an RDDL job the RDDL writer.
      const planner = job.format === 'gddl' ? (await import('../pipeline/recipes/gddl.js')).gddlBatchFiles
        : job.format === 'rddl' ? (await import('../pipeline/recipes/rddl.js')).rddlBatchFiles : undefined;
      const reply = groundOne({ ...job, timeoutSeconds: job.timeoutSeconds ?? Infinity }, parentGone, planner);
      process.send!(reply, () => process.exit(0));
    } catch (err) {
      process.stderr.write(`internal error: ${(err as Error)?.message ?? String(err)}\n`);
      process.exit(INTERNAL);
    }
  });
}
