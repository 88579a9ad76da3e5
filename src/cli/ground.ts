/**
 * `gdl-ground ground GAME [-o FILE] [--method prolog|prolog-plain|dg] [--format gdl|json|rddl] [--horizon N] [--json] [--stats]
 * [--timeout S] [--max-atoms N] [--max-ground-atoms N] [--max-rules N] [--no-base-input]
 * [--keep-unused] [--remove-axioms [--max-formula N] [--max-total N]]`: instantiates a game and writes the
 * ground game as GDL (default) or JSON, or a single-player game as RDDL into the directory -o
 * names (src/cli/rddl.ts, docs/rddl.md), or GDDL (`--format gddl [--max-actions N] [--max-effects N]`);
 * rules and atoms no output depends on are dropped unless
 * `--keep-unused`; `--remove-axioms` substitutes the axioms away (GDL with formula bodies). The output file is
 * written atomically: after an error or a limit no file (and no partial file) is left.
 * `--format gddl` writes the three GDDL files (docs/gddl.md) into the directory of `-o`, all or none.
 * `--stats` prints per-stage time, counts, their total and peak memory on stderr; `--stats-json FILE`
 * writes them as JSON (src/timer.ts StagesJson) to FILE, or to stderr for `-`. Exit 0 ok, 1 invalid
 * game, 2 usage error, 3 limit reached.
 */
import type { Command } from 'commander';
import { formatDiagnostic } from '../gdl/diagnostics.js';
import {
  DEFAULT_MUTEX_SETTINGS, MUTEX_EXTRA_SECONDS, type AxiomOptions, type AxiomResult, DEFAULT_AXIOM_OPTIONS, GROWTH_FACTOR, GROWTH_FLOOR, type GroundFormat, type LoadedGame, type PipelineOptions, type UnusedStats, lazyStatsLine,
} from '../pipeline/stages.js';
import type { GddlOptions } from '../pipeline/format-basics.js';
// Not the recipes' index: it loads every recipe, the mutex stage's and the simulators' modules
// too, which only GDDL output needs here; the GDDL and RDDL recipes are imported when asked for.
import { type RunContext, runContext } from '../pipeline/context.js';
import { loadRun } from '../pipeline/recipes/game.js';
import { groundRecipe } from '../pipeline/recipes/ground.js';
import { type RddlFlags, checkRddlFlags, gameBase, writeRddl } from './rddl.js';
import { StageTimer, formatStages } from '../timer.js';
import { GDDL_FLAG_HELP, formatGddlStats, resolveGddlFlags, writeGddlOutput } from './gddl.js';
import { EXIT } from './exit.js';
import { UsageError, checkOutputTarget, gameName, readGameFile, runCommand, writeStatsJson } from './io.js';
import { writeOutputChunks } from './output-chunks.js';
import { type LimitFlags, addLimitOptions, addMethodOption, addLazyOption, addSplitOption, parseChoice, parseWhole, resolveFlags } from './options.js';

/** Options of `ground`, as commander parses them. */
interface GroundOptions extends LimitFlags, RddlFlags {
  readonly output?: string;
  readonly method: string;
  readonly format?: string;
  readonly json?: boolean;
  readonly stats?: boolean;
  readonly statsJson?: string;
  readonly baseInput: boolean;
  readonly keepUnused?: boolean;
  readonly removeAxioms?: boolean;
  readonly maxFormula?: string;
  readonly maxTotal?: string;
  readonly maxActions?: string;
  readonly maxEffects?: string;
  readonly mutexSeconds?: string;
}

/** Everything `ground` needs, resolved once from the command line. */
interface Resolved {
  readonly pipeline: PipelineOptions;
  readonly format: GroundFormat | 'gddl';
  /** Limits of axiom removal, when `--remove-axioms`. */
  readonly axioms: AxiomOptions;
  /** Limits of the GDDL model, when `--format gddl`. */
  readonly gddl: GddlOptions;
}

