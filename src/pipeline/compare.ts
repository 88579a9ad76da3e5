/**
 * The comparison of section 9.1.2: the superset methods on one game (the optimized Prolog
 * method, the dependency graph and, when asked, Algorithm 9.2 as the thesis writes it), each followed by
 * instantiation and ground reachability, with the time of every step, the superset sizes
 * before post-processing, and whether the final supersets and ground games are identical.
 * It stands above the pipeline and runs the stages only through the pipeline's entry functions.
 */
import { GdlError } from '../gdl/diagnostics.js';
import { atomToString, termToString } from '../gdl/terms.js';
import { atomText } from '../ground/atoms.js';
import {
  type GroundGame, type NormalGame, type PipelineSettings, type Supersets, type SupersetSizes,
  analyzeDependencyGraph, groundGame, reachGame, readBackSupersets, resolvePipelineOptions,
} from './stages.js';
import { StageTimer } from '../timer.js';
import type { ReachMethod } from './options.js';

/** How a method's run ended. */
type RunStatus = 'ok' | 'limit' | 'invalid' | 'error';

/** One method's run on one game. */
export interface MethodRun {
  readonly method: ReachMethod;
  readonly status: RunStatus;
  /** The first line of the failure, when `status` is not ok. */
  readonly message: string;
  /** Milliseconds per step (reach, instantiate, prune), in order, for the steps that ran. */
  readonly times: readonly { readonly step: string; readonly ms: number }[];
  /** Processor seconds of the whole run, every thread of the process (less noisy than `times` on a busy machine). */
  readonly cpuSeconds: number;
  /** Superset sizes before post-processing: the products of Algorithm 9.3 for dg, exact for prolog. */
  readonly before?: SupersetSizes;
  /** Recursive components the dg method computed upward (products beyond the atom budget). */
  readonly upward?: number;
  /** Sizes handed to instantiation (after reduceSupersetsDG for dg). */
  readonly reduced?: SupersetSizes;
  /** The supersets the method computed (given to instantiation). */
  readonly reach?: Supersets;
  /** The final supersets (after ground reachability) and the ground game. */
  readonly supersets?: Supersets;
  readonly ground?: GroundGame;
}

/** The runs and their verdict. */
export interface Comparison {
  readonly prolog: MethodRun;
  readonly dg: MethodRun;
  /**
   * Algorithm 9.2 as the thesis writes it (`prolog-plain`), when asked for. It is held to the
   * optimized method's results when it finishes; when it stops on a limit, the verdict is the
   * other two's (the plain method is expected to give up on larger games).
   */
  readonly plain?: MethodRun;
  /** True when prolog and dg ran and agree (and plain, if it finished), false when some differ, undefined otherwise. */
  readonly identical: boolean | undefined;
  /** Human-readable differences (at most a few per kind). */
  readonly differences: readonly string[];
  /**
   * Where the final supersets are smaller than the Prolog method's relaxed model: ground
   * reachability also sees static negative literals, which instantiation evaluates exactly.
   */
  readonly notes: readonly string[];
}

/**
 * Settings of a comparison: those of the pipeline but the method. Each method gets the whole
 * budget for itself: its own deadline, resolved when its run starts.
 */
export type CompareSettings = Omit<PipelineSettings, 'method'>;

/** Seconds the plain method (Algorithm 9.2 as written) gets in `compare` when no --timeout is given. */
const PLAIN_DEFAULT_SECONDS = 30;

const sizesOf = (s: Supersets): SupersetSizes => ({ fluents: s.fluents.length, moves: s.moves.length, axioms: s.axioms.length });

function failure(err: unknown): { status: RunStatus; message: string } {
  const message = ((err as Error)?.message ?? String(err)).split('\n')[0]!;
  if (err instanceof GdlError) return { status: err.code === 'limit' ? 'limit' : 'invalid', message };
  return { status: 'error', message };
}

/** The steps the timer recorded, the superset computation under one name for both methods. */
function stepTimes(timer: StageTimer): { step: string; ms: number }[] {
  return timer.list().map((r) => ({ step: r.stage.startsWith('reach-') ? 'reach' : r.stage, ms: r.ms }));
}

/** Runs one method through reach, instantiate and prune, recording times and sizes. */
function runMethod(game: NormalGame, method: ReachMethod, settings: CompareSettings): MethodRun {
  const options = resolvePipelineOptions({ ...settings, method });
  const timer = new StageTimer();
  // Node counts the process's CPU time; a browser has no such count, and the wall clock stands in.
  const cpuNow = (): number => {
    if (typeof process === 'undefined') return performance.now() / 1000;
    const used = process.cpuUsage();
    return (used.user + used.system) / 1e6;
  };
  const cpuStart = cpuNow();
  const cpuSeconds = (): number => cpuNow() - cpuStart;
  let before: SupersetSizes | undefined;
  let reduced: SupersetSizes | undefined;
  let upward: number | undefined;
  try {
    let supersets: Supersets;
    if (method !== 'dg') {
      supersets = reachGame(game, options, timer).supersets;
      before = sizesOf(supersets);
    } else {
      const a = analyzeDependencyGraph(game, options, timer);
      supersets = a.supersets;
      before = a.productSizes;
      upward = a.upwardComponents;
    }
    reduced = sizesOf(supersets);
    const ground = groundGame(game, supersets, options, timer);
    const final = readBackSupersets(game, supersets, ground, options);
    return { method, status: 'ok', message: '', times: stepTimes(timer), cpuSeconds: cpuSeconds(), before, upward, reduced, reach: supersets, supersets: final, ground };
  } catch (err) {
    return { method, times: stepTimes(timer), cpuSeconds: cpuSeconds(), before, upward, reduced, ...failure(err) };
  }
}

