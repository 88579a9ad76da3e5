/**
 * The one options parser of the command line: every command registers its limits here and
 * turns commander's strings into the pipeline's settings here, so that a flag means the same
 * thing, takes the same kind of number and has the same default in every command. Counts are
 * checked as whole numbers; only seconds may be fractional.
 */
import type { Command } from 'commander';
import { defaultPipelineOptions, type PipelineOptions, type PipelineSettings, type ReachMethod, resolvePipelineOptions } from '../pipeline/stages.js';
import { defaultMaxMemoryMb, fullCollection, processStartedAt } from '../runtime.js';
import { UsageError } from './io.js';

/** The limit flags as commander parses them (all strings, all optional). */
export interface LimitFlags {
  readonly timeout?: string;
  readonly maxAtoms?: string;
  readonly maxGroundAtoms?: string;
  readonly maxRules?: string;
  readonly maxMemory?: string;
  readonly maxDisjuncts?: string;
  readonly maxTermDepth?: string;
  readonly splitAbove?: string;
  readonly frameAbove?: string;
  /** `--lazy-axioms` (commands that ground). */
  readonly lazyAxioms?: boolean;
}

/** Which limits a command takes: the superset computation's, and instantiation's too. */
type LimitSet = 'reach' | 'ground';

/** A positive number of seconds (fractions allowed). */
export function parseSeconds(value: string, option: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${option} needs a positive number, not '${value}'`);
  return n;
}

/** A whole number written in decimal digits; above 0 unless `allowZero`. */
export function parseWhole(value: string, option: string, allowZero = false): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || (!allowZero && n === 0)) {
    throw new UsageError(`${option} needs a whole number${allowZero ? '' : ' above 0'}, not '${value}'`);
  }
  return n;
}

/** One of `choices`, or a usage error naming them. */
export function parseChoice<T extends string>(value: string, option: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  const list = choices.map((c) => `'${c}'`);
  throw new UsageError(`${option} must be ${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}, not '${value}'`);
}

/** The superset method of `--method`. */
export function parseMethod(value: string): ReachMethod {
  return parseChoice(value, '--method', ['prolog', 'prolog-plain', 'dg'] as const);
}

/** Registers `--method` with the Prolog method as default. */
export function addMethodOption(command: Command): Command {
  return command.option('--method <method>', 'supersets by prolog (Algorithm 9.2, optimized), prolog-plain (Algorithm 9.2 as the thesis writes it, prolog/alg92.pl) or dg (argument dependency graph)', 'prolog');
}

/**
 * Registers `--timeout`, `--max-memory` (unless `memory` is false: `batch` gives it its own
 * meaning, per worker) and the atom and rule limits of `set`, with their defaults in the help.
 */
export function addLimitOptions(command: Command, set: LimitSet, memory = true): Command {
  const d = defaultPipelineOptions();
  command
    .option('--timeout <seconds>', 'stop with exit 3 after this many seconds')
    .option('--max-atoms <n>', `stop with exit 3 when the superset computation derives more atoms (default ${d.maxReachAtoms})`);
  if (memory) addMemoryOption(command);
  addTermDepthOption(addSizeOptions(command));
  if (set === 'ground') {
    command
      .option('--max-ground-atoms <n>', `stop with exit 3 when instantiation derives more ground atoms (default ${d.maxGroundAtoms})`)
      .option('--max-rules <n>', `stop with exit 3 beyond this many ground rules (default ${d.maxGroundRules})`);
  }
  return command;
}

/**
 * Registers the limits of loading a game, which every command does: `--timeout` and
 * `--max-disjuncts` (`check` takes these, `--max-memory` and `--max-term-depth`; the other
 * commands take them through {@link addLimitOptions}).
 */
export function addLoadOptions(command: Command): Command {
  return addSizeOptions(command.option('--timeout <seconds>', 'stop with exit 3 after this many seconds'));
}

/** Registers `--max-disjuncts`: the size of one rule in disjunctive normal form. */
function addSizeOptions(command: Command): Command {
  const d = defaultPipelineOptions();
  return command.option('--max-disjuncts <n>', `stop with exit 3 when one rule's body splits into more rules in disjunctive normal form (default ${d.normalize.maxDisjuncts})`);
}

