/**
 * The playground's worker: grounds one game with the pipeline of src/ (the same stages, in the
 * same order, as `gdl-ground ground`, `--format gddl`, `--format rddl`, `mutex`, `graph` and
 * `play`), and posts each stage as it starts and ends, the outputs, then the playouts. The page
 * cancels a run by terminating the worker, so nothing here needs to look for a cancel.
 */
import { type Diagnostic, GdlError } from '../../src/gdl/diagnostics.js';
import {
  DEFAULT_GDDL_OPTIONS, GDDL_FILE_NAMES, gddlFiles, gddlModel, rddlFiles, unrollForRddl,
} from '../../src/pipeline/formats.js';
import { groundWritten, loadRun, runContext, type GroundRun, type RunContext } from '../../src/pipeline/recipes/index.js';
import {
  DEFAULT_AXIOM_OPTIONS, DEFAULT_MUTEX_SETTINGS, type LoadedGame, type MutexResult, type PlayoutOptions,
  drawDependencyGraph, emitGroundStream, mutexGroups, playGroundGame, playOriginalGame, removeGameAxioms, resolvePipelineOptions,
} from '../../src/pipeline/stages.js';
import { StageTimer } from '../../src/timer.js';
import type { GroundRequest, OutputFile, WebDiagnostic, WebMutex, WorkerMessage } from './protocol.js';

/** The worker's side of postMessage (the page's DOM types describe the window, not a worker). */
const scope = self as unknown as { postMessage(m: WorkerMessage): void; onmessage: ((e: MessageEvent<GroundRequest>) => void) | null };

const post = (m: WorkerMessage): void => scope.postMessage(m);

/** The stage timer of the run, telling the page when each stage starts and ends. */
class ProgressTimer extends StageTimer {
  override run<T>(stage: string, fn: () => T, count?: (result: T) => Record<string, number>): T {
    post({ kind: 'stage', stage, phase: 'start', ms: 0 });
    const start = performance.now();
    try {
      return super.run(stage, fn, count);
    } finally {
      post({ kind: 'stage', stage, phase: 'end', ms: performance.now() - start });
    }
  }
}

function webDiagnostic(d: Diagnostic): WebDiagnostic {
  return { severity: d.severity, line: d.line, col: d.col, message: d.message };
}

/** The game's name without its extension, as the command line names the RDDL files. */
function baseOf(name: string): string {
  return (name.split('/').pop() ?? name).replace(/\.(kif|gdl|txt)$/i, '');
}

/** Text of a stream of chunks. */
function collect(emit: (write: (chunk: string) => void) => void): string {
  const chunks: string[] = [];
  emit((c) => chunks.push(c));
  return chunks.join('');
}

/** The ground game as GDL and JSON, byte for byte what `gdl-ground ground [--json]` writes. */
function groundFiles(ctx: RunContext, run: GroundRun, base: string): OutputFile[] {
  const gdl = { baseInput: true };
  return (['gdl', 'json'] as const).map((format) => ({
    format,
    name: `${base}.${format === 'gdl' ? 'gdl' : 'json'}`,
    text: collect((write) => emitGroundStream(run.game, format, gdl, write, ctx.timer, ctx.options)),
  }));
}

/** What a later step that failed says, or its result. */
function attempt<T>(fn: () => T): T | { failed: string } {
  try {
    return fn();
  } catch (err) {
    return { failed: err instanceof Error ? err.message : String(err) };
  }
}

function failed(x: unknown): x is { failed: string } {
  return typeof x === 'object' && x !== null && 'failed' in x;
}

/** The planner formats of `ground --format gddl` and (one role) `--format rddl`. */
function plannerFiles(ctx: RunContext, run: GroundRun, mutex: MutexResult, base: string): { files: OutputFile[]; skipped: { format: string; reason: string }[] } {
  const files: OutputFile[] = [];
  const skipped: { format: string; reason: string }[] = [];
  const axioms = attempt(() => removeGameAxioms(run.game, ctx.options, DEFAULT_AXIOM_OPTIONS, ctx.timer));
  if (failed(axioms)) return { files, skipped: [{ format: 'gddl', reason: axioms.failed }, { format: 'rddl', reason: axioms.failed }] };
  const gddl = attempt(() => gddlFiles(gddlModel(axioms, mutex.groups, DEFAULT_GDDL_OPTIONS, ctx.options, ctx.timer), ctx.file, ctx.options, ctx.timer));
  if (failed(gddl)) skipped.push({ format: 'gddl', reason: gddl.failed });
  else for (const part of ['domain', 'problem', 'partition'] as const) files.push({ format: 'gddl', name: `${base}/${GDDL_FILE_NAMES[part]}`, text: gddl[part] });
  if (run.game.roles.length !== 1) {
    skipped.push({ format: 'rddl', reason: `RDDL describes one agent; this game has ${run.game.roles.length} roles` });
    return { files, skipped };
  }
  const rddl = attempt(() => rddlFiles(unrollForRddl(axioms.game, ctx.options, ctx.timer).game, base, {}, ctx.options, ctx.timer));
  if (failed(rddl)) skipped.push({ format: 'rddl', reason: rddl.failed });
  else files.push({ format: 'rddl', name: `${base}_mdp.rddl`, text: rddl.domain }, { format: 'rddl', name: `${base}_inst.rddl`, text: rddl.instance });
  return { files, skipped };
}

