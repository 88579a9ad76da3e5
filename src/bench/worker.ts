/**
 * The entry of the benchmark's worker process (`node FLAGS dist/bench/worker.js GAME TIMEOUT_S
 * MAX_ATOMS ...`, started by run.ts, one per measurement): runs worker-main.js, from its bundle
 * with the code cache of this process's V8 flags when the build made them (src/bundle.ts), else
 * module by module.
 */
import { runProcessEntry } from '../bundle.js';

const args = process.argv.slice(2);
// The clingo column imports clingo-wasm, an ES module only, which a CommonJS bundle run as a
// script cannot import (Node 20 has no dynamic import there without an experimental flag): a
// run that asks for it loads the modules.
if (args.includes('clingo')) await (await import('./worker-main.js')).main(args);
else await runProcessEntry(new URL('./worker-main.js', import.meta.url), () => import('./worker-main.js'), args);
