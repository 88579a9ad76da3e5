/**
 * Imported first by `main.ts`, for its effect: when Node's V8 heap is too small for the run's
 * memory limit, the command runs again in a child with a large enough one (src/cli/relaunch.ts)
 * and this process ends with the child's exit code. A module of its own, so that `main.ts`
 * needs one line for it; the first process costs about 0.14 s of processor time (measured: a
 * `check` of tic-tac-toe took 0.28 s in all against 0.14 s without the second process).
 */
import { relaunchIfHeapTooSmall } from './relaunch.js';

const relaunched = await relaunchIfHeapTooSmall();
if (relaunched !== undefined) process.exit(relaunched);
