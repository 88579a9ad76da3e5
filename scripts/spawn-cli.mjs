// Runs the built command line once, for the corpus scripts: stdout ignored, stderr kept.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/** GNU time, when installed: it reports the child's CPU time. */
const TIME = '/usr/bin/time';
const CPU_LINE = /^cpu (\d+\.\d+) (\d+\.\d+)$/m;

/**
 * Runs `node CLI ...args`, killed after `killMs`; resolves to the exit code (or 'killed'), the
 * wall time of the whole process in ms (start-up included) and stderr. With `cpu` (and GNU time
 * installed) also the process's CPU time in ms (user + system; -1 when unknown): on a loaded
 * machine wall time far above CPU time means the process waited for a core.
 */
export function runCli(cli, args, killMs, cpu = false) {
  const timed = cpu && existsSync(TIME);
  const command = timed ? [TIME, '-f', 'cpu %U %S', process.execPath, cli, ...args] : [process.execPath, cli, ...args];
  return new Promise((done) => {
    const start = process.hrtime.bigint();
    const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    const err = [];
    child.stderr.on('data', (d) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), killMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = Number((process.hrtime.bigint() - start) / 1_000_000n);
      let stderr = Buffer.concat(err).toString('utf8');
      const m = timed ? CPU_LINE.exec(stderr) : null;
      if (m !== null) stderr = stderr.replace(CPU_LINE, '').replace(/^Command exited with non-zero status \d+\n/m, '');
      const cpuMs = m === null ? -1 : Math.round((Number(m[1]) + Number(m[2])) * 1000);
      done({ code: signal ? 'killed' : code, ms, cpuMs, stderr });
    });
  });
}
