/**
 * One game of a batch, as its worker process runs it: read, ground (as `gdl-ground ground`
 * does by default: unused instances dropped), emit as files into the job's temporary folder,
 * and measure. Failures become a reply, never an exception: the parent writes the row.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GdlError, formatDiagnostic } from '../gdl/diagnostics.js';
import { type PipelineOptions, type PipelineSettings, resolvePipelineOptions } from '../pipeline/stages.js';
// Not the recipes' index, which loads every recipe (the mutex stage and the simulators too):
// a batch of GDDL or RDDL gets its writer from the worker (`planner`), which loads it only then.
import { runContext } from '../pipeline/context.js';
import { loadRun } from '../pipeline/recipes/game.js';
import { type OutputFile, type PlannerBatchFiles, batchRecipe } from '../pipeline/recipes/ground.js';
import { StageTimer } from '../timer.js';
import type { GameFigures, WorkerJob, WorkerReply } from './types.js';

/** Warnings a reply lists in full; the count says how many there were. */
const MAX_WARNINGS = 100;

/** The pipeline options of a job: its limits, and one deadline with the heap limit beside the clock. */
export function jobOptions(job: WorkerJob, signal?: PipelineSettings['signal']): PipelineOptions {
  // The pipeline's own run deadline: from the worker's start (when the parent sent it), so
  // start-up under load is inside the limit; the heap limit beside the clock.
  return resolvePipelineOptions({
    method: job.method,
    timeoutSeconds: job.timeoutSeconds ?? Infinity,
    maxMemoryMb: job.heapLimitMb,
    ...(job.startedAt === undefined ? {} : { startedAt: job.startedAt }),
    ...(job.maxReachAtoms === undefined ? {} : { maxReachAtoms: job.maxReachAtoms }),
    ...(job.maxGroundAtoms === undefined ? {} : { maxGroundAtoms: job.maxGroundAtoms }),
    ...(job.maxGroundRules === undefined ? {} : { maxGroundRules: job.maxGroundRules }),
    ...(job.lazyAxioms === true ? { lazyAxioms: true } : {}),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** Milliseconds per stage, the two superset methods under one name. */
function stageTimes(timer: StageTimer): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { step, ms } of timer.steps()) {
    const name = step.startsWith('reach-') ? 'reach' : step;
    out[name] = (out[name] ?? 0) + ms;
  }
  return out;
}

/** Peak resident set size of this process so far, MiB (maxRSS is in KiB). */
function peakMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** A failure as a reply: the error's limit data decides between limit and memory, and travels with the reply. */
function failure(err: unknown, figures: GameFigures): WorkerReply {
  if (!(err instanceof GdlError)) throw err;
  const message = err.message.split('\n')[0] ?? '';
  if (err.code === 'invalid') return { ...figures, status: 'invalid', message, outputs: [] };
  const limit = err.limit === undefined ? {} : { limit: err.limit };
  return { ...figures, status: err.limit?.kind === 'memory' ? 'memory' : 'limit', message, outputs: [], ...limit };
}

/** Bytes of a text, whole or in chunks (strings or UTF-8 bytes). */
function textBytes(text: OutputFile['text']): number {
  return typeof text === 'string' ? Buffer.byteLength(text) : text.reduce((n, c) => n + (typeof c === 'string' ? Buffer.byteLength(c) : c.length), 0);
}

/** Writes `chunks` one after the other to a new file at `path`. */
function writeChunks(path: string, chunks: Exclude<OutputFile['text'], string>): void {
  const fd = openSync(path, 'w');
  try {
    for (const c of chunks) writeFileSync(fd, c);
  } finally {
    closeSync(fd);
  }
}

/** Writes the output files under `dir`, creating the folders the names need. */
function writeFiles(dir: string, files: readonly OutputFile[]): void {
  for (const f of files) {
    const path = join(dir, f.name);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof f.text === 'string') writeFileSync(path, f.text);
    else writeChunks(path, f.text);
  }
}

/**
 * Grounds the job's game and writes its files into `job.tmpDir` (when given). Invalid games
 * and limits are replies; anything else (a bug, a write error) is thrown for the worker to
 * report as a crash. `signal`: read by the run's deadline (the worker's watch of its parent);
 * `planner`: the GDDL or RDDL writer, for a job of format 'gddl' or 'rddl'.
 */
export function groundOne(job: WorkerJob, signal?: PipelineSettings['signal'], planner?: PlannerBatchFiles): WorkerReply {
  const options = jobOptions(job, signal);
  const ctx = runContext(job.file, options, new StageTimer());
  const timer = ctx.timer;
  const figures = (): GameFigures => ({ stages: stageTimes(timer), peakMiB: peakMiB() });
  try {
    const text = readFileSync(job.file, 'utf8');
    // The ground recipe: the game `ground` writes, its supersets read back under the job's deadline.
    const loaded = loadRun(ctx, text);
    const { run, final, files } = batchRecipe(ctx, loaded, job.format, job.name, planner);
    const game = run.game;
    if (job.tmpDir !== undefined) writeFiles(job.tmpDir, files);
    return {
      ...figures(),
      status: 'ok',
      fluents: final.fluents.length,
      moves: final.moves.length,
      axioms: final.axioms.length,
      rules: game.rules.length,
      outputBytes: files.reduce((n, f) => n + textBytes(f.text), 0),
      outputs: files.map((f) => f.name),
      ...(loaded.warnings.length === 0 ? {} : { warningCount: loaded.warnings.length, warnings: loaded.warnings.slice(0, MAX_WARNINGS).map(formatDiagnostic) }),
      ...(game.lazy === undefined ? {} : { lazyRelations: game.lazy.relations.length, lazyRules: game.lazy.rules.length }),
    };
  } catch (err) {
    return failure(err, figures());
  }
}
