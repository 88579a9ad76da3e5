/**
 * The clingo column of the benchmark: clingo-wasm's time for the least model of the relaxed
 * game, the reference the dependency-graph method is measured against (`dg/clingo`, the ratio
 * of the dg method's total time, reach + instantiation + ground reachability, to clingo's).
 * clingo-wasm is a development dependency, so it is loaded only when the column is asked for.
 */
import type { NormalGame } from '../normalize/types.js';
import { relaxedProgram } from './asp.js';

/** clingo's outcome on one game. */
export type ClingoTime =
  | { readonly kind: 'ok'; readonly seconds: number; readonly cpuSeconds: number }
  | { readonly kind: 'timeout' | 'error'; readonly seconds: number; readonly cpuSeconds: number; readonly message?: string };

/** Times clingo on the relaxed game of `game`, at most `timeoutS` seconds. */
export async function timeClingo(game: NormalGame, timeoutS: number): Promise<ClingoTime> {
  const { default: clingo } = await import('clingo-wasm');
  // The first run starts clingo's worker and compiles the module: not part of the measurement.
  await clingo.run('a.', 1);
  const program = relaxedProgram(game);
  // clingo-wasm runs in a worker thread of this process: the process's processor time counts it.
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutS * 1000);
  });
  const result = await Promise.race([clingo.run(program, 1), expired]);
  clearTimeout(timer);
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpuStart);
  const cpuSeconds = (used.user + used.system) / 1e6;
  if (result === 'timeout') return { kind: 'timeout', seconds, cpuSeconds };
  if (result.Result !== 'SATISFIABLE') return { kind: 'error', seconds, cpuSeconds, message: result.Result };
  return { kind: 'ok', seconds, cpuSeconds };
}

/**
 * The dg/clingo ratio cell: dg's total seconds over clingo's (`cpu`: processor seconds over
 * clingo's processor seconds), or why there is none.
 */
export function ratioCell(dgSeconds: number | undefined, c: ClingoTime | undefined, cpu = false): string {
  if (c === undefined) return '-';
  if (c.kind !== 'ok') return c.kind;
  if (dgSeconds === undefined) return '-';
  return (dgSeconds / Math.max(cpu ? c.cpuSeconds : c.seconds, 1e-4)).toFixed(2);
}
