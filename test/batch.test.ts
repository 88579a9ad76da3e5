// `gdl-ground batch`: games found under folders, each ground in its own worker; every game gets
// a row with the right status, outputs are whole files named after the games, the report
// parses in each format, and Ctrl-C leaves no partial file.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverGames } from '../src/batch/discover.js';
import { Progress } from '../src/batch/progress.js';
import { csvReport, jsonReport, markdownReport, quantile, reportFormatOf, summarize } from '../src/batch/report.js';
import { deadRow, defaultMaxMemoryMb } from '../src/batch/run.js';
import type { Ending } from '../src/batch/runner.js';
import { jobOptions } from '../src/batch/ground-one.js';
import type { GameRow } from '../src/batch/types.js';
import { measurementRow } from '../src/bench/report-row.js';
import { parseGdl } from '../src/gdl/parser.js';
import { GAMES_DIR, HAVE_CORPUS } from './corpus.js';
import { CLI, ROOT, ensureBuilt } from './support/cli.js';
import { Deadline } from '../src/deadline.js';

function run(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `dir`, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

/** Splits CSV text into records of fields (RFC 4180 quoting). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { record.push(field); field = ''; } else if (c === '\r') continue;
    else if (c === '\n') { record.push(field); records.push(record); record = []; field = ''; } else field += c;
  }
  return records;
}

const row = (game: string, status: GameRow['status'], seconds: number, extra: Partial<GameRow> = {}): GameRow =>
  ({ game, status, exitCode: 0, message: '', seconds, outputs: [], stages: {}, ...extra });

describe('batch: discovery', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gdl-batch-find-'));
    mkdirSync(join(dir, 'a/deep'), { recursive: true });
    mkdirSync(join(dir, 'b'));
    for (const f of ['b/x.kif', 'a/x.kif', 'a/deep/y.GDL', 'a/notes.txt', 'z.kif']) writeFileSync(join(dir, f), '(role r)');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds game files recursively, sorted, named after their path under the folder, each once', () => {
    const found = discoverGames([dir, join(dir, 'z.kif'), join(dir, 'a/x.kif')]);
    expect(found.map((g) => relative(dir, g.file))).toEqual(['a/deep/y.GDL', 'a/x.kif', 'b/x.kif', 'z.kif']);
    expect(found.map((g) => g.name)).toEqual(['a/deep/y', 'a/x', 'b/x', 'z']);
  });

  it('keeps names apart when two files given by name share one', () => {
    expect(discoverGames([join(dir, 'a/x.kif'), join(dir, 'b/x.kif')]).map((g) => g.name)).toEqual(['x', 'x-2']);
  });

  it('refuses a path that does not exist', () => {
    expect(() => discoverGames([join(dir, 'missing')])).toThrow(/cannot read/);
  });
});

describe('batch: report', () => {
  const rows: GameRow[] = [
    row('a.kif', 'ok', 1, { stages: { parse: 1.5, reach: 20, emit: 2 }, fluents: 9, moves: 4, axioms: 2, rules: 30, outputBytes: 100, peakMiB: 50 }),
    row('b, "quoted".kif', 'invalid', 2, { exitCode: 1, message: 'b.kif:1:1: error: a | b\nsecond line' }),
    row('c.kif', 'limit', 3, { exitCode: 3, message: 'killed' }),
    row('d.kif', 'crash', 10, { exitCode: null, message: 'worker killed by SIGSEGV' }),
  ];

  it('summarizes counts by status, median and p90 seconds', () => {
    const s = summarize(rows);
    expect(s.counts).toEqual({ ok: 1, invalid: 1, limit: 1, memory: 0, crash: 1 });
    expect(s.medianSeconds).toBe(2);
    expect(s.p90Seconds).toBe(10);
    expect(quantile([], 0.5)).toBeNull();
    expect(quantile([5, 1, 3], 0.5)).toBe(3);
    // Nearest rank, as bench --corpus's time table takes them (the median of 4 values is the 2nd).
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2);
    expect(quantile([5, 1, 9, 3, 7, 2, 8, 4, 6, 10], 0.9)).toBe(9);
    expect(quantile([7], 0.9)).toBe(7);
  });

  it('writes CSV with one record per game and the same columns in every record', () => {
    const records = parseCsv(csvReport(rows));
    expect(records).toHaveLength(rows.length + 1);
    const head = records[0]!;
    for (const r of records) expect(r).toHaveLength(head.length);
    expect(head.slice(0, 4)).toEqual(['game', 'status', 'exit', 'seconds']);
    expect(head).toEqual(expect.arrayContaining(['parse ms', 'reach ms', 'emit ms', 'peak MiB', 'fluents', 'moves', 'axioms', 'ground rules', 'output bytes', 'message']));
    expect(records[2]![0]).toBe('b, "quoted".kif');
    expect(records[2]![head.indexOf('message')]).toBe('b.kif:1:1: error: a | b\nsecond line');
    expect(records[1]![head.indexOf('reach ms')]).toBe('20.0');
  });

  it('writes JSON with the summary and every row', () => {
    const data = JSON.parse(jsonReport(rows)) as { summary: { games: number }; games: GameRow[] };
    expect(data.summary.games).toBe(4);
    expect(data.games.map((g) => g.status)).toEqual(['ok', 'invalid', 'limit', 'crash']);
  });

  it('writes a Markdown table whose rows keep their columns, then the summary', () => {
    const lines = markdownReport(rows).split('\n');
    const table = lines.filter((l) => l.startsWith('|'));
    expect(table).toHaveLength(rows.length + 2);
    const cells = (l: string): number => l.replace(/\\\|/g, '').split('|').length;
    for (const l of table) expect(cells(l)).toBe(cells(table[0]!));
    expect(lines).toContain('- games 4: ok 1, invalid 1, limit 1, memory 0, crash 1');
  });

  it('chooses the format by extension', () => {
    expect(['r.md', 'r.CSV', 'r.json', 'r.txt'].map(reportFormatOf)).toEqual(['md', 'csv', 'json', undefined]);
  });

  it('adds extra columns a caller gives', () => {
    const withExtra = [row('a.kif', 'ok', 1, { extra: { 'swi s': '0.5' } }), row('b.kif', 'ok', 1)];
    const records = parseCsv(csvReport(withExtra));
    const i = records[0]!.indexOf('swi s');
    expect(i).toBeGreaterThan(0);
    expect(records.map((r) => r[i])).toEqual(['swi s', '0.5', '']);
  });
});

describe('batch: the benchmark writes the same report', () => {
  it('turns a measurement into a row: superset seconds as the reach stage, a worker error as a crash', () => {
    const ok = measurementRow('g.kif', { status: 'ok', fluents: 3, moves: 2, axioms: 1, iterations: 4, answers: 9, seconds: 0.5, peakMiB: 60 }, { 'swi s': '0.20' });
    expect(ok).toMatchObject({ status: 'ok', exitCode: 0, stages: { reach: 500 }, fluents: 3, extra: { it: '4', answers: '9', 'swi s': '0.20' } });
    expect(measurementRow('h.kif', { status: 'error', message: 'exit 134', seconds: 0, peakMiB: 0 }, {})).toMatchObject({ status: 'crash', message: 'exit 134', stages: {} });
    const records = parseCsv(csvReport([ok]));
    expect(records[0]).toEqual(expect.arrayContaining(['reach ms', 'it', 'answers', 'swi s']));
  });
});

describe('batch: workers that die', () => {
  const options = { jobs: 1, timeoutSeconds: 10, maxMemoryMb: 100, method: 'prolog' as const, format: 'gdl' as const, out: undefined };
  const ending = (e: Partial<Ending>): Ending => ({ reply: undefined, code: null, signal: null, stdout: '', stdoutBytes: 0, stderr: '', timedOut: false, aborted: false, seconds: 1, startedAt: 0, ...e });
  const game = { file: 'g.kif', name: 'g' };

  it('tells a kill at the time limit, a V8 heap abort and a crash apart', () => {
    expect(deadRow(game, ending({ timedOut: true, signal: 'SIGKILL' }), options)).toMatchObject({ status: 'limit', exitCode: 3, limit: { kind: 'time' } });
    const heap = 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory';
    expect(deadRow(game, ending({ code: 134, stderr: heap }), options)).toMatchObject({ status: 'memory', exitCode: 3, limit: { kind: 'memory' } });
    expect(deadRow(game, ending({ signal: 'SIGSEGV' }), options)).toMatchObject({ status: 'crash', exitCode: null, message: 'worker killed by SIGSEGV' });
    expect(deadRow(game, ending({ code: 70, stderr: 'internal error: boom\n' }), options)).toMatchObject({ status: 'crash', exitCode: 70, message: 'worker exit code 70: internal error: boom' });
  });

  it('gives each worker a share of the memory', () => {
    expect(defaultMaxMemoryMb(1)).toBeGreaterThanOrEqual(defaultMaxMemoryMb(4));
    expect(defaultMaxMemoryMb(1_000_000)).toBe(256);
  });
});

describe('batch: progress line', () => {
  it('draws on a terminal and appends one line per finished game otherwise', () => {
    const written: string[] = [];
    const tty = new Progress(2, { isTTY: true, write: (t: string) => written.push(t) });
    tty.started({ file: 'a.kif', name: 'a' });
    tty.finished(row('a.kif', 'limit', 1));
    expect(tty.line()).toMatch(/^1\/2 done, 0 running, ok 0, invalid 0, limit 1, \d+ s$/);
    tty.stop();
    expect(written.some((t) => t.includes('1/2 done'))).toBe(true);
    const quiet: string[] = [];
    const pipe = new Progress(1, { isTTY: false, write: (t: string) => quiet.push(t) });
    pipe.started({ file: 'a.kif', name: 'a' });
    expect(quiet).toEqual([]); // nothing redrawn while games run
    pipe.finished(row('a.kif', 'limit', 1));
    pipe.stop();
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).toMatch(/^\[1\/1\] limit a\.kif \(\d+\.\d s\)/);
    expect(quiet[0]).not.toContain('\r');
  });
});

describe.skipIf(!HAVE_CORPUS)('gdl-ground batch on corpus games', () => {
  let dir = '';
  let games = '';
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'gdl-batch-'));
    games = join(dir, 'games');
    mkdirSync(join(games, 'sub'), { recursive: true });
    // --max-rules 300 below: tic-tac-toe (265 ground rules) fits, connect four (463) does not.
    copyFileSync(join(GAMES_DIR, 'ggp-repository-base/ticTacToe.kif'), join(games, 'ticTacToe.kif'));
    copyFileSync(join(GAMES_DIR, 'ggp-repository-base/connectFour.kif'), join(games, 'sub/connectFour.kif'));
    copyFileSync(join(ROOT, 'games/buttons.kif'), join(games, 'sub/buttons.kif'));
    writeFileSync(join(games, 'broken.kif'), '; not closed\n(role x\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every game a row with its status, writes whole outputs named after the games and no temporary file', () => {
    const out = join(dir, 'out');
    const report = join(dir, 'report.json');
    const r = run(['batch', games, '--jobs', '2', '--max-rules', '300', '--timeout', '60', '--out', out, '--report', report]);
    expect(r.stderr).not.toContain('\r'); // no redrawn line: stderr is not a terminal
    expect(r.stderr.split('\n').filter((l) => /^\[\d\/4\] /.test(l))).toHaveLength(4); // one line per game
    expect(r.code).toBe(1); // an invalid game
    const data = JSON.parse(readFileSync(report, 'utf8')) as { summary: { counts: Record<string, number> }; games: GameRow[] };
    const status = Object.fromEntries(data.games.map((g) => [relative(games, g.game), g.status]));
    expect(status).toEqual({ 'broken.kif': 'invalid', 'sub/buttons.kif': 'ok', 'sub/connectFour.kif': 'limit', 'ticTacToe.kif': 'ok' });
    expect(data.summary.counts).toEqual({ ok: 2, invalid: 1, limit: 1, memory: 0, crash: 0 });
    const broken = data.games.find((g) => g.game.endsWith('broken.kif'))!;
    expect(broken).toMatchObject({ exitCode: 1 });
    expect(broken.message).toMatch(/broken\.kif:2:1: error/);
    expect(data.games.find((g) => g.game.endsWith('connectFour.kif'))!.message).toMatch(/exceeded 300 ground rules/);
    const ttt = data.games.find((g) => g.game.endsWith('ticTacToe.kif'))!;
    expect(ttt).toMatchObject({ exitCode: 0, outputs: ['ticTacToe.gdl'] });
    for (const s of ['parse', 'reach', 'instantiate', 'emit']) expect(ttt.stages[s]).toBeGreaterThan(0);
    expect(ttt.rules).toBeGreaterThan(0);
    expect(ttt.peakMiB).toBeGreaterThan(0);
    expect(filesUnder(out)).toEqual(['sub/buttons.gdl', 'ticTacToe.gdl']);
    const text = readFileSync(join(out, 'ticTacToe.gdl'), 'utf8');
    expect(Buffer.byteLength(text)).toBe(ttt.outputBytes);
    expect(parseGdl(text, undefined, Deadline.never()).diagnostics).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['games', 'out', 'report.json']);
  });

  it('writes JSON outputs and a Markdown report on stdout, and refuses bad options with exit 2', () => {
    const out = join(dir, 'json');
    const r = run(['batch', join(games, 'sub/buttons.kif'), '--format', 'json', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\| game \| status \|/);
    expect(r.stdout).toContain('- games 1: ok 1, invalid 0, limit 0, memory 0, crash 0');
    expect(JSON.parse(readFileSync(join(out, 'buttons.json'), 'utf8')).format).toBe('gdl-ground/1');
    expect(run(['batch', games, '--report', join(dir, 'r.txt')]).code).toBe(2);
    expect(run(['batch', games, '--format', 'xml']).code).toBe(2);
    expect(run(['batch', games, '--jobs', '0']).code).toBe(2);
    expect(run(['batch', join(dir, 'missing')]).code).toBe(2);
    expect(existsSync(join(dir, 'r.txt'))).toBe(false);
  });

  it.skipIf(!existsSync('/proc/self/task'))('records a worker killed by a signal as a crash and goes on with the next game', async () => {
    const crash = join(dir, 'crash');
    mkdirSync(crash);
    // Chess keeps its worker busy for about a minute; buttons comes after it.
    copyFileSync(join(GAMES_DIR, 'ggp-repository-base/chess.kif'), join(crash, 'a-chess.kif'));
    copyFileSync(join(ROOT, 'games/buttons.kif'), join(crash, 'b-buttons.kif'));
    const report = join(dir, 'crash.json');
    const child = spawn(process.execPath, [CLI, 'batch', crash, '--jobs', '1', '--report', report], { cwd: ROOT, stdio: 'ignore' });
    const closed = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    // The batch's only child is chess's worker once it has started.
    const workers = (): string[] => readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter((p) => p !== '');
    const deadline = Date.now() + 20_000;
    while (workers().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const [worker] = workers();
    expect(worker).toBeDefined();
    process.kill(Number(worker), 'SIGSEGV');
    expect(await closed).toBe(1);
    const data = JSON.parse(readFileSync(report, 'utf8')) as { games: GameRow[] };
    expect(data.games.map((g) => [relative(crash, g.game), g.status, g.exitCode])).toEqual([['a-chess.kif', 'crash', null], ['b-buttons.kif', 'ok', 0]]);
    expect(data.games[0]!.message).toBe('worker killed by SIGSEGV');
  }, 60_000);

  it('stops on SIGINT with exit 130: workers killed, no output, no report, no temporary file', async () => {
    const slow = join(dir, 'slow');
    mkdirSync(slow);
    // amazons takes half a minute or more (chess, used before, is now refused in about 3 s by the
    // superset stage's foresight): the worker is surely busy when the signal comes.
    copyFileSync(join(GAMES_DIR, 'ggp-repository-base/amazons.kif'), join(slow, 'amazons.kif'));
    const out = join(dir, 'slow-out');
    const report = join(dir, 'slow.md');
    const child = spawn(process.execPath, [CLI, 'batch', slow, '--jobs', '1', '--out', out, '--report', report], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => { stderr += b.toString(); });
    // Listened to from the start, so that a batch ending before the signal fails the test, not hangs it.
    const closed = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    await new Promise((r) => setTimeout(r, 3000));
    const started = Date.now();
    child.kill('SIGINT');
    const code = await closed;
    expect(code).toBe(130);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(stderr).toContain('interrupted');
    expect(filesUnder(out)).toEqual([]);
    expect(readdirSync(out)).toEqual([]);
    expect(existsSync(report)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('slow'))).toEqual(['slow', 'slow-out']);
  }, 60_000);
});

describe('a worker\'s time limit', () => {
  const job = { file: 'g.kif', name: 'g', format: 'gdl', method: 'prolog', timeoutSeconds: 5, heapLimitMb: 512 } as const;
  it('counts from when the parent started the worker, so its start-up is inside the limit', () => {
    expect(jobOptions({ ...job, startedAt: Date.now() - 6000 }).deadline.passed()).toBe(true);
    expect(jobOptions({ ...job, startedAt: Date.now() - 1000 }).deadline.passed()).toBe(false);
    expect(jobOptions({ ...job, startedAt: Date.now() - 1000 }).deadline.at).toBeLessThan(Date.now() + 4500);
  });
  it('counts from now without a start time, and never passes without a limit', () => {
    expect(jobOptions(job).deadline.at).toBeGreaterThan(Date.now() + 4000);
    expect(jobOptions({ ...job, timeoutSeconds: null, startedAt: 0 }).deadline.passed()).toBe(false);
  });
});

describe('gdl-ground batch reports warnings, and refuses a folder without games', () => {
  let dir = '';
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'gdl-batch-warn-'));
    mkdirSync(join(dir, 'games'));
    mkdirSync(join(dir, 'empty'));
    copyFileSync(join(ROOT, 'test/fixtures/lenient/unsafe-head-callers.kif'), join(dir, 'games/callers.kif'));
    copyFileSync(join(ROOT, 'games/tictactoe.kif'), join(dir, 'games/tictactoe.kif'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists each game\'s warnings in the JSON report and counts them in the table', () => {
    const report = join(dir, 'report.json');
    expect(run(['batch', join(dir, 'games'), '--report', report]).code).toBe(0);
    const data = JSON.parse(readFileSync(report, 'utf8')) as { games: GameRow[] };
    const callers = data.games.find((g) => g.game.endsWith('callers.kif'))!;
    expect(callers.warningCount).toBe(1);
    expect(callers.warnings![0]).toMatch(/callers\.kif:11:1: warning: unsafe rule for 'placeable'/);
    expect(data.games.find((g) => g.game.endsWith('tictactoe.kif'))!.warnings).toBeUndefined();
    const md = run(['batch', join(dir, 'games')]).stdout;
    expect(md.split('\n')[0]).toContain('| warnings |');
    expect(md).toMatch(/\| 1: [^|]*callers\.kif:11:1: warning: unsafe rule for 'placeable'/);
  });

  it('exits 2 naming a folder that holds no game, and writes no report', () => {
    const report = join(dir, 'empty.md');
    const r = run(['batch', join(dir, 'empty'), '--report', report]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no games (.kif or .gdl files) found under '${join(dir, 'empty')}'`);
    expect(existsSync(report)).toBe(false);
  });
});
