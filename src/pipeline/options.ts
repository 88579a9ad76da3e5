/**
 * The options of a pipeline run: what a caller may set ({@link PipelineSettings}), resolved
 * once into {@link PipelineOptions} (deadline included) and handed to every stage, and the
 * stages' limits derived from them. Kept apart from src/pipeline/stages.ts, which re-exports it, so
 * that the orchestrator reads as the order of the stages.
 */
import { type AbortFlag, Deadline } from '../deadline.js';
import { DEFAULT_INSTANTIATE_LIMITS, type InstantiateLimits } from '../ground/instantiate.js';
import { DEFAULT_NORMALIZE_OPTIONS, type NormalizeOptions } from '../normalize/normalize.js';
import { DEFAULT_MAX_TERM_DEPTH } from '../reach/prolog.js';
import { DEFAULT_REACH_LIMITS, type ReachLimits } from '../reach/types.js';
import type { Optimization } from '../reach/ablation.js';

/**
 * How supersets are computed: Algorithm 9.2 optimized (Prolog), Algorithm 9.2 as the thesis
 * writes it (prolog/alg92.pl, prolog-plain) or 9.3/9.4 (dependency graph).
 */
export type ReachMethod = 'prolog' | 'prolog-plain' | 'dg';

/**
 * Options of a pipeline run, resolved once (by {@link resolvePipelineOptions}) and handed to
 * every stage. The two atom limits count different things and are set separately.
 */
export interface PipelineOptions {
  readonly method: ReachMethod;
  /** The one deadline of the run, fixed when the options are resolved. */
  readonly deadline: Deadline;
  readonly normalize: NormalizeOptions;
  /**
   * Largest number of atoms the superset computation may derive: the relaxed model's atoms
   * (prolog), or the static atoms and reduced supersets (dg). CLI flag `--max-atoms`.
   */
  readonly maxReachAtoms: number;
  /** Largest number of ground atoms instantiation may derive. CLI flag `--max-ground-atoms`. */
  readonly maxGroundAtoms: number;
  /** Largest number of ground rules instantiation may produce. CLI flag `--max-rules`. */
  readonly maxGroundRules: number;
  /**
   * Deepest term nesting the superset computation (both methods) and the repair of unsafe
   * heads accept; deeper means the relaxed game is infinite. CLI flag `--max-term-depth`.
   */
  readonly maxTermDepth: number;
  /** Rules estimated above this many bindings are split (docs/ground.md); absent: the default. CLI flag `--split-above`. */
  readonly splitAbove?: number;
  /** Frame rules estimated above this many bindings are rewritten with move mutexes (docs/ground.md); absent: the default. CLI flag `--frame-above`. */
  readonly frameAbove?: number;
  /**
   * Lazy axioms (docs/lazy.md): relations named by a limit are left non-ground and grounding
   * is tried again. CLI flag `--lazy-axioms`. Absent: off.
   */
  readonly lazyAxioms?: boolean;
  /** Relations made lazy from the start (tests and the library; implies lazy axioms). */
  readonly lazyRelations?: readonly string[];
  /**
   * Optimizations of the `prolog` method's `reach` switched off, to measure each one's share
   * (src/reach/ablation.ts, `npm run bench -- --reach-ablation`); the supersets stay the same.
   * No CLI flag. Absent: all on.
   */
  readonly reachOff?: readonly Optimization[];
  /**
   * Called between two lazy rounds, when the stopped round's data (its superset stage's tables
   * and stores, or its instantiation's) has become garbage: the command line passes a full
   * garbage collection, so that the next round does not fill the heap on top of that garbage
   * before V8 collects it (the peak of held-out GERMANY, docs/corpus.md, chess25). No CLI flag;
   * the library never collects by itself. Absent: nothing is called.
   */
  readonly reclaim?: () => void;
}

