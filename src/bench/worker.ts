/**
 * The entry of the benchmark's worker process (`node FLAGS dist/bench/worker.js GAME TIMEOUT_S
 * MAX_ATOMS ...`, started by run.ts, one per measurement): runs worker-main.js, from its bundle
 * with the code cache of this process's V8 flags when the build made them (src/bundle.ts), else
 * module by module.
 */
import { runProcessEntry } from '../bundle.js';

await runProcessEntry(new URL('./worker-main.js', import.meta.url), () => import('./worker-main.js'), process.argv.slice(2));
