/**
 * `gdl-ground mutex GAME [--json] [--method prolog|dg] [--playouts N] [--seed S] [--observed]
 * [--lazy-axioms] [--stats] [-o FILE] [limits]`: grounds a game, then finds, proves and chooses mutex groups of
 * its fluents (docs/mutex.md). Prints the proven groups of the chosen encoding (with
 * `--observed` also those that only survived the playouts) and the bits per state against the
 * number of fluents; `--json` prints
 * `{"fluents", "bits", "proof", "budgetReached", "groups": [{"members", "exactlyOne", "proven", "proof", "relation", "input", "output"}]}`.
 * `--stats` adds per-stage times and the proof's counts on stderr. Exit codes as `ground`.
 */
import type { Command } from 'commander';
import { formatDiagnostic } from '../gdl/diagnostics.js';
import { DEFAULT_MUTEX_SETTINGS, MUTEX_EXTRA_SECONDS, type MutexResult, type MutexSettings } from '../pipeline/stages.js';
import { loadRun, mutexRecipe, runContext } from '../pipeline/recipes/index.js';
import { StageTimer, formatStages } from '../timer.js';
import { EXIT } from './exit.js';
import { checkOutputTarget, gameName, readGameFile, runCommand, writeOutput, writeStatsJson } from './io.js';
import { type LimitFlags, addLazyOption, addLimitOptions, addMethodOption, parseWhole, resolveFlags } from './options.js';

/** Options of `mutex`, as commander parses them. */
interface MutexFlags extends LimitFlags {
  readonly output?: string;
  readonly method: string;
  readonly json?: boolean;
  readonly stats?: boolean;
  readonly statsJson?: string;
  readonly playouts?: string;
  readonly seed?: string;
  readonly maxSteps?: string;
  readonly observed?: boolean;
  readonly mutexSeconds?: string;
  readonly maxStates?: string;
}

function settingsOf(flags: MutexFlags): MutexSettings {
  const d = DEFAULT_MUTEX_SETTINGS;
  return {
    playouts: flags.playouts === undefined ? d.playouts : parseWhole(flags.playouts, '--playouts', true),
    seed: flags.seed === undefined ? d.seed : parseWhole(flags.seed, '--seed', true),
    maxSteps: flags.maxSteps === undefined ? d.maxSteps : parseWhole(flags.maxSteps, '--max-steps'),
    ...(flags.mutexSeconds === undefined ? {} : { seconds: parseWhole(flags.mutexSeconds, '--mutex-seconds', true) }),
    ...(flags.maxStates === undefined ? {} : { maxStates: parseWhole(flags.maxStates, '--max-states', true) }),
  };
}

/**
 * The groups to print: the proven ones, and with `--observed` also those that only survived the
 * sampled playouts (a later playout may still violate one of those).
 */
function shown(r: MutexResult, observed: boolean): MutexResult {
  return observed ? r : { ...r, groups: r.groups.filter((g) => g.proven) };
}

/** The report for people: one line per group, then the encoding's size. */
function formatMutex(r: MutexResult, hidden: number): string {
  const lines = r.groups.map((g) => {
    const kind = `${g.proven ? 'proven' : 'observed'}${g.exactlyOne ? ' exactly-one' : ''}`;
    return `${kind.padEnd(20)} ${g.relation} input [${g.input.join(',')}] output [${g.output.join(',')}]: ${g.members.join(' ')}`;
  });
  const covered = r.groups.filter((g) => g.proven).reduce((n, g) => n + g.members.length, 0);
  lines.push(`${r.groups.length} groups (${r.groups.filter((g) => g.proven).length} proven), proven groups cover ${covered} of ${r.fluents} fluents`);
  lines.push(proofLine(r));
  if (hidden > 0) lines.push(`${hidden} observed groups (survived the playouts, not proven) not shown; --observed shows them`);
  lines.push(`bits per state: ${r.bits} (fluents: ${r.fluents})`);
  return `${lines.join('\n')}\n`;
}

/** How the chosen encoding's groups (shown or not) stand: proven lifted, ground, observed, unproven. */
function proofLine(r: MutexResult): string {
  const c = r.stats.chosen;
  const part = (n: { groups: number; fluents: number }, what: string): string => `${n.groups} ${what} (${n.fluents} fluents)`;
  const budget = r.stats.budgetReached ? ', time budget reached' : '';
  const states = c.states === undefined ? '' : `, ${part(c.states, 'by every reachable state')}`;
  return `proofs: ${part(c.lifted, 'lifted')}, ${part(c.ground, 'ground')}${states}, ${part(c.observed, 'observed only')}, ${part(c.unproven, 'unproven for lack of budget')}${budget}`;
}