/** The mutex groups as the page shows them. */
function mutexView(m: MutexResult): WebMutex {
  return {
    fluents: m.fluents,
    bits: m.bits,
    groups: m.groups.map((g) => ({ proven: g.proven, exactlyOne: g.exactlyOne, relation: g.relation, members: [...g.members] })),
  };
}

/** The `--stats` lines beside the table: what unused-instance removal dropped. */
function summary(run: GroundRun): string[] {
  const u = run.unused;
  const lines = [`roles ${run.game.roles.length}`];
  if (u !== undefined) lines.push(`unused: rules ${u.rulesBefore} -> ${u.rulesAfter}, atoms ${u.atomsBefore} -> ${u.atomsAfter}`);
  return lines;
}

function postStats(ctx: RunContext): void {
  post({ kind: 'stats', stages: ctx.timer.list().map((r) => ({ stage: r.stage, ms: r.ms, counts: r.counts })) });
}

/**
 * Grounds and posts GDL and JSON at once; then the graph and the playouts (quick), then the
 * mutex groups and the planner formats, which can take far longer than the grounding.
 */
function groundAll(req: GroundRequest, ctx: RunContext, loaded: LoadedGame, started: number): void {
  const base = baseOf(req.name);
  const run = groundWritten(ctx, loaded, false);
  post({ kind: 'grounded', ms: performance.now() - started, summary: summary(run), files: groundFiles(ctx, run, base) });
  postStats(ctx);
  const dot = attempt(() => drawDependencyGraph(loaded.normal, ctx.options, 'dot', undefined, ctx.timer) ?? '');
  post({ kind: 'graph', dot: failed(dot) ? '' : dot });
  playouts(req, ctx, run, loaded);
  const mutex = attempt(() => mutexGroups(run.game, loaded.normal, ctx.options, DEFAULT_MUTEX_SETTINGS, ctx.timer));
  post(failed(mutex) ? { kind: 'mutex', failed: mutex.failed } : { kind: 'mutex', mutex: mutexView(mutex) });
  post(failed(mutex) ? { kind: 'files', files: [], skipped: [{ format: 'gddl', reason: mutex.failed }] } : { kind: 'files', ...plannerFiles(ctx, run, mutex, base) });
  postStats(ctx);
}

/** Random playouts of the fast simulator on the ground game, then of Tau-Prolog's reasoner on the rules. */
function playouts(req: GroundRequest, ctx: RunContext, run: GroundRun, loaded: LoadedGame): void {
  if (req.playSeconds <= 0) return;
  const options: PlayoutOptions = { seconds: req.playSeconds, seed: 1, maxSteps: 10_000, maxPlayouts: Infinity };
  const engines = [
    ['fast simulator (ground game)', 'play-ground', () => playGroundGame(run.game, ctx.options, options, new StageTimer())],
    ['Tau-Prolog reasoner (rules)', 'play-prolog', () => playOriginalGame(loaded.normal, ctx.options, options, new StageTimer())],
  ] as const;
  for (const [engine, stage, play] of engines) {
    post({ kind: 'stage', stage, phase: 'start', ms: 0 });
    const r = attempt(play);
    if (failed(r)) continue;
    post({ kind: 'playout', rate: { engine, playouts: r.playouts, playoutsPerSecond: r.playoutsPerSecond, statesPerSecond: r.statesPerSecond, averageDepth: r.averageDepth, elapsed: r.elapsed } });
  }
}

/** One request: load (warnings posted), then everything else; errors posted with their positions. */
function handle(req: GroundRequest): void {
  const started = performance.now();
  try {
    const options = resolvePipelineOptions({
      method: req.method,
      ...(req.lazyAxioms ? { lazyAxioms: true } : {}),
      ...(req.timeoutSeconds === undefined ? {} : { timeoutSeconds: req.timeoutSeconds }),
    });
    const ctx = runContext(req.name, options, new ProgressTimer());
    const loaded = loadRun(ctx, req.text);
    post({ kind: 'warnings', diagnostics: loaded.warnings.map(webDiagnostic) });
    groundAll(req, ctx, loaded, started);
  } catch (err) {
    const gdl = err instanceof GdlError;
    post({
      kind: 'error',
      message: err instanceof Error ? err.message : String(err),
      limit: gdl && err.code === 'limit',
      diagnostics: gdl ? err.diagnostics.map(webDiagnostic) : [],
    });
  }
  post({ kind: 'done' });
}

scope.onmessage = (e) => handle(e.data);