/** The names of the two runs a difference is about, for messages. */
interface Names {
  readonly a: string;
  readonly b: string;
}

const PROLOG_DG: Names = { a: 'prolog', b: 'dg' };

function diffLists(kind: string, a: readonly string[], b: readonly string[], out: string[], names: Names = PROLOG_DG): void {
  const sa = new Set(a);
  const sb = new Set(b);
  const onlyA = a.filter((x) => !sb.has(x));
  const onlyB = b.filter((x) => !sa.has(x));
  if (onlyA.length > 0) out.push(`${kind}: ${onlyA.length} only with ${names.a}, e.g. ${onlyA.slice(0, 3).join(', ')}`);
  if (onlyB.length > 0) out.push(`${kind}: ${onlyB.length} only with ${names.b}, e.g. ${onlyB.slice(0, 3).join(', ')}`);
  if (onlyA.length === 0 && onlyB.length === 0 && a.join('\n') !== b.join('\n')) out.push(`${kind}: same elements in a different order`);
}

/** Text of every rule of a ground game, so that games over different atom tables compare. */
function ruleTexts(g: GroundGame): string[] {
  const t = (id: number): string => atomText(g, id);
  return g.rules.map((r) => [t(r.head), ...r.pos.map(t), ...r.neg.map((n) => `(not ${t(n)})`)].join(' '));
}

function diffSupersets(what: string, sa: Supersets, sb: Supersets, out: string[], names: Names = PROLOG_DG): void {
  const move = (m: Supersets['moves'][number]): string => `(does ${termToString(m.role)} ${termToString(m.action)})`;
  diffLists(`${what}fluents`, sa.fluents.map(termToString), sb.fluents.map(termToString), out, names);
  diffLists(`${what}moves`, sa.moves.map(move), sb.moves.map(move), out, names);
  diffLists(`${what}axioms`, sa.axioms.map(atomToString), sb.axioms.map(atomToString), out, names);
}

/**
 * Differences between run `a` and run `b` after post-processing (final supersets and ground
 * games); empty when they are identical.
 */
function diffResults(a: MethodRun, b: MethodRun, names: Names = PROLOG_DG): string[] {
  const out: string[] = [];
  diffSupersets('final ', a.supersets!, b.supersets!, out, names);
  const ga = a.ground!;
  const gb = b.ground!;
  diffLists('roles', ga.roles.map((r) => ga.terms.text(r)), gb.roles.map((r) => gb.terms.text(r)), out, names);
  diffLists('ground atoms', ga.atoms.map((_, i) => atomText(ga, i)), gb.atoms.map((_, i) => atomText(gb, i)), out, names);
  diffLists('init', ga.init.map((i) => atomText(ga, i)), gb.init.map((i) => atomText(gb, i)), out, names);
  diffLists('ground rules', ruleTexts(ga), ruleTexts(gb), out, names);
  return out;
}

/** What the plain method's finished run differs in from the optimized one (relaxed models included). */
function diffPlain(plain: MethodRun | undefined, prolog: MethodRun): string[] {
  if (plain?.status !== 'ok' || prolog.status !== 'ok') return [];
  const names = { a: 'prolog-plain', b: 'prolog' };
  const out: string[] = [];
  diffSupersets('relaxed-model ', plain.reach!, prolog.reach!, out, names);
  return [...out, ...diffResults(plain, prolog, names)];
}

/**
 * Runs the methods on a normalized game and compares their final results: prolog and dg, and
 * with `withPlain` also Algorithm 9.2 as the thesis writes it (run first, each method with
 * its own budget).
 */
export function compareMethods(game: NormalGame, settings: CompareSettings, withPlain = false): Comparison {
  // Without --timeout the plain method gets a budget of its own: on large games it runs for
  // hours (it is the baseline, not the method), and compare must still give its verdict.
  const plainSettings = (settings.timeoutSeconds ?? Infinity) === Infinity ? { ...settings, timeoutSeconds: PLAIN_DEFAULT_SECONDS } : settings;
  const plain = withPlain ? { plain: runMethod(game, 'prolog-plain', plainSettings) } : {};
  const prolog = runMethod(game, 'prolog', settings);
  const dg = runMethod(game, 'dg', settings);
  if (prolog.status !== 'ok' || dg.status !== 'ok') return { prolog, dg, ...plain, identical: undefined, differences: [], notes: [] };
  const differences = [...diffResults(prolog, dg), ...diffPlain(plain.plain, prolog)];
  const notes: string[] = [];
  diffSupersets('relaxed-model ', prolog.reach!, prolog.supersets!, notes);
  return { prolog, dg, ...plain, identical: differences.length === 0, differences, notes: notes.map((n) => n.replace('only with dg', 'only in the final supersets').replace('only with prolog', 'only in the relaxed model')) };
}
