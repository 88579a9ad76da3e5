/**
 * The report of a batch (and of `npm run bench`): one row per game and a summary, as Markdown
 * for people, CSV or JSON for programs; the format follows the report file's extension.
 */
import { extname } from 'node:path';
import { type GameRow, type GameStatus, STATUSES } from './types.js';

/** Report formats, by file extension. */
export type ReportFormat = 'md' | 'csv' | 'json';

/** The format of a report file from its extension (`.md`, `.markdown`, `.csv`, `.json`); undefined for others. */
export function reportFormatOf(path: string): ReportFormat | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.md' || ext === '.markdown') return 'md';
  if (ext === '.csv') return 'csv';
  if (ext === '.json') return 'json';
  return undefined;
}

/** Counts by status, and the median and 90th percentile of the games' seconds (every game, whatever its status). */
interface ReportSummary {
  readonly games: number;
  readonly counts: Readonly<Record<GameStatus, number>>;
  readonly medianSeconds: number | null;
  readonly p90Seconds: number | null;
}

/** The `q`-quantile of `xs` by the nearest-rank method; null when empty. */
export function quantile(xs: readonly number[], q: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** The summary of `rows`. */
export function summarize(rows: readonly GameRow[]): ReportSummary {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, rows.filter((r) => r.status === s).length])) as Record<GameStatus, number>;
  const seconds = rows.map((r) => r.seconds);
  return { games: rows.length, counts, medianSeconds: quantile(seconds, 0.5), p90Seconds: quantile(seconds, 0.9) };
}

/** Stages in pipeline order; a stage not listed here follows them in order of first appearance. */
const STAGE_ORDER: readonly string[] = ['parse', 'validate', 'normalize', 'reach', 'instantiate', 'prune', 'unused', 'emit'];

/** The stage names of `rows`: the known ones in pipeline order, then the others. */
function stageNames(rows: readonly GameRow[]): string[] {
  const seen = new Set(rows.flatMap((r) => Object.keys(r.stages)));
  return [...STAGE_ORDER.filter((s) => seen.has(s)), ...[...seen].filter((s) => !STAGE_ORDER.includes(s))];
}

/** The extra columns of `rows`, in order of first appearance. */
function extraNames(rows: readonly GameRow[]): string[] {
  return [...new Set(rows.flatMap((r) => Object.keys(r.extra ?? {})))];
}

/** A cell: a value, or empty. */
type Cell = string | number | undefined;

/** One column of the tables: its header and how a row fills it. */
interface Column {
  readonly header: string;
  readonly cell: (r: GameRow) => Cell;
}

const fixed = (n: number | undefined, digits: number): Cell => (n === undefined ? undefined : n.toFixed(digits));

/** The columns of a table of `rows`, the same in Markdown and CSV. */
function columns(rows: readonly GameRow[]): Column[] {
  return [
    { header: 'game', cell: (r) => r.game },
    { header: 'status', cell: (r) => r.status },
    { header: 'exit', cell: (r) => (r.exitCode === null ? 'signal' : r.exitCode) },
    { header: 'seconds', cell: (r) => r.seconds.toFixed(3) },
    ...stageNames(rows).map((s): Column => ({ header: `${s} ms`, cell: (r) => fixed(r.stages[s], 1) })),
    { header: 'peak MiB', cell: (r) => fixed(r.peakMiB, 1) },
    { header: 'fluents', cell: (r) => r.fluents },
    { header: 'moves', cell: (r) => r.moves },
    { header: 'axioms', cell: (r) => r.axioms },
    { header: 'ground rules', cell: (r) => r.rules },
    { header: 'output bytes', cell: (r) => r.outputBytes },
    { header: 'warnings', cell: warningsCell },
    ...extraNames(rows).map((h): Column => ({ header: h, cell: (r) => r.extra?.[h] })),
    { header: 'message', cell: (r) => r.message },
  ];
}

/** Warnings shown in a table cell; the JSON report lists them all. */
const CELL_WARNINGS = 3;

/** The warnings cell: how many, then the first few (`2: a.kif:3:1: warning: ... / ...`); empty when none. */
function warningsCell(r: GameRow): Cell {
  const n = r.warningCount ?? r.warnings?.length ?? 0;
  if (n === 0) return undefined;
  const shown = (r.warnings ?? []).slice(0, CELL_WARNINGS);
  const more = n > shown.length ? ` / (${n - shown.length} more)` : '';
  return `${n}: ${shown.join(' / ')}${more}`;
}

/** A Markdown table cell: no line breaks, pipes escaped. */
function mdCell(c: Cell): string {
  return c === undefined ? '' : String(c).replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** The summary as lines of text. */
export function summaryLines(s: ReportSummary): string[] {
  const counts = STATUSES.map((st) => `${st} ${s.counts[st]}`).join(', ');
  const q = (x: number | null): string => (x === null ? '-' : x.toFixed(3));
  return [`games ${s.games}: ${counts}`, `seconds per game: median ${q(s.medianSeconds)}, p90 ${q(s.p90Seconds)}`];
}

/** The report as Markdown: the table, then the summary. */
export function markdownReport(rows: readonly GameRow[]): string {
  const cols = columns(rows);
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const numeric = (c: Column): boolean => !['game', 'status', 'warnings', 'message'].includes(c.header);
  const out = [
    line(cols.map((c) => c.header)),
    line(cols.map((c) => (numeric(c) ? '---:' : '---'))),
    ...rows.map((r) => line(cols.map((c) => mdCell(c.cell(r))))),
    '',
    ...summaryLines(summarize(rows)).map((l) => `- ${l}`),
  ];
  return `${out.join('\n')}\n`;
}

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
function csvField(c: Cell): string {
  const s = c === undefined ? '' : String(c);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The report as CSV: a header line and one line per game (the summary follows from the rows). */
export function csvReport(rows: readonly GameRow[]): string {
  const cols = columns(rows);
  const lines = [cols.map((c) => csvField(c.header)), ...rows.map((r) => cols.map((c) => csvField(c.cell(r))))];
  return lines.map((l) => l.join(',')).join('\r\n') + '\r\n';
}

/** The report as JSON: `{summary, games}`, each game a {@link GameRow}. */
export function jsonReport(rows: readonly GameRow[]): string {
  return `${JSON.stringify({ summary: summarize(rows), games: rows }, null, 2)}\n`;
}

/** The report in `format`. */
export function formatReport(rows: readonly GameRow[], format: ReportFormat): string {
  return format === 'csv' ? csvReport(rows) : format === 'json' ? jsonReport(rows) : markdownReport(rows);
}
