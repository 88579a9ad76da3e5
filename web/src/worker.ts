/**
 * The playground's worker: grounds one game with the library API (src/index.ts, docs/library.md:
 * the same recipes, hence the same outputs, as `gdl-ground ground`, `--format gddl`, `--format
 * rddl`, `mutex` and `play`), and posts each stage as it starts and ends, the outputs, then the
 * playouts. Two views are no part of the API, the dependency graph (`graph`) and the Tau-Prolog
 * reasoner's playouts, and come from the pipeline's entry functions over the loaded game. The
 * page cancels a run by terminating the worker, so nothing here needs to look for a cancel.
 */
import {
  type Diagnostic, type Game, type Grounding, type OutputFile as LibraryFile, type RunControl, type StageRecord,
  GdlError, createSimulator, emitGame, findMutexGroups, formatDiagnostic, groundGame, loadGame,
} from '../../src/index.js';
import { LOADED } from '../../src/api/load.js';
import { type PipelineOptions, drawDependencyGraph, resolvePipelineOptions } from '../../src/pipeline/stages.js';
import { playOriginalGame } from '../../src/pipeline/stages-play.js';
import { StageTimer } from '../../src/timer.js';
import type { GroundRequest, OutputFile, WebDiagnostic, WebMutex, WorkerMessage } from './protocol.js';

/** The worker's side of postMessage (the page's DOM types describe the window, not a worker). */
const scope = self as unknown as { postMessage(m: WorkerMessage): void; onmessage: ((e: MessageEvent<GroundRequest>) => void) | null };

const post = (m: WorkerMessage): void => scope.postMessage(m);

/** The progress callbacks of every call of one run: each stage posted as it starts and ends, and kept for the stats table. */
function control(stages: StageRecord[]): RunControl {
  return {
    onStageStart: (stage) => post({ kind: 'stage', stage, phase: 'start', ms: 0 }),
    onProgress: (s) => {
      stages.push(s);
      post({ kind: 'stage', stage: s.stage, phase: 'end', ms: s.ms });
    },
  };
}

function webDiagnostic(d: Diagnostic): WebDiagnostic {
  return { severity: d.severity, line: d.line, col: d.col, message: d.message };
}

/** The game's name without its extension, as the command line names the RDDL files. */
function baseOf(name: string): string {
  return (name.split('/').pop() ?? name).replace(/\.(kif|gdl|txt)$/i, '');
}

