/**
 * Benchmark columns per superset method: for one game, the Prolog method and the
 * dependency-graph method (and with `--plain` Algorithm 9.2 as the thesis writes it,
 * `prolog-plain`) each run through reach, instantiation and ground reachability, and the
 * benchmark table gains, per method, its status and seconds, plus the DG superset size
 * before post-processing and whether the final results are identical.
 */
import { type MethodRun, compareMethods } from '../pipeline/compare.js';
import type { NormalGame } from '../pipeline/stages.js';

/** One method's figures for one game. */
interface MethodColumn {
  readonly status: MethodRun['status'];
  /** Seconds of the superset computation alone. */
  readonly reachSeconds: number;
  /** Seconds of reach, instantiation and ground reachability together. */
  readonly totalSeconds: number;
  /** Processor seconds of the same (every thread of the worker). */
  readonly cpuSeconds: number;
  /** fluents + moves + axioms before post-processing (products for dg; Infinity possible). */
  readonly before?: number;
  /** Number of ground rules in the final game. */
  readonly rules?: number;
  readonly message?: string;
}

/** The methods' figures for one game. */
export interface MethodColumns {
  readonly prolog: MethodColumn;
  readonly dg: MethodColumn;
  /** Algorithm 9.2 as the thesis writes it, when asked for (`--plain`). */
  readonly plain?: MethodColumn;
  /** True/false when both finished, undefined otherwise. */
  readonly identical?: boolean;
}

function column(run: MethodRun): MethodColumn {
  const seconds = (step?: string): number => run.times.filter((t) => step === undefined || t.step === step).reduce((s, t) => s + t.ms, 0) / 1000;
  const b = run.before;
  return {
    status: run.status,
    reachSeconds: seconds('reach'),
    totalSeconds: seconds(),
    cpuSeconds: run.cpuSeconds,
    ...(b === undefined ? {} : { before: b.fluents + b.moves + b.axioms }),
    ...(run.ground === undefined ? {} : { rules: run.ground.rules.length }),
    ...(run.status === 'ok' ? {} : { message: run.message }),
  };
}

/**
 * Runs the methods on a game, each with `timeoutS` seconds and `maxAtoms` atoms; `plain`
 * adds Algorithm 9.2 as the thesis writes it (its results, when it finishes, count in `identical`).
 */
export function measureMethods(game: NormalGame, timeoutS: number, maxAtoms: number, plain = false): MethodColumns {
  // The benchmark's one atom budget bounds every count, as it always has, so that figures stay comparable.
  const c = compareMethods(game, { timeoutSeconds: timeoutS, maxReachAtoms: maxAtoms, maxGroundAtoms: maxAtoms, maxGroundRules: maxAtoms }, plain);
  return {
    prolog: column(c.prolog), dg: column(c.dg),
    ...(c.plain === undefined ? {} : { plain: column(c.plain) }),
    ...(c.identical === undefined ? {} : { identical: c.identical }),
  };
}

/** Header cells of the method columns, matching {@link methodCells} (the plain ones with `plain`). */
export function methodHeaders(plain = false): string[] {
  return [...(plain ? ['plain-reach-s', 'plain-total-s'] : []), 'pl-total-s', 'dg-reach-s', 'dg-total-s', 'dg-before', 'same'];
}

function seconds(c: MethodColumn): string {
  return c.status === 'ok' ? c.totalSeconds.toFixed(2) : c.status;
}

function count(n: number | undefined): string {
  if (n === undefined) return '-';
  return n === Infinity ? 'inf' : n >= 1e9 ? n.toExponential(1) : String(n);
}

/** The seconds of a method's superset computation, or its status when it failed before any. */
function reachCell(c: MethodColumn): string {
  return c.status === 'ok' || c.reachSeconds > 0 ? c.reachSeconds.toFixed(2) : c.status;
}

/** Cells of the method columns for one game (a status word replaces the time of a failed run). */
export function methodCells(m: MethodColumns | undefined, plain = false): string[] {
  if (m === undefined) return methodHeaders(plain).map(() => '-');
  const plainCells = !plain ? [] : m.plain === undefined ? ['-', '-'] : [m.plain.status === 'ok' ? m.plain.reachSeconds.toFixed(2) : m.plain.status, seconds(m.plain)];
  return [...plainCells, seconds(m.prolog), reachCell(m.dg), seconds(m.dg), count(m.dg.before), m.identical === undefined ? '-' : m.identical ? 'yes' : 'NO'];
}
