/**
 * The state of one instantiation run (src/ground/evaluate.ts runs the rules over it): the term
 * table, the stores and blocks of the relations, the ground rules made so far, the counters,
 * and the limits with the checks that refuse a rule early (its estimate) or stop it late (the
 * clock, the heap, the counts), each naming the rule and its relation.
 */
import { GdlError, type LimitInfo, deadlineLimit, formatEstimate, relationLimitError } from '../gdl/diagnostics.js';
import { SEES, isOutputKeyword } from '../gdl/keywords.js';
import type { Deadline } from '../deadline.js';
import type { Tick } from '../datalog/join.js';
import type { TermTable } from '../datalog/terms.js';
import type { IdSet } from '../datalog/id-bits.js';
import { type Block, type Store, createStore } from '../datalog/block.js';
import type { JoinRule } from './compile.js';
import type { BodyScratch } from './body-plan.js';
import { type RuleBuffer, truncateRules } from './rule-buffer.js';
import type { AxiomRows } from '../reach/handover.js';

/** Limits of instantiation, resolved with the run's options; exceeding one raises a GdlError 'limit'. */
export interface InstantiateLimits {
  /** The run's deadline (time and heap), looked at on every join step. */
  readonly deadline: Deadline;
  /** Largest number of ground rules. */
  readonly maxRules: number;
  /** Largest number of ground atoms derived (static facts and rule heads). */
  readonly maxAtoms: number;
  /** Largest total number of literals (heads and bodies) of the ground rules. */
  readonly maxLiterals: number;
  /**
   * Rules estimated above this many bindings are split before joining when that pays
   * (src/ground/split-run.ts; absent: DEFAULT_SPLIT_ABOVE there; Infinity: never).
   */
  readonly splitAbove?: number;
  /** Frame rules estimated above this many bindings are rewritten with move mutexes (src/ground/frame-run.ts). */
  readonly frameAbove?: number;
  /**
   * The run over the supersets read back from a pruned game (docs/ground.md, "One decision for
   * both methods"): frame rules whose head is not `(next F)` with `(true F)` in the body may be
   * rewritten too; a run over a method's own supersets leaves them as written (frame-run.ts).
   */
  readonly frameShared?: boolean;
  /**
   * In a run over a method's own supersets: frame rules whose head is `(next F)` may be
   * rewritten even without `(true F)` in the body, and each such rewrite is listed on the game
   * (`GroundGame.frame.early`), so that the supersets read back can be those of the rule as
   * written (frame-reach.ts): the run over them is then needed only when they are fewer.
   */
  readonly frameNext?: boolean;
  /**
   * Auxiliary relations of splits instantiated only for what their head rule can read
   * (aux-demand.ts): for callers that remove unused instances next, whose game is then the same.
   */
  readonly auxDemand?: boolean;
}

/**
 * Defaults besides the deadline, which every run brings (its run context's): five million rules,
 * atoms and forty million literals, about 2 GB of memory at most, within Node's default heap.
 */
export const DEFAULT_INSTANTIATE_LIMITS: Omit<InstantiateLimits, 'deadline'> = {
  maxRules: 5_000_000, maxAtoms: 5_000_000, maxLiterals: 40_000_000,
};


/** Which heads of an auxiliary relation make ground rules (aux-demand.ts). */
export interface HeadTest {
  has(id: number): boolean;
}

/** The demand on one auxiliary relation of a split (aux-demand.ts). */
export type AuxDemand =
  /** From the reader's head filter: the aux atoms (term ids) its reader can read. */
  | {
    readonly kind: 'filter';
    readonly ids: IdSet;
    /** The reader's head and aux atom with variables numbered: equal readers demand equal sets. */
    readonly reader: string;
  }
  /** From a join-tree step's rest: each head tested against the complete atoms beside it. */
  | { readonly kind: 'rest'; readonly ids: HeadTest };

