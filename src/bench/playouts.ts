/**
 * `npm run bench -- --playouts [--seconds S] [--games A,B] [--timeout S] [--ggpbase FILE.tsv] [--ggplib DIR|none] [--sancho DIR|none] [--base DIR] [--out FILE.md]`:
 * the Monte-Carlo table of slide 4 (instantiation lecture): per game, `gdl-ground play
 * --engine both --json` in its own process, then one Markdown row with both engines, the
 * factor (states/s ground / prolog) beside the slide's, and the grounding time. With
 * `--ggpbase`, the TSV that GGP-Base's bench.sh printed (measured in the same session) adds
 * its propnet's playouts/s, our ratio to it, and its prover's playouts/s. When ggplib or Sancho
 * is built (reference.ts), the table is instead ours side by side with them, alternating; with
 * `--base DIR` (a built checkout of another version), that version's runs beside ours.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gamesDir, listGames } from '../../scripts/corpus.mjs';
import { failureText, runAll, runChild } from '../batch/runner.js';
import { type Reference, type ReferenceRun, builtReferences, loadAverage, referenceCell, referenceRatio, runReference } from './reference.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '..', 'cli', 'main.js');

/**
 * The slide's games (its factor, Prolog against the instantiated game), then the issue's others;
 * `lazy`: ground with `--lazy-axioms` (docs/lazy.md), the only way chess grounds.
 */
const PLAYOUT_GAMES: readonly { readonly name: string; readonly slide?: number; readonly lazy?: boolean }[] = [
  { name: 'asteroidsSerial', slide: 3.7 },
  { name: 'beatMania', slide: 109.11 },
  { name: 'chomp', slide: 69.32 },
  { name: 'connectFour', slide: 45.45 },
  { name: 'hanoi', slide: 93.51 },
  { name: 'lightsOut', slide: 251.04 },
  { name: 'pancakes6', slide: 13.57 },
  { name: 'peg', slide: 98.55 },
  { name: 'sheepAndWolf', slide: 43.17 },
  { name: 'ticTacToe', slide: 85.85 },
  { name: 'pegEuro' },
  { name: 'breakthrough' },
  { name: 'checkers' },
  { name: 'chess', lazy: true },
  { name: 'hex' },
  { name: 'speedChess' },
  { name: 'reversi' },
];

/** One engine's part of `play --json`. */
interface Engine {
  readonly playoutsPerSecond: number;
  readonly playoutsPerCpuSecond: number;
  readonly statesPerSecond: number;
  readonly averageDepth: number;
  readonly groundingSeconds?: number;
}

/** `play --json`, or why there is none. */
type PlayRun = { readonly kind: 'ok'; readonly engines: { ground?: Engine; prolog?: Engine }; readonly factor: number | null } | { readonly kind: 'failed'; readonly why: string };

interface Options {
  readonly seconds: number;
  readonly timeout: number;
  readonly games: readonly string[];
  readonly ggpbase: string | undefined;
  readonly out: string | undefined;
  readonly ggplib: string | undefined;
  readonly sancho: string | undefined;
  /** A built checkout of another version of ours (its `dist/cli/main.js`), run beside ours in the side-by-side table. */
  readonly base: string | undefined;
}

