/**
 * The SWI-Prolog baseline of the benchmark: the relaxed game as a plain Prolog program, run by
 * prolog/alg92-swi.pl (Algorithm 9.2 without any of this project's optimizations). Used only
 * by `npm run bench -- --swi`, when `swipl` is installed; nothing else needs SWI-Prolog.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NormalGame, swiProgram } from '../pipeline/stages.js';

const DRIVER = fileURLToPath(new URL('../../prolog/alg92-swi.pl', import.meta.url));

/** What the SWI-Prolog run reported, or why it did not finish. */
export type SwiOutcome =
  | { readonly kind: 'ok'; readonly seconds: number; readonly fluents: number; readonly moves: number; readonly axioms: number; readonly iterations: number }
  | { readonly kind: 'timeout' | 'error'; readonly seconds: number; readonly message: string };

/** True when `swipl` can be run. */
export function haveSwipl(): boolean {
  const r = spawnSync('swipl', ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

/** Runs Algorithm 9.2 in SWI-Prolog on the game, with a time limit in seconds. */
export function runSwi(game: NormalGame, timeoutSeconds: number): SwiOutcome {
  const dir = mkdtempSync(join(tmpdir(), 'gdl-bench-'));
  try {
    const { text, axioms } = swiProgram(game);
    const file = join(dir, 'game.pl');
    writeFileSync(file, text);
    // Timed inside SWI-Prolog, from loading the game to the answer, as the worker times Tau.
    const goal = `get_time(T0), consult('${DRIVER}'), consult('${file}'), alg92(${axioms}), get_time(T1), S is T1 - T0, format("seconds ~6f~n", [S]), halt`;
    const start = performance.now();
    const r = spawnSync('swipl', ['-q', '--stack-limit=2g', '-g', goal, '-t', 'halt(1)'], {
      encoding: 'utf8',
      timeout: timeoutSeconds * 1000,
      maxBuffer: 1 << 20,
    });
    const wall = (performance.now() - start) / 1000;
    if (r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') {
      return { kind: 'timeout', seconds: wall, message: `no answer within ${timeoutSeconds} s` };
    }
    const m = /fluents (\d+) moves (\d+) axioms (\d+) iterations (\d+)\nseconds ([\d.]+)/.exec(r.stdout ?? '');
    if (r.status !== 0 || m === null) {
      return { kind: 'error', seconds: wall, message: (r.stderr ?? '').split('\n').slice(0, 3).join(' ').slice(0, 200) || `exit ${r.status}` };
    }
    return { kind: 'ok', seconds: Number(m[5]), fluents: Number(m[1]), moves: Number(m[2]), axioms: Number(m[3]), iterations: Number(m[4]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