/** The mutable state of one instantiation run (never shared between runs). */
export interface Context {
  readonly file: string;
  readonly table: TermTable;
  readonly limits: InstantiateLimits;
  readonly stores: Map<string, Store>;
  readonly blocks: Map<string, Block>;
  /** Relations evaluated exactly and removed from rule bodies (frame-run.ts adds the domains it makes). */
  readonly statics: Set<string>;
  /** For relations covered by the supersets: the atom ids a head may take. */
  readonly headFilter: ReadonlyMap<string, IdSet>;
  /**
   * Demanded static relations (`Supersets.demandedStatics`): their filter as a store, which
   * each of their rules joins as one more atom (the head), so that the join enumerates only
   * bindings with a wanted head instead of the whole relation.
   */
  readonly headSeeds?: ReadonlyMap<string, Store>;
  /**
   * Static relations whose facts the superset stage derived exactly (handed-statics.ts), by
   * key, as its rows of term ids: taken where the relation would be evaluated whole. Absent: none.
   */
  readonly handed?: ReadonlyMap<string, readonly AxiomRows[]>;
  /** The ground rules made so far, compactly (rule-buffer.ts). */
  readonly rules: RuleBuffer;
  /** Where the bodies of one binding's ground rule are made (grown as rules need). */
  readonly scratch: BodyScratch;
  /**
   * Ground rules counted as made without being made (`dropped`: instances of an auxiliary
   * relation no reader asks for, aux-demand.ts), beside the atoms and literals made.
   */
  readonly counters: { atoms: number; literals: number; dropped: number };
  /** The demands on auxiliary relations (aux-demand.ts); absent: none applied. */
  readonly auxDemand?: Map<string, AuxDemand>;
  /** Relation names used with several arities, whose stores are keyed by name/arity. */
  readonly several: ReadonlySet<string>;
  /** Lazy relations (docs/lazy.md): negated, their atoms stay in the rule, opaque. */
  readonly lazy?: ReadonlySet<string>;
  /** The head relations of every component run so far (distinct-rules.ts: rules made before may repeat). */
  readonly ruleHeads: Set<string>;
}

/** The store key of a ground atom (relationKey of its relation: name, or name/arity). */
export function keyOfId(ctx: Context, id: number): string {
  const name = ctx.table.name(id);
  return ctx.several.has(name) ? `${name}/${ctx.table.arity(id)}` : name;
}

/** The store of a relation, created empty on first use. */
export function storeOf(ctx: Context, rel: string): Store {
  let s = ctx.stores.get(rel);
  if (s === undefined) {
    s = createStore(rel);
    // A filtered relation's atoms are among its superset's: room for them at once, not doubled to it.
    const filter = ctx.headFilter.get(rel);
    if (filter !== undefined) s.ids.reserve(filter.size);
    ctx.stores.set(rel, s);
  }
  return s;
}

/** What a limit error names: the rule's source and its head's relation. */
export type Where = Pick<JoinRule, 'source'> & { readonly head: { readonly rel: string } };

export function limitError(ctx: Context, rule: Where, what: string, limit: LimitInfo): GdlError {
  return relationLimitError(ctx.file, rule.source.pos, rule.head.rel, `instantiating this rule for '${rule.head.rel}' ${what}`, limit);
}

/**
 * How far the estimate of a rule may exceed what is left of its budget before the rule is refused
 * unenumerated: the estimate ignores tests and head filters, so only a clear excess is trusted.
 * On the corpus games that ground, the worst overestimate seen was 416 times (pancakes88's
 * `base` rule, 8^8 rows cut to 8! by its distincts), for a rule far below this threshold. A
 * component's first round, summed (component-estimate.ts), is held to the same margin, and its
 * plain rules (no test, no head filter) to a smaller one.
 */
export const ESTIMATE_MARGIN = 20;

/**
 * Refuses a rule before its join starts when the join's own estimate of what it would produce
 * (ground rules, or atoms for a static rule) exceeds the rest of the budget by {@link ESTIMATE_MARGIN}:
 * a precise, early refusal naming the relation and the estimate instead of a slow one.
 */
