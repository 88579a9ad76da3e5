/**
 * The entry of a batch's worker process (forked by run.ts, one per game): receives one
 * {@link WorkerJob} over IPC, grounds it, sends one {@link WorkerReply} and exits. An
 * unexpected error is written to stderr and ends the process with code 70, which the parent
 * records as a crash; a V8 heap abort or a kill is seen by the parent the same way.
 */
import { Worker } from 'node:worker_threads';
import { tuneForShortRuns } from '../runtime.js';
import { groundOne } from './ground-one.js';
import type { WorkerJob } from './types.js';

/** Exit code of an unexpected error, as `gdl-ground`'s internal error. */
const INTERNAL = 70;

/**
 * Ends this process when its parent is gone. 'disconnect' alone is not enough: it is an event of
 * the main thread, which grounds synchronously and would see it only at the end (workers of a
 * killed batch kept running minutes at 1.8 GB each). A thread of its own polls the parent's id
 * (it changes when the parent dies and the process is re-parented) and kills the process. The
 * parent passes its id as the first argument: by the time this module runs, after loading the
 * library, the parent may already be gone.
 */
function dieWithParent(): void {
  const parent = Number(process.argv[2]) || process.ppid;
  const watch = new Worker(`setInterval(() => { if (process.ppid !== ${parent}) process.kill(process.pid, 'SIGKILL'); }, 200);`, { eval: true });
  watch.unref();
}

tuneForShortRuns();
dieWithParent();
// The parent is gone (killed): nobody waits for the reply.
process.once('disconnect', () => process.exit(INTERNAL));
process.once('message', (job: WorkerJob) => {
  try {
    const reply = groundOne({ ...job, timeoutSeconds: job.timeoutSeconds ?? Infinity });
    process.send!(reply, () => process.exit(0));
  } catch (err) {
    process.stderr.write(`internal error: ${(err as Error)?.message ?? String(err)}\n`);
    process.exit(INTERNAL);
  }
});
