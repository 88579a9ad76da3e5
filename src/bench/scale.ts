/**
 * `npm run bench -- --scale [--games A,B] [--files F,G] [--timeout S] [--lazy-axioms]`: grounding cost
 * per million rules written, on the largest ground games of the corpus (or on the game files `--files`
 * names, e.g. held-out games outside the corpus), side by side with gringo (issue 27). `--lazy-axioms`
 * grounds ours with that flag (docs/lazy.md): the held-out chess scramblings (GERMANY, BRAZIL, ...)
 * are refused without it; games that ground without it write the same either way.
 *
 * Per game, one after the other (time and peak memory are measured, so nothing runs beside):
 * - ours: `gdl-ground ground GAME -o FILE --stats` in its own process under GNU time: processor
 *   seconds (user + system), peak resident memory, the wall time of each stage (`--stats`), and
 *   the rules written (lines of the output);
 * - gringo: the whole game as an ASP program (bench/asp.ts, `groundingProgram`: every rule,
 *   negation as `not`, `true`/`does` declared `#external` over our relaxed supersets, which
 *   instantiation joins over too) ground by Debian's `gringo --text`, under GNU time; its rules
 *   are the lines of its output that are not directives. The supersets are not gringo's for
 *   free: gringo also computes them, as the least model of the relaxed game (bench/asp.ts,
 *   `relaxedProgram`: the whole relaxed game, every relation, where ours derives only what
 *   true, does, legal and next depend on), and its processor seconds are the two runs' sum, as
 *   ours include our superset stage. Both parts are shown.
 * Rule counts differ by design and the table shows both: we drop what reachability on the ground
 * rules and unused-instance removal prove useless, gringo keeps every instance its (relaxed)
 * reasoning cannot rule out, and evaluates facts away as we do.
 */
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gamesDir } from '../../scripts/corpus.mjs';
import { failureText, runChild } from '../batch/runner.js';
import { argValue, positiveArg } from './args.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '../cli/main.js');
const ASP_PROGRAM = join(dirname(fileURLToPath(import.meta.url)), 'asp-program.js');
const GNU_TIME = '/usr/bin/time';
const GRINGO = '/usr/bin/gringo';
const TIMEOUT = 'timeout';
/** The exit code of `timeout -s KILL` when the limit was reached (128 + 9). */
const KILLED_BY_TIMEOUT = 137;

/**
 * The ten largest ground games of the corpus by rules written (docs/corpus.md, "The 20 largest
 * ground games"), copies of the same game (gt_attrition, amazonsSuicide, libgdl's amazons and
 * hex) left out.
 */
const SCALE_GAMES: readonly string[] = [
  'ggp-repository-base/attritionWar.kif', 'ggp-repository-base/amazonsTorus.kif', 'ggp-repository-base/amazons.kif',
  'libgdl/madness.kif', 'ggp-repository-base/hexPie.kif', 'ggp-repository-base/racer4.kif', 'ggp-repository-base/hex.kif',
  'ggp-repository-base/gt_two_thirds_6p.kif', 'ggp-repository-base/shogi_ctk.kif', 'ggp-repository-base/kalaha_2009.kif',
];

/**
 * Processor seconds and peak resident memory of a run under GNU time, or why there are none;
 * `supersetsCpu`: of gringo's, the seconds of its superset run (included in `cpu`).
 */
type Measured = { kind: 'ok'; cpu: number; peakMiB: number; rules: number; stages: Record<string, number>; supersetsCpu?: number } | { kind: 'failed'; why: string };

/** GNU time's closing line, written by `-f` below: `SCALE user system maxKiB`. */
const TIME_LINE = /SCALE ([\d.]+) ([\d.]+) (\d+)\s*$/;

/** Lines of `path` for which `keep` holds, read as a stream (outputs reach hundreds of megabytes). */
async function countLines(path: string, keep: (line: string) => boolean): Promise<number> {
  let n = 0;
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8' })) {
    const lines = (rest + (chunk as string)).split('\n');
    rest = lines.pop()!;
    for (const l of lines) if (keep(l)) n++;
  }
  return rest !== '' && keep(rest) ? n + 1 : n;
}

