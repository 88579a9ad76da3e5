// Runs the built command line once, for the corpus scripts: stdout ignored, stderr kept.
import { spawn } from 'node:child_process';

/**
 * Runs `node CLI ...args`, killed after `killMs`; resolves to the exit code (or 'killed'), the
 * wall time of the whole process in ms (start-up included) and stderr.
 */
export function runCli(cli, args, killMs) {
  return new Promise((done) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    const err = [];
    child.stderr.on('data', (d) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), killMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = Number((process.hrtime.bigint() - start) / 1_000_000n);
      done({ code: signal ? 'killed' : code, ms, stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}
