/**
 * The corpus table of issue 17 (`npm run bench -- --corpus`, docs/corpus.md): every game's
 * batch row sorted into one outcome (ground, ground with lazy axioms, refused with an
 * estimate, another limit, invalid, crash), runs that outlived their time limit by more than
 * a second counted and listed whatever their outcome, and the 20 largest ground games.
 */
import { quantile } from '../batch/report.js';
import type { GameRow } from '../batch/types.js';

/** How a corpus game ended, for the table. */
type CorpusOutcome = 'ground' | 'lazy' | 'estimate' | 'limit' | 'invalid' | 'crash';

/** Every outcome, in the order the table counts them, with its label. */
const OUTCOMES: readonly (readonly [CorpusOutcome, string])[] = [
  ['ground', 'grounded'],
  ['lazy', 'grounded with lazy axioms'],
  ['estimate', 'refused with an estimate'],
  ['limit', 'other limits (time, memory, size)'],
  ['invalid', 'invalid (exit 1)'],
  ['crash', 'crashed (worker died)'],
];

/** Seconds past the time limit after which a run counts as an overshoot. */
const OVERSHOOT_SECONDS = 1;

/** How many of the largest ground games the table lists. */
export const LARGEST = 20;

/** Settings the table states (they are the run's). */
export interface CorpusSettings {
  readonly timeoutSeconds: number;
  readonly maxMemoryMb: number;
  readonly jobs: number;
  /** Where the games were read (shown, not interpreted). */
  readonly root: string;
}

/** Lazy relations of a row (batch rows of games ground with `--lazy-axioms`); absent counts as 0. */
export function lazyRelations(row: GameRow): number {
  return row.lazyRelations ?? 0;
}

/** The outcome of one row. */
export function outcomeOf(row: GameRow): CorpusOutcome {
  switch (row.status) {
    case 'ok':
      return lazyRelations(row) > 0 || (row.lazyRules ?? 0) > 0 ? 'lazy' : 'ground';
    case 'limit':
      // The error's data, not its words: a limit that carries an estimate ("about 3.9×10⁸ ground atoms").
      return row.limit?.estimate !== undefined ? 'estimate' : 'limit';
    case 'memory':
      return 'limit';
    case 'invalid':
      return 'invalid';
    case 'crash':
      return 'crash';
  }
}

/** True when the row's run outlived its time limit by more than {@link OVERSHOOT_SECONDS}. */
export function overshot(row: GameRow, timeoutSeconds: number): boolean {
  return row.seconds > timeoutSeconds + OVERSHOOT_SECONDS;
}

