/**
 * `npm run bench -- --playouts [--seconds S] [--games A,B] [--timeout S] [--ggpbase FILE.tsv] [--out FILE.md]`:
 * the Monte-Carlo table of slide 4 (instantiation lecture): per game, `gdl-ground play
 * --engine both --json` in its own process, then one Markdown row with both engines, the
 * factor (states/s ground / prolog) beside the slide's, and the grounding time. With
 * `--ggpbase`, the TSV that GGP-Base's bench.sh printed (measured in the same session) adds
 * its propnet's playouts/s, our ratio to it, and its prover's playouts/s.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gamesDir } from '../../scripts/corpus.mjs';
import { failureText, runAll, runChild } from '../batch/runner.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '..', 'cli', 'main.js');

/**
 * The slide's games (its factor, Prolog against the instantiated game), then the others;
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
}

/** The mode's flags, read with node's own parser (`--playouts` itself and unknown flags are ignored). */
function parse(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    strict: false,
    options: { seconds: { type: 'string' }, timeout: { type: 'string' }, games: { type: 'string' }, ggpbase: { type: 'string' }, out: { type: 'string' } },
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
  };
}

/** Runs `play` on one game in its own process, killed after the grounding limit and both engines' time. */
async function runPlay(path: string, o: Options, lazy = false): Promise<PlayRun> {
  const args = [CLI, 'play', path, '--engine', 'both', '--seconds', String(o.seconds), '--timeout', String(o.timeout), '--json'];
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

/** Runs the playout benchmark; returns the exit code. */
export async function runPlayoutBench(argv: readonly string[]): Promise<number> {
  const o = parse(argv);
  const root = join(gamesDir(), 'ggp-repository-base');
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