/** The stage's budget against what it used, in processor seconds (what the budget counts). */
function timeLine(t: NonNullable<MutexResult['stats']['time']>): string {
  const s = (x: number): string => `${x.toFixed(2)} s`;
  return `mutex: time budget ${s(t.budgetSeconds)} of processor time (the run before it: ${s(t.beforeSeconds)}); used ${s(t.sampleSeconds + t.proofSeconds)}: sampling ${s(t.sampleSeconds)}, proofs and choice ${s(t.proofSeconds)}`;
}

/** What the search over the reachable states found (docs/mutex.md, 2f). */
function enumerationLine(e: NonNullable<MutexResult['stats']['enumeration']>, states: { groups: number; fluents: number } | undefined): string {
  const why = { complete: '', states: ': stopped at the state cap', budget: ': stopped at its share of the budget', forecast: ': stopped, the states left would outlast its share of the budget' }[e.end];
  const proven = states === undefined ? 'its states added to the sampled ones' : `every reachable state: ${states.groups} chosen groups (${states.fluents} fluents) proven by them`;
  return `mutex: reachable states searched: ${e.states} states, ${e.successors} successors${why}; ${proven}`;
}

/** The searches toward two members (refute-search.ts): counts, and the first witness with its moves from the initial state. */
function searchLines(x: NonNullable<MutexResult['stats']['search']>): string[] {
  const head = `mutex: searches from the initial state toward two members: ${x.refuted} unproven claims refuted (${x.searches} searches, ${x.evaluations} evaluations)`;
  return [head, ...x.witnesses.slice(0, 1).map(witnessLine)];
}

/** The walks toward a creating move (refute-create.ts): counts, and every witness (they are few: the claims few moves create a member of). */
function creatingLines(x: NonNullable<MutexResult['stats']['creating']>): string[] {
  const head = `mutex: walks from the initial state trying creating moves: ${x.refuted} unproven claims refuted (${x.searches} walks, ${x.evaluations} evaluations)`;
  return [head, ...x.witnesses.map(witnessLine)];
}

/** A refuting state's members and the joint moves from the initial state to it. */
function witnessLine(w: NonNullable<MutexResult['stats']['search']>['witnesses'][number]): string {
  return `mutex: refuted: ${w.members.join(' ')} both true after ${w.moves.length} joint moves: ${w.moves.map((j) => j.join(' ')).join(', ')}`;
}

function formatMutexStats(r: MutexResult): string {
  const s = r.stats;
  const v = s.surviving;
  const lines = [
    `mutex: ${s.hypotheses} hypotheses, ${s.candidates} candidate groups over ${s.sampledStates} sampled states${s.candidatesCut ? ' (time budget reached while making them: the rest left out, their fluents singletons)' : ''}`,
    `mutex: ${s.refutedBySimulation} refuted by simulation, ${s.proven} proven, ${s.notInductive} not inductive (observed only), ${s.unprovenForBudget} unproven for lack of budget`,
    `mutex: surviving groups of 2+: ${v.lifted.groups} proven lifted, ${v.ground.groups} proven ground, ${v.states === undefined ? '' : `${v.states.groups} proven by every reachable state, `}${v.observed.groups} observed only, ${s.refutedByState === undefined ? '' : `${s.refutedByState} refuted by a reachable state, `}${v.unproven.groups} unproven for lack of budget${s.budgetReached ? ' (time budget reached)' : ''}`,
    `mutex: ${s.provenLifted} proven lifted (${s.liftedPairs} rule pairs, ${s.liftedMs} ms), ${s.proven - s.provenLifted} proven ${v.states === undefined ? `by ground SAT${s.opaqueAtoms === 0 ? '' : ` (lazy axioms: ${s.opaqueAtoms} lazy atoms left free)`}` : 'by every reachable state (no ground SAT)'}`,
    ...(s.exclusions.tried > 0 ? [`mutex: facts between two fluents (exclusions, implications; ground): ${s.exclusions.proven} proven of ${s.exclusions.tried} held by the sampled states${s.exclusions.complete ? '' : ' (its budget reached)'}`] : []),
    ...(s.lemmas === undefined ? [] : [`mutex: lemmas through a mapping relation (${s.lemmas.mappingRules} mapping rules): ${s.lemmas.proven} proven of ${s.lemmas.kept} held by the sampled states (${s.lemmas.generated} made), ${s.lemmas.queries} queries, work ${s.lemmas.work}${s.lemmas.complete ? '' : ' (its budget reached)'}`]),
    ...(s.implications.tried > 0 ? [`mutex: implications between two relations: ${s.implications.proven} proven lifted of ${s.implications.tried} held by the sampled states`] : []),
    ...(s.moves === undefined ? [] : [`mutex: moves that make two members true, before the proofs: ${s.moves.refuting} refuting states (${s.moves.seeds} states seeded, ${s.moves.evaluations} evaluations)`]),
    ...(s.walks === undefined ? [] : [`mutex: walks from the sampled states: ${s.walks.refuted} unproven claims refuted (${s.walks.walks} walks, ${s.walks.evaluations} evaluations)`]),
    ...(s.search === undefined ? [] : searchLines(s.search)),
    ...(s.creating === undefined ? [] : creatingLines(s.creating)),
    `mutex: ${s.satQueries} SAT queries, work ${s.proofWork}${s.proofComplete ? '' : ' (budget reached: later candidates not tried)'}`,
    ...(s.enumeration === undefined ? [] : [enumerationLine(s.enumeration, s.chosen.states)]),
    ...(s.time === undefined ? [] : [timeLine(s.time)]),
    ...s.failures.map((f) => `mutex: not proven: {${f.members.join(' ')}}: ${f.unrefutedPairs}${f.capped ? '+' : ''} member pairs could not be refuted`),
  ];
  return `${lines.join('\n')}\n`;
}