/** Registers `--max-term-depth`: terms nested deeper stop the run with exit 3. */
export function addTermDepthOption(command: Command): Command {
  return command.option('--max-term-depth <n>', `stop with exit 3 on terms nested deeper than this in the rules or the supersets (default ${defaultPipelineOptions().maxTermDepth})`);
}

/** Registers `--lazy-axioms` (docs/lazy.md), for the commands that ground and play or write the result. */
export function addLazyOption(command: Command): Command {
  return command.option('--lazy-axioms', 'leave relations (or keyword rules) whose grounding passes a limit non-ground, evaluated per state (docs/lazy.md)');
}

/**
 * Registers `--split-above` (rule splitting) and `--frame-above` (frame rules; both docs/ground.md)
 * on the commands that ground and
 * keep the result: ground and verify; and on compare, where both methods must agree at any threshold.
 */
export function addSplitOption(command: Command): Command {
  return command.option('--split-above <n>', 'split rules whose join is estimated above this many bindings into auxiliary rules, when that pays (default 4000000); projections alone from a 40th of it, when they make 16 times fewer')
    .option('--frame-above <n>', 'rewrite frame rules whose join is estimated above this many bindings with move mutexes, when that pays (default 10000)');
}

/**
 * Registers `--max-memory`: megabytes of V8 heap the run may use before it stops with exit 3.
 * It bounds the JavaScript heap, not the process: buffers, code and the runtime come on top
 * (a run limited to 200 MB was measured at 268 MB resident). The default is a share of the
 * machine's physical memory (src/runtime.ts); the command runs in a thread whose V8 heap is
 * sized above the limit (src/cli/thread.ts).
 */
export function addMemoryOption(command: Command): Command {
  return command.option('--max-memory <mb>', `stop with exit 3 when the V8 heap (not the whole process) passes this many MB (default ${defaultMaxMemoryMb()}, half the machine's memory)`);
}

/** The settings the limit flags ask for (absent flags are left to the pipeline's defaults). */
export function limitSettings(flags: LimitFlags): PipelineSettings {
  const whole = (v: string | undefined, option: string): number | undefined => (v === undefined ? undefined : parseWhole(v, option));
  return {
    ...(flags.timeout === undefined ? {} : { timeoutSeconds: parseSeconds(flags.timeout, '--timeout') }),
    ...defined('maxReachAtoms', whole(flags.maxAtoms, '--max-atoms')),
    ...defined('maxGroundAtoms', whole(flags.maxGroundAtoms, '--max-ground-atoms')),
    ...defined('maxGroundRules', whole(flags.maxRules, '--max-rules')),
    ...defined('maxDisjuncts', whole(flags.maxDisjuncts, '--max-disjuncts')),
    ...defined('maxTermDepth', whole(flags.maxTermDepth, '--max-term-depth')),
    ...defined('splitAbove', whole(flags.splitAbove, '--split-above')),
    ...defined('frameAbove', whole(flags.frameAbove, '--frame-above')),
    maxMemoryMb: whole(flags.maxMemory, '--max-memory') ?? defaultMaxMemoryMb(),
    ...(flags.lazyAxioms === true ? { lazyAxioms: true } : {}),
  };
}

function defined<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

/**
 * The options of one run from the flags: checked, then resolved once, the deadline counted
 * from the start of the process (`--timeout` bounds the whole command). In the command thread
 * the lazy rounds get a full collection between rounds (`reclaim`, src/runtime.ts).
 */
export function resolveFlags(flags: LimitFlags & { readonly method?: string }): PipelineOptions {
  const method = flags.method === undefined ? undefined : parseMethod(flags.method);
  const reclaim = fullCollection();
  return resolvePipelineOptions({
    ...limitSettings(flags),
    ...(method === undefined ? {} : { method }),
    ...(reclaim === undefined ? {} : { reclaim }),
    startedAt: processStartedAt(),
  });
}
