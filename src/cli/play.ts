/**
 * `gdl-ground play GAME [--engine ground|prolog|both] [--seconds S] [--seed N] [--max-steps N]
 * [--json] [--method prolog|dg] [--timeout S] [--max-atoms N] [--max-ground-atoms N] [--max-rules N]`:
 * random playouts from the initial state (depth charges) for S seconds per engine — the ground
 * game on the fast simulator, the original game on the Prolog reasoner, or both — printing
 * playouts/s, states/s (joint moves made) and average depth per engine, the grounding time,
 * and the factor ground/prolog in states per second (slide 4 of the instantiation lecture
 * compares expansions). With `--json` one object:
 * `{"game", "seconds", "engines": {"ground": {...}, "prolog": {...}}, "factor"}` (an engine
 * not run is absent; factor is null unless both ran). Exit 0 ok, 1 invalid game, 2 usage
 * error, 3 limit reached while grounding (or in a reasoner query past --timeout).
 */
import type { Command } from 'commander';
import { formatDiagnostic } from '../gdl/diagnostics.js';
import type { PlayoutOptions, PlayoutResult } from '../pipeline/stages.js';
import { loadRun, playRecipe, runContext } from '../pipeline/recipes/index.js';
import { StageTimer } from '../timer.js';
import { EXIT } from './exit.js';
import { readGameFile, runCommand } from './io.js';
import { type LimitFlags, addLazyOption, addLimitOptions, addMethodOption, parseChoice, parseSeconds, parseWhole, resolveFlags } from './options.js';

/** Options of `play`, as commander parses them. */
interface PlayCliOptions extends LimitFlags {
  readonly engine: string;
  readonly seconds: string;
  readonly seed: string;
  readonly maxSteps: string;
  readonly method: string;
  readonly json?: boolean;
}

/** What one engine measured, as `--json` writes it. */
interface EngineReport {
  readonly playoutsPerSecond: number;
  readonly statesPerSecond: number;
  readonly averageDepth: number;
  readonly playouts: number;
  readonly states: number;
  /** Seconds the playouts took, and the CPU seconds the process spent meanwhile. */
  readonly elapsed: number;
  readonly cpuSeconds: number;
  readonly playoutsPerCpuSecond: number;
  /** Seconds from the text to a ready simulator: grounding (and compiling) or loading the reasoner. */
  readonly preparationSeconds: number;
  /** Seconds of parsing, validation, supersets, instantiation, pruning (ground engine only). */
  readonly groundingSeconds?: number;
  /** Lazy axioms only: `terms` or `prolog`, the evaluator of the lazy part (docs/lazy.md). */
  readonly lazyEngine?: 'terms' | 'prolog';
}

/** Sum of the recorded stages' times, in seconds. */
const seconds = (timer: StageTimer, stages?: readonly string[]): number =>
  timer.list().filter((r) => stages === undefined || stages.includes(r.stage)).reduce((s, r) => s + r.ms, 0) / 1000;

function report(r: PlayoutResult, preparationSeconds: number, groundingSeconds?: number): EngineReport {
  const base = { playoutsPerSecond: r.playoutsPerSecond, statesPerSecond: r.statesPerSecond, averageDepth: r.averageDepth, playouts: r.playouts, states: r.states, elapsed: r.elapsed, cpuSeconds: r.cpuSeconds, playoutsPerCpuSecond: r.playoutsPerCpuSecond, preparationSeconds };
  const lazy = r.lazyEngine === undefined ? {} : { lazyEngine: r.lazyEngine };
  return groundingSeconds === undefined ? { ...base, ...lazy } : { ...base, groundingSeconds, ...lazy };
}

function play(file: string, options: PlayCliOptions): number {
  const pipeline = resolveFlags(options);
  const engine = parseChoice(options.engine, '--engine', ['ground', 'prolog', 'both'] as const);
  const playSeconds = parseSeconds(options.seconds, '--seconds');
  const playouts: PlayoutOptions = {
    seconds: playSeconds,
    seed: parseWhole(options.seed, '--seed', true),
    maxSteps: parseWhole(options.maxSteps, '--max-steps'),
    maxPlayouts: Infinity,
  };
  const ctx = runContext(file, pipeline, new StageTimer());
  const loaded = loadRun(ctx, readGameFile(file));
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  const runs = playRecipe(ctx, loaded, engine, playouts);
  const engines: Record<string, EngineReport> = {};
  const loading = seconds(ctx.timer);
  if (runs.ground !== undefined) {
    const { result, timer } = runs.ground;
    const groundingSeconds = loading + seconds(timer) - seconds(timer, ['compile-sim', 'play-ground']);
    engines.ground = report(result, groundingSeconds + seconds(timer, ['compile-sim']), groundingSeconds);
  }
  if (runs.prolog !== undefined) engines.prolog = report(runs.prolog.result, loading + seconds(runs.prolog.timer, ['reasoner']));
  const g = engines.ground;
  const p = engines.prolog;
  const factor = g !== undefined && p !== undefined && p.statesPerSecond > 0 ? g.statesPerSecond / p.statesPerSecond : null;
  if (options.json === true) process.stdout.write(`${JSON.stringify({ game: file, seconds: playSeconds, engines, factor })}\n`);
  else process.stdout.write(formatText(file, engines, factor));
  return EXIT.ok;
}

function formatText(file: string, engines: Record<string, EngineReport>, factor: number | null): string {
  const lines = [`${file}:`];
  for (const [name, e] of Object.entries(engines)) {
    const prep = (e.groundingSeconds !== undefined ? `grounding ${e.groundingSeconds.toFixed(2)} s` : `loading ${e.preparationSeconds.toFixed(2)} s`) + (e.lazyEngine === undefined ? '' : `; lazy axioms by ${e.lazyEngine}`);
    lines.push(`  ${name}: ${e.playoutsPerSecond.toFixed(1)} playouts/s, ${e.statesPerSecond.toFixed(1)} states/s, average depth ${e.averageDepth.toFixed(2)} (${e.playouts} playouts in ${e.elapsed.toFixed(2)} s, ${e.cpuSeconds.toFixed(2)} s CPU; ${prep})`);
  }
  if (factor !== null) lines.push(`  factor (states/s ground / prolog): ${factor.toFixed(2)}`);
  return `${lines.join('\n')}\n`;
}

/** The options of `play` besides the limits: flags, help, default. */
const PLAY_OPTIONS: readonly (readonly [string, string, string?])[] = [
  ['--engine <engine>', 'ground (fast simulator of the ground game), prolog (reasoner on the original game) or both', 'both'],
  ['--seconds <s>', 'playing time per engine', '10'],
  ['--seed <n>', 'seed of the random joint moves (a whole number)', '1'],
  ['--max-steps <n>', 'joint moves per playout before it is cut off', '10000'],
  ['--json', 'write one JSON object instead of text'],
];

/** Registers `gdl-ground play`. */
export function registerPlay(program: Command): void {
  const command = program
    .command('play')
    .description('random playouts (depth charges) with the ground game and/or the Prolog reasoner: playouts/s, states/s, average depth, factor')
    .argument('<game>', 'game description in KIF');
  for (const [flags, help, fallback] of PLAY_OPTIONS) command.option(flags, help, fallback);
  addMethodOption(command);
  addLazyOption(addLimitOptions(command, 'ground')).action((file: string, options: PlayCliOptions) => runCommand(() => play(file, options)));
}
