// Runs the built command line once, for the corpus scripts, through the one corpus runner
// (dist/batch/runner.js): stdout ignored, stderr kept.
import { existsSync } from 'node:fs';
import { runChild } from '../dist/batch/runner.js';

/** GNU time, when installed: it reports the child's CPU time. */
const TIME = '/usr/bin/time';
const CPU_LINE = /^cpu (\d+\.\d+) (\d+\.\d+)$/m;

/**
 * Runs `node CLI ...args`, killed after `killMs`; resolves to the exit code (or 'killed'), the
 * wall time of the whole process in ms (start-up included) and stderr. With `cpu` (and GNU time
 * installed) also the process's CPU time in ms (user + system; -1 when unknown): on a loaded
 * machine wall time far above CPU time means the process waited for a core.
 */
export async function runCli(cli, args, killMs, cpu = false) {
  const timed = cpu && existsSync(TIME);
  const spec = timed ? { command: TIME, args: ['-f', 'cpu %U %S', process.execPath, cli, ...args] } : { args: [cli, ...args] };
  // All of stderr is kept (the callers read its first error line).
  const e = await runChild({ ...spec, killAfterMs: killMs, stderrCap: Infinity });
  let stderr = e.stderr;
  const m = timed ? CPU_LINE.exec(stderr) : null;
  if (m !== null) stderr = stderr.replace(CPU_LINE, '').replace(/^Command exited with non-zero status \d+\n/m, '');
  const cpuMs = m === null ? -1 : Math.round((Number(m[1]) + Number(m[2])) * 1000);
  return { code: e.signal ? 'killed' : e.code, ms: Math.round(e.seconds * 1000), cpuMs, stderr };
}