/** The mode's flags, read with node's own parser (`--playouts` itself and unknown flags are ignored). */
function parse(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    strict: false,
    options: {
      seconds: { type: 'string' },
      timeout: { type: 'string' },
      games: { type: 'string' },
      ggpbase: { type: 'string' },
      out: { type: 'string' },
      ggplib: { type: 'string' },
      sancho: { type: 'string' },
      base: { type: 'string' },
    },
  });
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const positive = (v: unknown, name: string, fallback: number): number => {
    const n = Number(text(v) ?? fallback);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} needs a positive number`);
    return n;
  };
  return {
    seconds: positive(values.seconds, 'seconds', 10),
    timeout: positive(values.timeout, 'timeout', 120),
    games: (text(values.games) ?? '').split(',').filter((g) => g !== ''),
    ggpbase: text(values.ggpbase),
    out: text(values.out),
    ggplib: text(values.ggplib),
    sancho: text(values.sancho),
    base: text(values.base),
  };
}

/** Runs `play` on one game in its own process, killed after the grounding limit and both engines' time. */
async function runPlay(path: string, o: Options, lazy = false, engine: 'both' | 'ground' = 'both', cli = CLI): Promise<PlayRun> {
  const args = [cli, 'play', path, '--engine', engine, '--seconds', String(o.seconds), '--timeout', String(o.timeout), '--json'];
  if (lazy) args.push('--lazy-axioms');
  const e = await runChild({ args, stdout: 'keep', killAfterMs: (o.timeout + 2 * o.seconds + 60) * 1000 });
  try {
    const json = JSON.parse(e.stdout.trim().split('\n').pop() ?? '') as { engines: { ground?: Engine; prolog?: Engine }; factor: number | null };
    return { kind: 'ok', engines: json.engines, factor: json.factor };
  } catch {
    return { kind: 'failed', why: failureText(e) };
  }
}

/** Playouts/s per game and GGP-Base machine (`propnet`, `prover`) from bench.sh's TSV (`game machine status dc_per_s ...`), or the status when not ok. */
function readGgpBase(file: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (file === undefined) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [game, machine, status, dc] = line.split('\t');
    if ((machine === 'propnet' || machine === 'prover') && game !== undefined) out.set(`${game} ${machine}`, status === 'ok' ? String(dc) : String(status));
  }
  return out;
}

const fixed = (x: number | undefined, digits: number): string => (x === undefined ? '–' : x.toFixed(digits));

/** Our playouts/s over GGP-Base's, when it has a number. */
function ratio(g: Engine | undefined, theirs: string | undefined): string {
  const dc = theirs === undefined ? NaN : Number(theirs);
  return g !== undefined && Number.isFinite(dc) && dc > 0 ? (g.playoutsPerSecond / dc).toFixed(2) : '–';
}

function row(name: string, slide: number | undefined, run: PlayRun, ggp: Map<string, string>): string {
  const propnet = ggp.get(`${name} propnet`);
  const prover = ggp.get(`${name} prover`);
  if (run.kind === 'failed') return `| ${name} | ${run.why.replace(/\|/g, '/')} | | | | | | | | ${fixed(slide, 2)} | ${propnet ?? '–'} | | ${prover ?? '–'} |`;
  const { ground: g, prolog: p } = run.engines;
  const cells = [
    name, fixed(g?.groundingSeconds, 2), fixed(g?.playoutsPerSecond, 0), fixed(g?.playoutsPerCpuSecond, 0), fixed(g?.statesPerSecond, 0), fixed(g?.averageDepth, 1),
    fixed(p?.playoutsPerSecond, 2), fixed(p?.statesPerSecond, 1), run.factor === null ? '–' : run.factor.toFixed(1), fixed(slide, 2),
    propnet ?? '–', ratio(g, propnet), prover ?? '–',
  ];
  return `| ${cells.join(' | ')} |`;
}

/** Ours, each reference engine, ours again, on one game: one row of the side-by-side table; with `--base`, the base's runs after each of ours. */
async function sideBySideRow(name: string, path: string, o: Options, refs: readonly Reference[], lazy: boolean): Promise<string> {
  const load = loadAverage();
  const ours: Engine[] = [];
  const base: Engine[] = [];
  const runOurs = async (): Promise<void> => {
    for (const [cli, into] of o.base === undefined ? [[CLI, ours] as const] : [[CLI, ours] as const, [join(o.base, 'dist', 'cli', 'main.js'), base] as const]) {
      const run = await runPlay(path, o, lazy, 'ground', cli);
      if (run.kind === 'ok' && run.engines.ground !== undefined) into.push(run.engines.ground);
    }
  };
  await runOurs();
  const theirs = new Map<string, ReferenceRun>();
  for (const ref of refs) theirs.set(ref.name, await runReference(ref, path, o.seconds, o.timeout));
  await runOurs();
  const rates = (runs: readonly Engine[]): number[] => runs.map((e) => e.playoutsPerSecond);
  const both = (runs: readonly Engine[], f: (e: Engine) => number): string => (runs.length === 0 ? 'failed' : runs.map((e) => f(e).toFixed(0)).join(', '));
  const cells = [name, load === undefined ? '–' : load.toFixed(2), both(ours, (e) => e.playoutsPerSecond)];
  if (o.base !== undefined) {
    const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    const cpu = (runs: readonly Engine[]): number => mean(runs.map((e) => e.playoutsPerCpuSecond));
    cells.push(both(ours, (e) => e.playoutsPerCpuSecond), both(base, (e) => e.playoutsPerSecond), both(base, (e) => e.playoutsPerCpuSecond),
      ours.length === 0 || base.length === 0 ? '–' : (cpu(ours) / cpu(base)).toFixed(2));
  }
  for (const ref of refs) cells.push(referenceCell(theirs.get(ref.name)), referenceRatio(rates(ours), theirs.get(ref.name)));
  return `| ${cells.join(' | ')} |`;
}

/** The side-by-side table with the built reference engines; returns its lines. */
async function runSideBySide(o: Options, refs: readonly Reference[], chosen: readonly { name: string; lazy?: boolean; path?: string }[], root: string): Promise<string[]> {
  const baseHeads = o.base === undefined ? [] : ['ours playouts/CPU s', 'base playouts/s (two runs)', 'base playouts/CPU s', 'ours / base, per CPU s'];
  const heads = [...baseHeads, ...refs.flatMap((r) => [`${r.name} playouts/s`, `ours / ${r.name}`])];
  const lines = [
    `Random playouts per second, side by side: ours (\`play --engine ground\`)${o.base === undefined ? '' : ` and the base (${o.base})`}, then ${refs.map((r) => r.name).join(', ')}, then ours${o.base === undefined ? '' : ' and the base'} again, ${o.seconds} s each (the references after their 2 s warm-up); load = 1-minute load average before the game.`,
    '',
    `| game | load | ours playouts/s (two runs) | ${heads.join(' | ')} |`,
    `|---|---:|---:|${heads.map(() => '---:').join('|')}|`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await runAll(chosen, 1, async (game) => {
    const line = await sideBySideRow(game.name, game.path ?? join(root, `${game.name}.kif`), o, refs, game.lazy === true);
    lines.push(line);
    process.stdout.write(`${line}\n`);
    return line;
  });
  return lines;
}