function resolveOptions(options: GroundOptions): Resolved {
  const pipeline = resolveFlags(options);
  const format = options.format === undefined ? undefined : parseChoice(options.format, '--format', ['gdl', 'json', 'gddl', 'rddl'] as const);
  if (format === 'rddl') checkRddlFlags(options);
  else if (options.horizon !== undefined) throw new UsageError('--horizon needs --format rddl');
  if (options.mutexSeconds !== undefined && format !== 'gddl') throw new UsageError('--mutex-seconds needs --format gddl');
  if (options.json === true && format !== undefined && format !== 'json') throw new UsageError(`--json contradicts --format ${format}`);
  const json = options.json === true || format === 'json';
  const gddl = format === 'gddl';
  if (options.removeAxioms === true && json) throw new UsageError('--remove-axioms writes GDL only (formula bodies have no JSON form yet)');
  // GDDL and RDDL output remove axioms themselves, so they take their limits too.
  const removes = options.removeAxioms === true || format === 'rddl' || gddl;
  if (options.maxFormula !== undefined && !removes) throw new UsageError('--max-formula needs --remove-axioms');
  if (options.maxTotal !== undefined && !removes) throw new UsageError('--max-total needs --remove-axioms');
  const maxFormula = options.maxFormula === undefined ? DEFAULT_AXIOM_OPTIONS.maxFormula : parseWhole(options.maxFormula, '--max-formula');
  const axioms: AxiomOptions = options.maxTotal === undefined ? { maxFormula } : { maxFormula, maxTotal: parseWhole(options.maxTotal, '--max-total') };
  return { pipeline, format: json ? 'json' : gddl ? 'gddl' : 'gdl', axioms, gddl: resolveGddlFlags(options, gddl) };
}

async function ground(file: string, options: GroundOptions): Promise<number> {
  const timer = new StageTimer();
  const code = await groundWith(file, options, timer);
  if (options.statsJson !== undefined) writeStatsJson(options.statsJson, timer);
  return code;
}

/**
 * The planner formats' recipes, each module loaded only for its format: `--format gddl` (the
 * mutex stage's modules too) or `--format rddl` (the RDDL writer, the unrolling).
 */
type PlannerRecipes =
  | { readonly kind: 'gddl'; readonly recipes: typeof import('../pipeline/recipes/gddl.js') }
  | { readonly kind: 'rddl'; readonly recipes: typeof import('../pipeline/recipes/rddl.js') }
  | undefined;

async function plannerRecipes(options: GroundOptions, resolved: Resolved): Promise<PlannerRecipes> {
  if (resolved.format === 'gddl') return { kind: 'gddl', recipes: await import('../pipeline/recipes/gddl.js') };
  if (options.format === 'rddl') return { kind: 'rddl', recipes: await import('../pipeline/recipes/rddl.js') };
  return undefined;
}

async function groundWith(file: string, options: GroundOptions, timer: StageTimer): Promise<number> {
  const resolved = resolveOptions(options);
  const planner = await plannerRecipes(options, resolved);
  checkOutputTarget(options.output, options.format === 'rddl' ? 'folders' : resolved.format === 'gddl' ? 'folder' : 'file');
  if (options.statsJson !== undefined && options.statsJson !== '-') checkOutputTarget(options.statsJson);
  const text = readGameFile(file);
  const ctx = runContext(gameName(file), resolved.pipeline, timer);
  const loaded = loadRun(ctx, text);
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  return await groundLoaded(file, options, resolved, ctx, loaded, planner);
}

/** {@link groundWith} once the game is loaded: grounds it and writes the output. */
async function groundLoaded(file: string, options: GroundOptions, resolved: Resolved, ctx: RunContext, loaded: LoadedGame, planner: PlannerRecipes): Promise<number> {
  const keepUnused = options.keepUnused === true;
  if (planner?.kind === 'rddl') {
    const horizon = options.horizon === undefined ? undefined : parseWhole(options.horizon, '--horizon');
    const out = planner.recipes.rddlRecipe(ctx, loaded, { keepUnused, axioms: resolved.axioms, base: gameBase(file), rddl: horizon === undefined ? {} : { horizon } });
    return writeRddl(file, options, out, ctx.timer);
  }
  if (planner?.kind === 'gddl') {
    const seconds = options.mutexSeconds === undefined ? {} : { seconds: parseWhole(options.mutexSeconds, '--mutex-seconds', true) };
    const { run, output } = planner.recipes.gddlRecipe(ctx, loaded, { keepUnused, gddl: resolved.gddl, axioms: resolved.axioms, mutex: { ...DEFAULT_MUTEX_SETTINGS, ...seconds } });
    for (const w of output.axioms.warnings) process.stderr.write(`${file}: warning: ${w}\n`);
    writeGddlOutput(options.output, output.files);
    if (options.stats === true) process.stderr.write(`${formatStages(ctx.timer.list(), ctx.timer.peakRss())}\n${formatReductions(run.unused, output.axioms)}${formatGddlStats(output)}`);
    return EXIT.ok;
  }
  const removeAxioms = options.removeAxioms === true ? resolved.axioms : undefined;
  const out = groundRecipe(ctx, loaded, { keepUnused, format: resolved.format === 'json' ? 'json' : 'gdl', gdl: { baseInput: options.baseInput }, ...(removeAxioms === undefined ? {} : { removeAxioms }) });
  const axioms = out.kind === 'formula' ? out.axioms : undefined;
  if (out.kind === 'formula') for (const w of out.axioms.warnings) process.stderr.write(`${file}: warning: ${w}\n`);
  await writeOutputChunks(options.output, out.emit);
  if (options.stats === true) process.stderr.write(`${formatStages(ctx.timer.list(), ctx.timer.peakRss())}\n${formatReductions(out.run.unused, axioms)}`);
  // With --lazy-axioms: which relations stayed non-ground (docs/lazy.md).
  const lazy = lazyStatsLine(out.run.game);
  if (options.stats === true && lazy !== undefined) process.stderr.write(`${lazy}\n`);
  return EXIT.ok;
}