function mutex(file: string, flags: MutexFlags): number {
  const pipeline = resolveFlags(flags);
  checkOutputTarget(flags.output);
  if (flags.statsJson !== undefined && flags.statsJson !== '-') checkOutputTarget(flags.statsJson);
  const settings = settingsOf(flags);
  const ctx = runContext(gameName(file), pipeline, new StageTimer());
  const timer = ctx.timer;
  const loaded = loadRun(ctx, readGameFile(file));
  for (const d of loaded.warnings) process.stderr.write(`${formatDiagnostic(d)}\n`);
  // The groups of the game `ground` writes (unused instances removed), the game GDDL partitions.
  const all = mutexRecipe(ctx, loaded, settings).mutex;
  const result = shown(all, flags.observed === true);
  const json = { fluents: result.fluents, bits: result.bits, proof: all.stats.chosen, budgetReached: all.stats.budgetReached, groups: result.groups };
  writeOutput(flags.output, flags.json === true ? `${JSON.stringify(json, null, 2)}\n` : formatMutex(result, all.groups.length - result.groups.length));
  if (flags.stats === true) process.stderr.write(`${formatStages(timer.list(), timer.peakRss())}\n${formatMutexStats(all)}`);
  if (flags.statsJson !== undefined) writeStatsJson(flags.statsJson, timer);
  return EXIT.ok;
}

/** Registers `gdl-ground mutex`. */
export function registerMutex(program: Command): void {
  const command = program
    .command('mutex')
    .description('find, prove and choose mutex groups of the fluents (fewest bits per state)')
    .argument('<game>', 'game description in KIF')
    .option('-o, --output <file>', 'write the groups to a file (atomically) instead of stdout');
  addMethodOption(command)
    .option('--json', 'print the groups as JSON')
    .option('--playouts <n>', `random playouts that refute candidates (default ${DEFAULT_MUTEX_SETTINGS.playouts})`)
    .option('--seed <n>', `seed of the playouts (default ${DEFAULT_MUTEX_SETTINGS.seed})`)
    .option('--max-steps <n>', `joint moves per playout (default ${DEFAULT_MUTEX_SETTINGS.maxSteps})`)
    .option('--observed', 'also print the groups that only survived the playouts (marked "proven": false)')
    .option('--mutex-seconds <n>', `time budget of sampling and proofs, after which the groups not yet proven are reported unproven (default: the grounding's time + ${MUTEX_EXTRA_SECONDS})`)
    .option('--max-states <n>', 'states the search for every reachable state may find before sampling playouts instead (default 1000000; 0: no search)')
    .option('--stats', 'print per-stage time, counts and the proof counts on stderr')
    .option('--stats-json <file>', 'write the per-stage times and counts, their total and peak memory as JSON to a file (atomically; - for stderr)');
  addLazyOption(addLimitOptions(command, 'ground')).action((file: string, flags: MutexFlags) => runCommand(() => mutex(file, flags)));
}