/** Runs the playout benchmark; returns the exit code. */
export async function runPlayoutBench(argv: readonly string[]): Promise<number> {
  const o = parse(argv);
  const root = join(gamesDir(), 'ggp-repository-base');
  const refs = builtReferences({ ggplib: o.ggplib, sancho: o.sancho });
  if (refs.length > 0) {
    const chosen = PLAYOUT_GAMES.filter((g) => (o.games.length === 0 || o.games.includes(g.name)) && existsSync(join(root, `${g.name}.kif`)));
    // A name in --games that is no game of the list above (a held-out game): NAME.kif in any folder of the corpus, named folder/NAME.
    const others = o.games.filter((n) => !chosen.some((g) => g.name === n)).flatMap((n) => listGames(gamesDir(), { filter: [n] }).filter((f) => f.endsWith(`/${n}.kif`)));
    const lines = await runSideBySide(o, refs, [...chosen, ...others.map((f) => ({ name: f.slice(0, -4), path: join(gamesDir(), f) }))], root);
    if (o.out !== undefined) writeFileSync(o.out, `${lines.join('\n')}\n`);
    return 0;
  }
  const ggp = readGgpBase(o.ggpbase);
  const lines = [
    `Depth charges from the initial state, ${o.seconds} s per engine and game; factor = states/s ground / prolog.`,
    '',
    '| game | grounding s | ground playouts/s | ground playouts/CPU s | ground states/s | depth | prolog playouts/s | prolog states/s | factor | slide factor | GGP-Base propnet playouts/s | ground / propnet | GGP-Base prover playouts/s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const chosen = PLAYOUT_GAMES.filter((g) => (o.games.length === 0 || o.games.includes(g.name)) && existsSync(join(root, `${g.name}.kif`)));
  // One game at a time: playouts per second are what is measured.
  await runAll(chosen, 1, async (game) => {
    const line = row(game.name, game.slide, await runPlay(join(root, `${game.name}.kif`), o, game.lazy), ggp);
    lines.push(line);
    process.stdout.write(`${line}\n`);
    return line;
  });
  if (o.out !== undefined) writeFileSync(o.out, `${lines.join('\n')}\n`);
  return 0;
}
