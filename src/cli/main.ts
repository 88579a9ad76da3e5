#!/usr/bin/env node
/**
 * The `gdl-ground` command line. The process the user starts is the only one: its main thread
 * runs the command in a worker thread with a V8 heap sized for `--max-memory` (thread.ts), so
 * that nothing can outlive a killed process, `--timeout` counts from this process's start, and
 * the main thread, idle meanwhile, answers signals at once. `batch` runs in the main thread:
 * it only schedules worker processes, each with a heap of its own.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { type CommandThreadData, exposeCollector, lowerBudgetWhenLong, tuneProcess, v8Flags } from '../runtime.js';
import { guardProcess } from './exit.js';
import { initialHeapMb, runInThread, runsInThread } from './thread.js';

guardProcess();
if (isMainThread) {
  const args = process.argv.slice(2);
  tuneProcess(initialHeapMb(args));
  exposeCollector();
  if (runsInThread(args)) {
    // This thread idles while the command's thread runs: it watches whether the run is long.
    const stopWatch = lowerBudgetWhenLong();
    process.exitCode = await runInThread(new URL(import.meta.url), args);
    stopWatch();
  } else await (await import('./program.js')).runProgram(args);
} else {
  const data = workerData as CommandThreadData;
  // The progress line of `reach` is drawn only on a terminal, which the thread's stderr is not.
  if (data.stderrIsTTY) process.stderr.isTTY = true;
  // The bundle's loader (with node:crypto and node:vm) only here: the main thread never needs it.
  // The code cache is that of the thread's V8 flags (tuneProcess above, before it started).
  const { bundleFile, loadBundle } = await import('../bundle.js');
  const program = new URL('./program.js', import.meta.url);
  const loaded = await loadBundle(bundleFile(program), v8Flags(initialHeapMb(data.args)), () => import('./program.js'));
  await loaded.exports.runProgram(data.args);
}
