/**
 * The fastest published GDL simulators beside ours (issue 30, docs/play.md "Side by side with
 * ggplib and Sancho"): ggplib's C++ propnet and Sancho's Java propnet, each built from source by
 * `../shared/ggplib/build.sh` and `../shared/sancho/build.sh` and timed on one game by their
 * `bench.sh` (TSV lines). `npm run bench -- --playouts` runs them when they are built, one game
 * at a time and alternating with ours (ours, ggplib, Sancho, ours again), so that each
 * measurement sees about the same load, and prints the ratios.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamesDir } from '../../scripts/corpus.mjs';
import { failureText, runChild } from '../batch/runner.js';

/** A reference engine that is built: its bench script and the work directory its build made. */
export interface Reference {
  readonly name: 'ggplib' | 'sancho';
  readonly script: string;
  readonly work: string;
}

/** A reference engine's playouts per second on one game, or why there is none. */
export type ReferenceRun = { readonly kind: 'ok'; readonly playoutsPerSecond: number; readonly averageDepth: number } | { readonly kind: 'failed'; readonly why: string };

/**
 * The built reference engines: each work directory from its flag (`--ggplib DIR`, `--sancho
 * DIR`), else its environment variable (`GGPLIB_WORK`, `SANCHO_WORK`), else the READMEs'
 * defaults (`/tmp/ggplib`, `/tmp/sancho`); `none` skips one. Built means the harness is there.
 */
export function builtReferences(flags: { readonly ggplib?: string; readonly sancho?: string }): Reference[] {
  // Beside the corpus (../shared/ggplib beside ../shared/games), else beside the checkout when GDL_GAMES_DIR points elsewhere (held-out games).
  const beside = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared');
  const scripts = existsSync(join(gamesDir(), '..', 'ggplib')) ? join(gamesDir(), '..') : beside;
  const candidates: Reference[] = [
    { name: 'ggplib', script: join(scripts, 'ggplib', 'bench.sh'), work: flags.ggplib ?? process.env['GGPLIB_WORK'] ?? '/tmp/ggplib' },
    { name: 'sancho', script: join(scripts, 'sancho', 'bench.sh'), work: flags.sancho ?? process.env['SANCHO_WORK'] ?? '/tmp/sancho' },
  ];
  const built = (r: Reference): boolean => r.work !== 'none' && existsSync(r.script) && existsSync(join(r.work, r.name === 'ggplib' ? 'ggplib_bench' : 'classpath.txt'));
  return candidates.filter(built);
}

/**
 * Runs one reference engine on `kif` for `seconds` (after its own 2 s warm-up): ggplib with the
 * state machine it picks itself, Sancho's own playout loop (`native`). No waiting for a quiet
 * machine (`MAX_LOAD=`): the alternation is what makes the figures comparable.
 */
export async function runReference(ref: Reference, kif: string, seconds: number, buildLimit: number): Promise<ReferenceRun> {
  const env = ref.name === 'ggplib' ? [`GGPLIB_WORK=${ref.work}`, `BUILD_LIMIT=${buildLimit}`, `GGPLIB_JAVA_TIMEOUT=${buildLimit}`] : [`SANCHO_WORK=${ref.work}`, 'MODES=native', `BUILD_LIMIT=${buildLimit}`];
  const e = await runChild({ command: 'env', args: [...env, 'MAX_LOAD=', 'bash', ref.script, kif, String(seconds)], stdout: 'keep', killAfterMs: (2 * buildLimit + seconds + 120) * 1000 });
  // TSV: game kind status playouts_per_s playouts avg_depth ... (one line per kind or mode).
  for (const line of e.stdout.trim().split('\n')) {
    const [, , status, rate, , depth] = line.split('\t');
    if (status === 'ok' && Number.isFinite(Number(rate))) return { kind: 'ok', playoutsPerSecond: Number(rate), averageDepth: Number(depth) };
    if (status !== undefined && status !== '') return { kind: 'failed', why: status };
  }
  return { kind: 'failed', why: failureText(e) };
}

/** The 1-minute load average, or undefined where there is none. */
export function loadAverage(): number | undefined {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

/** One cell: a reference engine's rate, or its failure. */
export function referenceCell(run: ReferenceRun | undefined): string {
  if (run === undefined) return '–';
  return run.kind === 'ok' ? run.playoutsPerSecond.toFixed(0) : run.why.replace(/\|/g, '/').slice(0, 60);
}

/** Ours over theirs (our mean of two runs), when both have a number. */
export function referenceRatio(ours: readonly number[], run: ReferenceRun | undefined): string {
  if (run?.kind !== 'ok' || ours.length === 0 || run.playoutsPerSecond <= 0) return '–';
  const mean = ours.reduce((a, b) => a + b, 0) / ours.length;
  return (mean / run.playoutsPerSecond).toFixed(2);
}
