/**
 * The entry of a batch's worker process (`node FLAGS dist/batch/worker.js PARENT_PID`, started by
 * run.ts, one per game): runs worker-main.js, from its bundle with the code cache of this
 * process's V8 flags when the build made them (src/bundle.ts), else module by module.
 */
import { runProcessEntry } from '../bundle.js';

await runProcessEntry(new URL('./worker-main.js', import.meta.url), () => import('./worker-main.js'), process.argv.slice(2));