/** The `--stats` lines of unused-instance elimination and axiom removal. */
function formatReductions(unused: UnusedStats | undefined, axioms: AxiomResult | undefined): string {
  const lines: string[] = [];
  if (unused !== undefined) lines.push(`unused: rules ${unused.rulesBefore} -> ${unused.rulesAfter}, atoms ${unused.atomsBefore} -> ${unused.atomsAfter}`);
  if (axioms !== undefined) {
    const s = axioms.stats;
    const kept = Object.entries(s.keptByReason).filter(([, n]) => n > 0).map(([why, n]) => `${n} ${why}`);
    lines.push(`axioms: ${s.axioms} ground axioms, ${s.removed} removed, ${s.kept.length} kept${kept.length > 0 ? ` (${kept.join(', ')})` : ''}`);
    lines.push(`axioms: rules ${s.rulesBefore} -> ${s.rulesAfter}, body size ${s.sizeBefore} -> ${s.sizeAfter} (budget ${s.budget}), largest body ${s.largestBefore} -> ${s.largestAfter}`);
    for (const k of s.kept) lines.push(`axioms: kept ${k.atom} (${k.reason})`);
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** Registers `gdl-ground ground`. */
export function registerGround(program: Command): void {
  const command = program
    .command('ground')
    .description('instantiate a game: write an equivalent variable-free game as GDL or JSON')
    .argument('<game>', 'game description in KIF')
    .option('-o, --output <file>', 'write the ground game to a file (atomically) instead of stdout');
  addMethodOption(command)
    .option('--format <format>', 'gdl (default), json, gddl (three files: domain, problem, partition; -o names a directory) or rddl (single-player games; -o names a directory)')
    .option('--horizon <n>', 'RDDL horizon (default: the game length from a step counter + 1, else 100)')
    .option('--json', 'same as --format json')
    .option('--stats', 'print per-stage time, counts, their total and peak memory on stderr')
    .option('--stats-json <file>', 'write the per-stage times and counts, their total and peak memory as JSON to a file (atomically; - for stderr) after a successful run');
  addLazyOption(addSplitOption(addLimitOptions(command, 'ground')))
    .option('--no-base-input', 'leave out the (base F) and (input R M) declarations of the GDL output')
    .option('--keep-unused', 'keep ground rules and atoms that no legal, next, goal or terminal rule depends on')
    .option('--remove-axioms', 'replace every axiom by its definition (bodies speak only of true and does)')
    .option('--max-formula <n>', `largest formula axiom removal may make; larger ones keep their axiom (default ${DEFAULT_AXIOM_OPTIONS.maxFormula})`)
    .option('--max-total <n>', `largest total size of all rule bodies (nodes) axiom removal may reach; axioms that would pass it are kept (default ${GROWTH_FACTOR} times the input's, at least ${GROWTH_FLOOR})`)
    .option('--max-actions <n>', GDDL_FLAG_HELP.maxActions)
    .option('--max-effects <n>', GDDL_FLAG_HELP.maxEffects)
    .option('--mutex-seconds <n>', `GDDL: time budget of the mutex groups' sampling and proofs (default: the grounding's time + ${MUTEX_EXTRA_SECONDS})`)
    .action((file: string, options: GroundOptions) => runCommand(() => ground(file, options)));
}