/** Stage wall times in seconds from the file of `--stats-json` (src/timer.ts, `stagesJson`); none for gringo. */
function stageTimes(statsJson: string | undefined): Record<string, number> {
  if (statsJson === undefined || !existsSync(statsJson)) return {};
  const stats = JSON.parse(readFileSync(statsJson, 'utf8')) as { stages: { stage: string; ms: number }[] };
  const out: Record<string, number> = {};
  for (const { stage, ms } of stats.stages) out[stage] = (out[stage] ?? 0) + ms / 1000;
  return out;
}

/**
 * Runs `args` under GNU time with a limit; the measured figures once `rules` are counted. The
 * limit is coreutils' `timeout` under GNU time, which kills the command itself: killing GNU time
 * left gringo (its grandchild, through `sh`) running, holding the pipe the benchmark waits on
 * (racer4's relaxed program: 27 minutes past its 300 s). The child's own kill is a backstop.
 */
async function timed(args: readonly string[], timeoutS: number, rules: () => Promise<number>, statsJson?: string): Promise<Measured> {
  const limited = [TIMEOUT, '-s', 'KILL', String(timeoutS), ...args];
  const e = await runChild({ command: GNU_TIME, args: ['-f', 'SCALE %U %S %M', ...limited], killAfterMs: (timeoutS + 30) * 1000 });
  const t = TIME_LINE.exec(e.stderr);
  if (e.timedOut || e.code === KILLED_BY_TIMEOUT) return { kind: 'failed', why: `over ${timeoutS} s` };
  if (e.code !== 0 || t === null) return { kind: 'failed', why: failureText(e).split('\n')[0] ?? `exit ${e.code}` };
  return { kind: 'ok', cpu: Number(t[1]) + Number(t[2]), peakMiB: Number(t[3]) / 1024, rules: await rules(), stages: stageTimes(statsJson) };
}

/** Our grounding of `file`, written to `out`; `lazy`: with `--lazy-axioms`. */
function ours(file: string, out: string, timeoutS: number, lazy: boolean): Promise<Measured> {
  const stats = `${out}.stats.json`;
  const args = [process.execPath, CLI, 'ground', file, '-o', out, '--stats-json', stats, '--timeout', String(timeoutS), '--max-memory', '8000', ...(lazy ? ['--lazy-axioms'] : [])];
  return timed(args, timeoutS + 10, () => countLines(out, (l) => l !== '' && !l.startsWith(';')), stats);
}

/**
 * gringo's work on `file`: the least model of the relaxed game (the supersets), then the
 * grounding of the game's ASP program over our supersets (the same domains as ours), written to
 * `out`; the processor seconds and peak of both runs, the rules of the second.
 */
async function gringo(file: string, work: string, out: string, timeoutS: number): Promise<Measured> {
  const program = join(work, 'game.lp');
  const relaxed = join(work, 'relaxed.lp');
  const made = await runChild({ args: [ASP_PROGRAM, file, program, String(timeoutS), relaxed], execArgv: ['--max-old-space-size=8000'], killAfterMs: (timeoutS + 10) * 1000 });
  if (made.code !== 0) return { kind: 'failed', why: `no program: ${failureText(made).split('\n')[0]}` };
  // A shell only to send gringo's text to a file; GNU time counts the shell's children too.
  const run = (lp: string, to: string): string[] => ['sh', '-c', `exec ${GRINGO} --text "$0" > "$1"`, lp, to];
  const supersets = await timed(run(relaxed, out), timeoutS, async () => 0);
  if (supersets.kind === 'failed') return { kind: 'failed', why: `supersets: ${supersets.why}` };
  rmSync(out, { force: true });
  const ground = await timed(run(program, out), timeoutS, () => countLines(out, (l) => l !== '' && !l.startsWith('#')));
  if (ground.kind === 'failed') return ground;
  return { ...ground, cpu: supersets.cpu + ground.cpu, peakMiB: Math.max(supersets.peakMiB, ground.peakMiB), supersetsCpu: supersets.cpu };
}

