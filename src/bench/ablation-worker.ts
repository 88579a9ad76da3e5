/**
 * The entry of the reach ablation's worker process (`node FLAGS dist/bench/ablation-worker.js
 * GAME VARIANT TIMEOUT_S`, started by ablation.ts): runs ablation-main.js, from its bundle with
 * the code cache of this process's V8 flags when the build made them (src/bundle.ts), else
 * module by module.
 */
import { runProcessEntry } from '../bundle.js';

await runProcessEntry(new URL('./ablation-main.js', import.meta.url), () => import('./ablation-main.js'), process.argv.slice(2));