/** What a caller may set; everything left out takes its default. */
export interface PipelineSettings {
  readonly method?: ReachMethod;
  /** Seconds the whole run may take (Infinity, the default, for no limit). */
  readonly timeoutSeconds?: number;
  /** Megabytes of V8 heap the run may use, checked with the deadline (Infinity, the default, for no limit). */
  readonly maxMemoryMb?: number;
  /**
   * When the run started, in ms since the epoch (default: when the options are resolved). The
   * command line gives the process's start, so that `--timeout` bounds the whole process,
   * Node's start-up and module loading included (a second or more on a loaded machine).
   */
  readonly startedAt?: number;
  readonly maxReachAtoms?: number;
  readonly maxGroundAtoms?: number;
  readonly maxGroundRules?: number;
  readonly maxTermDepth?: number;
  /** Largest number of rules one rule's body may split into in DNF (sets `normalize.maxDisjuncts`). CLI flag `--max-disjuncts`. */
  readonly maxDisjuncts?: number;
  readonly splitAbove?: number;
  readonly frameAbove?: number;
  readonly normalize?: NormalizeOptions;
  /** See {@link PipelineOptions.lazyAxioms}. */
  readonly lazyAxioms?: boolean;
  /** See {@link PipelineOptions.lazyRelations}. */
  readonly lazyRelations?: readonly string[];
  /** The library's callers: an abort signal the run's deadline reads with its clock (an abort is a limit reached). */
  readonly signal?: AbortFlag;
  /** See {@link PipelineOptions.reachOff}. */
  readonly reachOff?: readonly Optimization[];
  /** See {@link PipelineOptions.reclaim}. */
  readonly reclaim?: () => void;
}

/** The deadline `settings.timeoutSeconds` after `settings.startedAt` (default now). */
function runDeadline(settings: PipelineSettings): Deadline {
  const seconds = settings.timeoutSeconds ?? Infinity;
  const memory = settings.maxMemoryMb ?? Infinity;
  if (seconds === Infinity || settings.startedAt === undefined) return Deadline.in(seconds, memory, settings.signal);
  return new Deadline(settings.startedAt + seconds * 1000, memory * 1024 * 1024, settings.signal);
}

/** The normalizer's options: `settings.normalize` (or the defaults) with `maxDisjuncts` applied. */
function normalizeOptions(settings: PipelineSettings): NormalizeOptions {
  const base = settings.normalize ?? DEFAULT_NORMALIZE_OPTIONS;
  return settings.maxDisjuncts === undefined ? base : { ...base, maxDisjuncts: settings.maxDisjuncts };
}

/**
 * Resolves settings into the options of one run; the deadline is computed here, once, from
 * the time of the call.
 */
export function resolvePipelineOptions(settings: PipelineSettings = {}): PipelineOptions {
  return {
    method: settings.method ?? 'prolog',
    deadline: runDeadline(settings),
    normalize: normalizeOptions(settings),
    maxReachAtoms: settings.maxReachAtoms ?? DEFAULT_REACH_LIMITS.maxAtoms,
    maxGroundAtoms: settings.maxGroundAtoms ?? DEFAULT_INSTANTIATE_LIMITS.maxAtoms,
    maxGroundRules: settings.maxGroundRules ?? DEFAULT_INSTANTIATE_LIMITS.maxRules,
    maxTermDepth: settings.maxTermDepth ?? DEFAULT_MAX_TERM_DEPTH,
    ...(settings.splitAbove === undefined ? {} : { splitAbove: settings.splitAbove }),
    ...(settings.frameAbove === undefined ? {} : { frameAbove: settings.frameAbove }),
    ...(settings.lazyAxioms === true ? { lazyAxioms: true } : {}),
    ...(settings.lazyRelations === undefined ? {} : { lazyRelations: settings.lazyRelations }),
    ...(settings.reachOff === undefined || settings.reachOff.length === 0 ? {} : { reachOff: settings.reachOff }),
    ...(settings.reclaim === undefined ? {} : { reclaim: settings.reclaim }),
  };
}

/**
 * Defaults: the Prolog method, no deadline, default limits. Its deadline never passes, so
 * sharing it between runs shares no state that matters.
 */
/**
 * The default options, made anew at each call: options hold the run's `Deadline`, which counts
 * its ticks, so one shared object would be state kept between runs.
 */
export function defaultPipelineOptions(): PipelineOptions {
  return resolvePipelineOptions();
}

/** The superset computation's limits under `options`. */
export function reachLimits(options: PipelineOptions): ReachLimits {
  return { deadline: options.deadline, maxAtoms: options.maxReachAtoms, maxTermDepth: options.maxTermDepth };
}

/** Instantiation's limits under `options`. */
export function instantiateLimits(options: PipelineOptions): InstantiateLimits {
  const limits = { ...DEFAULT_INSTANTIATE_LIMITS, deadline: options.deadline, maxAtoms: options.maxGroundAtoms, maxRules: options.maxGroundRules };
  return {
    ...limits,
    ...(options.splitAbove === undefined ? {} : { splitAbove: options.splitAbove }),
    ...(options.frameAbove === undefined ? {} : { frameAbove: options.frameAbove }),
  };
}