/** Table cells of one game. */
function row(game: string, a: Measured, b: Measured): string[] {
  const f = (x: number, d = 2): string => x.toFixed(d);
  const mine = a.kind === 'ok' ? [String(a.rules), f(a.cpu), f(a.peakMiB, 0), f(a.cpu / (a.rules / 1e6)), f(a.peakMiB / (a.rules / 1e6), 0), stageCells(a.stages)] : [a.why, '', '', '', '', ''];
  const theirs = b.kind === 'ok' ? [String(b.rules), f(b.cpu), f(b.supersetsCpu ?? 0), f(b.peakMiB, 0)] : [b.why, '', '', ''];
  const ratio = a.kind === 'ok' && b.kind === 'ok' ? f(a.cpu / Math.max(b.cpu, 0.01)) : '';
  return [game, ...mine, ...theirs, ratio];
}

/** The stages that took longest, in seconds of wall time: `instantiate 3.1, reach 2.0, emit 1.2`. */
function stageCells(stages: Record<string, number>): string {
  return Object.entries(stages).filter(([s]) => s !== 'total').sort((x, y) => y[1] - x[1]).slice(0, 4).map(([s, v]) => `${s} ${v.toFixed(1)}`).join(', ');
}

/**
 * The games to measure as [shown name, path]: the files `--files` names, relative to the
 * directory `npm run` was called from (npm runs the script in the package's own), else the
 * corpus's ten filtered by `--games`.
 */
function scaleGames(argv: readonly string[], root: string): [string, string][] {
  const list = (flag: string): string[] => (argValue(argv, flag) ?? '').split(',').filter((g) => g !== '');
  const files = list('--files');
  const from = process.env['INIT_CWD'] ?? process.cwd();
  if (files.length > 0) return files.map((f) => [relative(from, resolve(from, f)), resolve(from, f)]);
  const filter = list('--games');
  return SCALE_GAMES.filter((g) => filter.length === 0 || filter.some((f) => g.includes(f))).map((g) => [g, join(root, g)]);
}

/** Runs the scale benchmark; the exit code. */
export async function runScaleBench(argv: readonly string[]): Promise<number> {
  const root = gamesDir();
  const games = scaleGames(argv, root);
  const missing = games.find(([, path]) => !existsSync(path));
  if (missing !== undefined) return (process.stderr.write(`bench: no game file ${missing[1]} (set GDL_GAMES_DIR for the corpus)\n`), 2);
  const haveGringo = existsSync(GRINGO) && existsSync(GNU_TIME);
  if (!haveGringo) return (process.stderr.write('bench --scale: needs gringo and GNU time (apt-get install gringo time); skipped\n'), 0);
  const timeoutS = positiveArg(argv, '--timeout', 300);
  const lazy = argv.includes('--lazy-axioms');
  const header = ['game', 'rules', 'cpu s', 'peak MiB', 's / M rules', 'MiB / M rules', 'longest stages (wall s)', 'gringo rules', 'gringo cpu s', 'of it supersets', 'gringo MiB', 'ours / gringo cpu'];
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map((h, i) => (i === 0 || i === 6 ? '---' : '---:')).join(' | ')} |`];
  const ratios: number[] = [];
  for (const [game, path] of games) {
    const work = mkdtempSync(join(tmpdir(), 'gdl-scale-'));
    try {
      const a = await ours(path, join(work, 'ours.gdl'), timeoutS, lazy);
      rmSync(join(work, 'ours.gdl'), { force: true });
      const b = await gringo(path, work, join(work, 'gringo.txt'), timeoutS).catch((err: unknown): Measured => ({ kind: 'failed', why: String(err).split('\n')[0]! }));
      if (a.kind === 'ok' && b.kind === 'ok') ratios.push(a.cpu / Math.max(b.cpu, 0.01));
      lines.push(`| ${row(game, a, b).join(' | ')} |`);
      process.stderr.write(`${game}: ${a.kind === 'ok' ? `${a.rules} rules, ${a.cpu.toFixed(1)} s` : a.why}; gringo ${b.kind === 'ok' ? `${b.rules} rules, ${b.cpu.toFixed(1)} s` : b.why}\n`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  const median = sorted.length === 0 ? NaN : sorted.length % 2 === 1 ? sorted[sorted.length >> 1]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  lines.push('', `ours / gringo in processor seconds, median over the ${ratios.length} games both ground: ${median.toFixed(2)}`);
  if (lazy) lines.push('ours ground with --lazy-axioms (its rules are the lines written, so they include the lazy part: non-ground rules and the static facts they read; gringo grounds the whole program)');
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