/** The page's file of one library file: GDDL's three under a folder named after the game. */
function pageFile(format: string, base: string, f: LibraryFile): OutputFile {
  return { format, name: format === 'gddl' ? `${base}/${f.name}` : f.name, text: f.text };
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
function plannerFiles(g: Grounding, ctl: RunControl, base: string): { files: OutputFile[]; skipped: { format: string; reason: string }[] } {
  const files: OutputFile[] = [];
  const skipped: { format: string; reason: string }[] = [];
  for (const format of ['gddl', 'rddl'] as const) {
    if (format === 'rddl' && g.roles.length !== 1) {
      skipped.push({ format, reason: `RDDL describes one agent; this game has ${g.roles.length} roles` });
      continue;
    }
    const out = attempt(() => emitGame(g, format, ctl));
    if (failed(out)) skipped.push({ format, reason: out.failed });
    else files.push(...out.files.map((f) => pageFile(format, base, f)));
  }
  return { files, skipped };
}

/** The `--stats` lines beside the table: what unused-instance removal dropped (from the stages' counts). */
function summary(g: Grounding): string[] {
  const lines = [`roles ${g.roles.length}`];
  const pruned = g.stats.filter((s) => s.stage === 'prune').pop();
  const unused = g.stats.find((s) => s.stage === 'unused');
  if (pruned !== undefined && unused !== undefined) {
    lines.push(`unused: rules ${pruned.counts.rules} -> ${unused.counts.rules}, atoms ${pruned.counts.atoms} -> ${unused.counts.atoms}`);
  }
  return lines;
}

function postStats(stages: readonly StageRecord[]): void {
  post({ kind: 'stats', stages: stages.map((r) => ({ stage: r.stage, ms: r.ms, counts: r.counts })) });
}

/**
 * Grounds and posts GDL and JSON at once; then the graph and the playouts (quick), then the
 * mutex groups and the planner formats, which can take far longer than the grounding.
 */
function groundAll(req: GroundRequest, game: Game, options: PipelineOptions, stages: StageRecord[], started: number): void {
  const base = baseOf(req.name);
  const ctl = control(stages);
  const g = groundGame(game, ctl);
  const files = (['gdl', 'json'] as const).flatMap((format) => emitGame(g, format, ctl).files.map((f) => pageFile(format, base, f)));
  post({ kind: 'grounded', ms: performance.now() - started, summary: summary(g), files });
  postStats(stages);
  const dot = attempt(() => drawDependencyGraph(game[LOADED].normal, options, 'dot', undefined, new StageTimer(ctl.onProgress, ctl.onStageStart)) ?? '');
  post({ kind: 'graph', dot: failed(dot) ? '' : dot });
  playouts(req, g, game, options);
  const mutex = attempt(() => findMutexGroups(g, ctl));
  post(failed(mutex) ? { kind: 'mutex', failed: mutex.failed } : { kind: 'mutex', mutex: mutexView(mutex) });
  post(failed(mutex) ? { kind: 'files', files: [], skipped: [{ format: 'gddl', reason: mutex.failed }] } : { kind: 'files', ...plannerFiles(g, ctl, base) });
  postStats(stages);
}

/** The mutex groups as the page shows them. */
function mutexView(m: ReturnType<typeof findMutexGroups>): WebMutex {
  return { fluents: m.fluents, bits: m.bits, groups: m.groups.map((g) => ({ proven: g.proven, exactlyOne: g.exactlyOne, relation: g.relation, members: [...g.members] })) };
}

/** Random playouts of the fast simulator on the ground game, then of Tau-Prolog's reasoner on the rules. */
function playouts(req: GroundRequest, g: Grounding, game: Game, options: PipelineOptions): void {
  if (req.playSeconds <= 0) return;
  const engines = [
    ['fast simulator (ground game)', 'play-ground', () => createSimulator(g).playouts({ seconds: req.playSeconds, seed: 1, maxDepth: 10_000 })],
    ['Tau-Prolog reasoner (rules)', 'play-prolog', () => playOriginalGame(game[LOADED].normal, options, { seconds: req.playSeconds, seed: 1, maxSteps: 10_000, maxPlayouts: Infinity }, new StageTimer())],
  ] as const;
  for (const [engine, stage, play] of engines) {
    post({ kind: 'stage', stage, phase: 'start', ms: 0 });
    const r = attempt(play);
    if (failed(r)) continue;
    post({ kind: 'playout', rate: { engine, playouts: r.playouts, playoutsPerSecond: r.playoutsPerSecond, statesPerSecond: r.statesPerSecond, averageDepth: r.averageDepth, elapsed: r.elapsed } });
  }
}

/** The error message of a run that stopped: its diagnostics, with their positions. */
function postError(message: string, limit: boolean, diagnostics: readonly Diagnostic[]): void {
  post({ kind: 'error', message, limit, diagnostics: diagnostics.map(webDiagnostic) });
}

/** One request: load (warnings posted, or the diagnostics of an invalid game), then everything else. */
function handle(req: GroundRequest): void {
  const started = performance.now();
  const stages: StageRecord[] = [];
  const settings = {
    method: req.method,
    ...(req.lazyAxioms ? { lazyAxioms: true } : {}),
    ...(req.timeoutSeconds === undefined ? {} : { timeoutSeconds: req.timeoutSeconds }),
  };
  try {
    const loaded = loadGame(req.text, { file: req.name, ...settings, ...control(stages) });
    if (!loaded.ok) postError(loaded.diagnostics.map(formatDiagnostic).join('\n'), loaded.limit, loaded.diagnostics);
    else {
      post({ kind: 'warnings', diagnostics: loaded.diagnostics.map(webDiagnostic) });
      groundAll(req, loaded.game, resolvePipelineOptions(settings), stages, started);
    }
  } catch (err) {
    const gdl = err instanceof GdlError;
    postError(err instanceof Error ? err.message : String(err), gdl && err.code === 'limit', gdl ? err.diagnostics : []);
  }
  post({ kind: 'done' });
}

scope.onmessage = (e) => handle(e.data);