/** A Markdown table cell: no line breaks, pipes escaped. */
function cell(s: string | number | undefined): string {
  return s === undefined ? '' : String(s).replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function table(headers: readonly string[], rows: readonly (readonly (string | number | undefined)[])[]): string[] {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line([...headers]), line(headers.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map((r) => line(r.map(cell)))];
}

const fixed = (x: number | undefined, d: number): string | undefined => (x === undefined ? undefined : x.toFixed(d));

const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((100 * n) / of).toFixed(1)}%`);

/** The summary counts: one line per outcome, then valid games, ground share and overshoots. */
function countLines(rows: readonly GameRow[], s: CorpusSettings): string[] {
  const n = (o: CorpusOutcome): number => rows.filter((r) => outcomeOf(r) === o).length;
  const valid = rows.length - n('invalid');
  const ground = n('ground') + n('lazy');
  const body = OUTCOMES.map(([o, label]) => [label, n(o), pct(n(o), rows.length)] as const);
  return [
    ...table(['outcome', 'games', 'share'], [...body, ['all', rows.length, '']]),
    '',
    `Grounded (fully or lazily): ${ground} of ${valid} valid games (${pct(ground, valid)}).`,
    `Overshoots (ran more than ${OVERSHOOT_SECONDS} s past the ${s.timeoutSeconds} s limit): ${rows.filter((r) => overshot(r, s.timeoutSeconds)).length}.`,
  ];
}

/** Median and 90th percentile of the seconds per game, of all games and of those ground. */
function timeRow(label: string, rows: readonly GameRow[]): (string | number | undefined)[] {
  const all = rows.map((r) => r.seconds);
  const ground = rows.filter((r) => r.status === 'ok').map((r) => r.seconds);
  // The batch report's nearest-rank quantile (null for no games: an empty cell, as undefined).
  const f = (x: number | null): string | undefined => fixed(x ?? undefined, 2);
  return [label, rows.length, f(quantile(all, 0.5)), f(quantile(all, 0.9)), ground.length, f(quantile(ground, 0.5)), f(quantile(ground, 0.9))];
}

/** The time per game of this run, and of a previous run's rows (a batch JSON report) beside it. */
function timeLines(rows: readonly GameRow[], previous: PreviousRun | undefined): string[] {
  const body = [timeRow('this run', rows), ...(previous === undefined ? [] : [timeRow(`previous (${previous.name})`, previous.rows)])];
  return ['', '## Time per game', '', ...table(['run', 'games', 'median s', '90th pct s', 'ground', 'median s (ground)', '90th pct s (ground)'], body)];
}

/** A previous run's rows to compare times with, and the name it is shown by. */
export interface PreviousRun {
  readonly name: string;
  readonly rows: readonly GameRow[];
}

/** The {@link LARGEST} largest ground games by ground rules (then fluents, then name). */
export function largestGames(rows: readonly GameRow[]): GameRow[] {
  const ground = rows.filter((r) => r.status === 'ok');
  const key = (r: GameRow): [number, number] => [r.rules ?? 0, r.fluents ?? 0];
  return [...ground].sort((a, b) => key(b)[0] - key(a)[0] || key(b)[1] - key(a)[1] || (a.game < b.game ? -1 : a.game > b.game ? 1 : 0)).slice(0, LARGEST);
}

/** The rows `keep` accepts, as game, status, seconds and message, in game order. */
function listed(rows: readonly GameRow[], keep: (r: GameRow) => boolean): (string | undefined)[][] {
  return rows.filter(keep).map((r) => [r.game, r.status, r.seconds.toFixed(1), r.message]);
}

/** A section: a heading and a table, or a line saying there is none. */
function section(title: string, rows: (string | undefined)[][]): string[] {
  return ['', `## ${title} (${rows.length})`, '', ...(rows.length === 0 ? ['None.'] : table(['game', 'status', 'seconds', 'message'], rows))];
}

/**
 * The whole Markdown page of a corpus run. `rows` in game order; `games` relative to the root;
 * `previous`, when given, is shown beside this run's time per game.
 */
export function corpusMarkdown(rows: readonly GameRow[], s: CorpusSettings, previous?: PreviousRun): string {
  const big = largestGames(rows).map((r) => [r.game, r.rules, r.fluents, r.moves, fixed(r.seconds, 1), fixed(r.peakMiB, 0), lazyRelations(r) > 0 ? lazyRelations(r) : '']);
  const out = [
    '# Corpus table (issue 17)',
    '',
    `Written by \`npm run bench -- --corpus\`: every game under \`${s.root}\` ground by the batch runner,`,
    `one worker per game, ${s.timeoutSeconds} s and ${s.maxMemoryMb} MB each, ${s.jobs} at a time.`,
    '"Refused with an estimate" is a limit whose message names an estimated size ("about ...");',
    '"grounded with lazy axioms" is a ground game with lazy relations. An overshoot is counted',
    'whatever its outcome.',
    '',
    ...countLines(rows, s),
    ...timeLines(rows, previous),
    '',
    `## The ${LARGEST} largest ground games`,
    '',
    ...table(['game', 'rules', 'fluents', 'moves', 'seconds', 'peak MiB', 'lazy relations'], big),
    ...section('Overshoots', listed(rows, (r) => overshot(r, s.timeoutSeconds))),
    ...section('Crashes', listed(rows, (r) => outcomeOf(r) === 'crash')),
    ...section('Refused with an estimate', listed(rows, (r) => outcomeOf(r) === 'estimate')),
    ...section('Other limits', listed(rows, (r) => outcomeOf(r) === 'limit')),
    ...section('Invalid', listed(rows, (r) => outcomeOf(r) === 'invalid')),
  ];
  return `${out.join('\n')}\n`;
}