export function checkEstimate(ctx: Context, rule: JoinRule, estimate: number, isStatic: boolean): void {
  const { maxRules, maxAtoms } = ctx.limits;
  const left = isStatic ? maxAtoms - ctx.counters.atoms : maxRules - rulesMade(ctx);
  if (estimate <= ESTIMATE_MARGIN * Math.max(left, 1)) return;
  const what = isStatic ? `ground atoms (limit ${maxAtoms})` : `ground rules (limit ${maxRules})`;
  const rel = `${rule.head.rel}/${rule.source.head.args.length}`;
  throw relationLimitError(ctx.file, rule.source.pos, rule.head.rel,
    `instantiating this rule for '${rel}' would make about ${formatEstimate(estimate)} ${what}, estimated before enumerating`, { kind: isStatic ? 'ground-atoms' : 'rules', estimate });
}

/**
 * With lazy axioms (docs/lazy.md), a keyword rule that reads a lazy relation and is estimated
 * at more than this many ground rules is left non-ground as a whole (a limit naming the rule,
 * which the lazy rounds turn into a lazy rule): each of its instances would carry an opaque
 * lazy atom that the simulator decides in Prolog anyway (chess's legal rules, one instance per
 * move and king square).
 */
const LAZY_RULE_ESTIMATE = 100_000;

/**
 * Whether keyword rule `rule`, estimated at `estimate` ground rules, is one that
 * {@link checkLazyEstimate} leaves non-ground: it reads a lazy relation negatively and passes
 * {@link LAZY_RULE_ESTIMATE}. Also asked of the rules after one refused (src/ground/lazy-scan.ts).
 */
export function overLazyEstimate(ctx: Context, rule: JoinRule, estimate: number): boolean {
  const lazy = ctx.lazy;
  if (lazy === undefined || estimate <= LAZY_RULE_ESTIMATE || !isOutputKeyword(rule.head.rel) || rule.head.rel === SEES) return false;
  return rule.negatives.some((n) => lazy.has(n.rel));
}

/** Refuses, as a limit naming it, a rule {@link overLazyEstimate} says is to stay non-ground. */
export function checkLazyEstimate(ctx: Context, rule: JoinRule, estimate: number): void {
  if (!overLazyEstimate(ctx, rule, estimate)) return;
  const rel = `${rule.head.rel}/${rule.source.head.args.length}`;
  throw relationLimitError(ctx.file, rule.source.pos, rule.head.rel,
    `instantiating this rule for '${rel}' would make about ${formatEstimate(estimate)} ground rules with lazy atoms, more than ${LAZY_RULE_ESTIMATE} (lazy axioms)`, { kind: 'lazy', estimate });
}

export function makeTick(ctx: Context, rule: JoinRule, estimate: number): Tick {
  // A rule stopped by the clock or the heap names the size its join was estimated at too.
  const size = `; its join was estimated at about ${formatEstimate(estimate)} bindings`;
  return () => {
    if (ctx.limits.deadline.tick()) throw limitError(ctx, rule, `stopped: ${ctx.limits.deadline.describe()}${size}`, deadlineLimit(ctx.limits.deadline, estimate));
  };
}

/**
 * Ground rules made so far, as the limits and the splitter's decisions count them: those in the
 * buffer and those counted without being made (aux-demand.ts), so that they decide as if all were made.
 */
export function rulesMade(ctx: Context): number {
  return ctx.rules.count + ctx.counters.dropped;
}

/** How far a run has got: ground rules and counters, to go back to with {@link rollBack}. */
export interface Mark {
  readonly rules: number;
  readonly dropped: number;
  readonly atoms: number;
  readonly literals: number;
}

/** The current {@link Mark} of `ctx`. */
export function markOf(ctx: Context): Mark {
  return { rules: ctx.rules.count, dropped: ctx.counters.dropped, atoms: ctx.counters.atoms, literals: ctx.counters.literals };
}

/** Ground rules made since `mark`, counted as {@link rulesMade} counts them. */
export function madeSince(ctx: Context, mark: Mark): number {
  return rulesMade(ctx) - mark.rules - mark.dropped;
}

/**
 * Forgets the ground rules made since `mark` (a split that did not pay, src/ground/split-run.ts);
 * atoms derived for relations made meanwhile stay in their stores, which nothing else reads.
 */
export function rollBack(ctx: Context, mark: Mark): void {
  truncateRules(ctx.rules, mark.rules);
  ctx.counters.dropped = mark.dropped;
  ctx.counters.atoms = mark.atoms;
  ctx.counters.literals = mark.literals;
}
