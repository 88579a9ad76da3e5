/**
 * Algorithm 9.2 (section 9.1.2) on Tau-Prolog: the supersets of reachable fluents, moves and
 * axioms, equal to the least model of the relaxed game (no negative literals, no goal and
 * terminal rules, `true` from `init` and `next`, `does` from `legal`).
 *
 * The loop of the algorithm (query legal, assert does; query next, assert true; until nothing
 * is new; then query every axiom) runs bottom-up and semi-naively, which reaches the same
 * fixpoint: every relation is a table of ground facts, relations are evaluated component by
 * component of the dependency graph (state-independent ones once, up front), and within a
 * recursive component each round fires only the rule variants that read a fact new in the last
 * round. Prolog does the joins; JavaScript removes duplicates and feeds the tables.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { KEYWORDS, NO_POS } from '../gdl/ast.js';
import { createEngine } from '../engine/tau.js';
import { sortByCodePoints, termDepth } from '../gdl/terms.js';
import { checkDeadline, deadlineTicker, relationLimitError } from '../gdl/diagnostics.js';
import type { NormalGame } from '../normalize/types.js';
import { tablesRead } from './clauses.js';
import { NO_RELATION, type ReachProgress, type Run, evaluateComponent } from './evaluate.js';
import { type RelaxedRule, asOneComponent, planRelaxedGame, relevantComponents } from './relaxed.js';
import { type Optimization, switches, uses } from './ablation.js';
import { type FactStore, type RelationFacts, createStore, ensureTable, factText, relationFacts, releaseEngineFacts } from './store.js';
import { StageTimer } from '../timer.js';
import { Relation } from '../datalog/relation.js';
import { type ReachLimits, type ReachResult, type Supersets } from './types.js';
import { type AxiomRows, type SupersetIds, handedSupersets } from './handover.js';
import { negationFree } from './exact-statics.js';

export type { ReachProgress } from './evaluate.js';

/**
 * The engine-side Prolog loaded into Tau-Prolog before the clauses generated for a game. The
 * generated program reads only tables of ground facts ('F|rel/n' holds every fact found so far,
 * 'D|rel/n' the facts new in the last round) through clauses '$vN'(Head) :- Body, one per
 * semi-naive variant of a rule of the relaxed game. A table that has no fact yet, or a relation
 * no rule defines, must simply fail instead of raising an existence error: the relaxed game
 * leaves out rules (negative literals, goal and terminal) and tables fill up only as the
 * fixpoint proceeds.
 *
 * Embedded in the module rather than read from `prolog/reach.pl` on every call: it is one
 * directive that belongs to the meaning of the generated program, not a resource a user would
 * change, so it is fixed at build time like the code that generates the clauses (no file
 * access, no per-process cache, nothing to resolve with the options).
 */
const REACH_DRIVER = ':- set_prolog_flag(unknown, fail).\n';

/** Terms nested deeper than this mean the relaxed game is infinite (a counter `(s (s ...))`). */
export const DEFAULT_MAX_TERM_DEPTH = 256;

/** Longest rule body accepted (far beyond real games; deeper would risk the engine's stack). */
const MAX_BODY_LITERALS = 2000;

/** Options beyond the limits. */
interface PrologReachOptions {
  /** Called after every round of a recursive component (for progress display). */
  readonly onProgress?: (p: ReachProgress) => void;
  /** Deepest term nesting accepted (default {@link DEFAULT_MAX_TERM_DEPTH}). */
  readonly maxTermDepth?: number;
  /**
   * False: every goal goes through Tau-Prolog's own step, tables and once included (slower;
   * see `EngineOptions.directSteps`). Tests compare both ways on real games.
   */
  readonly directSteps?: boolean;
  /**
   * True: only the fluents and moves, and the relations they depend on (relevance first): the
   * components the loop of Algorithm 9.2 reads, directly or not. The axioms of the other
   * relations (the third set) are left out; instantiation derives them itself over the
   * fluents and moves, a subset of the relaxed model, so the ground game is the same.
   */
  readonly relevantOnly?: boolean;
  /**
   * Optimizations switched off, to measure what each contributes (src/reach/ablation.ts,
   * docs/reach.md); the supersets stay the same. Absent: all on. `direct-steps` here is the
   * same as `directSteps: false`.
   */
  readonly off?: readonly Optimization[];
  /**
   * The order of the supersets returned: `text` (the default), sorted by KIF text as
   * {@link Supersets} says; `found`, in the order the run derived them (the axioms relation by
   * relation), for callers that read them as sets (instantiation: head filters and stores by
   * term id; its vocabulary and everything it writes are ordered by text downstream).
   * amazons' grounding run derives 752,469 axioms, whose sort by text was a fifth of its
   * superset stage, and 173,962 moves, whose sort took another 0.5 s.
   */
  readonly axiomOrder?: 'text' | 'found';
  /**
   * With `axiomOrder: 'found'`: the relation of the game each relation of the run is read as
   * (undefined: left out), and relations read as one merged without duplicates, by their
   * facts' term ids. Grounding's demanded runs read the magic-sets rewrite back this way
   * (src/reach/magic.ts `undemandedName`), with no atom made for a magic fact and none made
   * twice (amazons: 480,000 axioms mapped back, 0.1-0.2 s).
   */
  readonly readAs?: (rel: string) => string | undefined;
  /**
   * With `axiomOrder: 'found'` and no `readAs`: the static relations derived exactly are named
   * in the hand-over (`SupersetIds.exactStatics`, src/reach/exact-statics.ts), for
   * instantiation to take their facts instead of deriving them again.
   */
  readonly exactStatics?: boolean;
}

/**
 * Algorithm 9.2 on Tau-Prolog: supersets equal to the least model of the relaxed game.
 * Throws GdlError with code 'limit' when `limits` (or the term depth) are exceeded, naming the
 * relation that grew, and with code 'invalid' when a rule derives a non-ground instance.
 */
export function computeSupersetsProlog(
  game: NormalGame,
  limits: ReachLimits,
  options: PrologReachOptions = {},
): ReachResult {
  const timer = new StageTimer();
  const timed = <T>(step: string, fn: () => T): T => timer.run(step, fn);
  const derived = derive(game, limits, options, timed);
  // The engine and the facts as its terms are garbage from here: collecting reads only the fact
  // store's ids (amazons: 10 of the 237 MiB held before, the supersets' own terms on top).
  // The engine's sort of up to maxAtoms texts cannot be interrupted; everything around it ticks
  // (a game with millions of atoms spent seconds here past its limit), and the CLI's backstop
  // stops what is left.
  const what = 'Prolog method: collecting the supersets';
  checkDeadline(limits.deadline, game.file, what);
  const tick = deadlineTicker(limits.deadline, game.file, what);
  const exact = options.exactStatics === true && options.readAs === undefined ? derived.exact : undefined;
  const supersets = timed('collect', () => collect(derived.store, derived.auxiliary, tick, options.axiomOrder ?? 'text', options.readAs, exact));
  checkDeadline(limits.deadline, game.file, what);
  return {
    supersets,
    stats: { method: 'prolog', iterations: derived.iterations, answers: derived.answers, kept: derived.store.size, times: timer.steps() },
  };
}

/**
 * Lines 1-25 but the collecting: the facts derived, component by component, into the fact store.
 * Only the store (its copies of the engine's facts emptied) and the counts are returned, so that
 * the engine and its terms are garbage once this returns.
 */
function derive(
  game: NormalGame, limits: ReachLimits, options: PrologReachOptions, timed: <T>(step: string, fn: () => T) => T,
): { store: FactStore; auxiliary: ReadonlySet<string>; iterations: number; answers: number; exact: string[] } {
  const run = timed('load', () => load(game, limits, options));
  const trueAt = run.plan.components.findIndex((c) => c.containsTrue);
  const wanted = options.relevantOnly === true ? relevantComponents(run.plan.components) : null;
  const free = options.exactStatics === true ? negationFree(game) : new Set<string>();
  const exact: string[] = [];
  run.plan.components.forEach((comp, i) => {
    if (wanted !== null && !wanted.has(i)) return;
    // Line 1-8: static relations and init first; lines 9-20: the loop; lines 21-25: axioms.
    const phase = !comp.stateDependent ? 'static' : i <= trueAt ? 'fixpoint' : 'axioms';
    timed(phase, () => evaluateComponent(run, comp));
    // Keywords are not among the axioms handed over; auxiliary relations are not the game's.
    if (!comp.stateDependent) exact.push(...comp.relations.filter((k) => free.has(k) && !run.plan.auxiliary.has(k) && !KEYWORDS.has(run.plan.relations.get(k)!.rel)));
  });
  releaseEngineFacts(run.store);
  return { store: run.store, auxiliary: run.plan.auxiliary, iterations: run.iterations, answers: run.answers, exact: exact.sort() };
}

/** Line 1 of Algorithm 9.2: a fresh engine with the driver loaded (clauses come per component). */
function load(game: NormalGame, limits: ReachLimits, options: PrologReachOptions): Run {
  const on = switches(options.off);
  const relaxed = planRelaxedGame(game, !uses(on, 'subsumption'), uses(on, 'elimination'));
  const plan = uses(on, 'components') ? relaxed : asOneComponent(relaxed);
  const maxDepth = options.maxTermDepth ?? limits.maxTermDepth ?? DEFAULT_MAX_TERM_DEPTH;
  refuseDeepRules(game.file, plan.components.flatMap((c) => c.rules), maxDepth);
  const engine = createEngine({ deadline: limits.deadline }, { directSteps: (options.directSteps ?? true) && uses(on, 'direct-steps') });
  engine.consult(REACH_DRIVER);
  const store = createStore(tablesRead(plan));
  for (const [key, r] of plan.relations) {
    // Split relations also get one table per functor as functors appear (see mirrorFacts).
    ensureTable(engine, store, key, relationFacts(store, key, r.rel, r.arity, plan.auxiliary.has(key)));
  }
  return {
    game, plan, engine, store, limits, maxDepth,
    onProgress: options.onProgress,
    switches: on,
    bridges: new Map(plan.components.flatMap((c) => c.bridges.map((b) => [b.from, b.to] as const))),
    answers: 0, iterations: 0, rounds: 0, current: NO_RELATION, estimate: 0, at: undefined, nextId: 0, stats: new Map(),
  };
}

/**
 * Refuses rules with terms nested deeper than the limit: Tau-Prolog renames and applies
 * substitutions recursively, so such a term would exhaust the stack instead of failing cleanly.
 */
function refuseDeepRules(file: string, rules: readonly RelaxedRule[], maxDepth: number): void {
  for (const r of rules) {
    const terms = [...r.head.args, ...r.body.flatMap((l) => (l.kind === 'pos' ? l.atom.args : [l.left, l.right]))];
    if (terms.some((t) => termDepth(t) > maxDepth)) {
      throw relationLimitError(file, r.pos, r.head.rel, `rule for '${r.head.rel}' has a term nested deeper than ${maxDepth} levels`, { kind: 'depth' });
    }
    // A body is one right-nested conjunction term, which Tau-Prolog also walks recursively.
    if (r.body.length > MAX_BODY_LITERALS) {
      throw relationLimitError(file, r.pos, r.head.rel, `rule for '${r.head.rel}' has more than ${MAX_BODY_LITERALS} body literals`, { kind: 'body' });
    }
  }
}

/**
 * Lines 21-26: the three supersets, read off the fact store; sorted by KIF text, or in the
 * order found when `order` is `found`, then handed over as the store's term ids (their arrays
 * made only if read: src/reach/handover.ts).
 */
function collect(
  store: FactStore, auxiliary: ReadonlySet<string>, tick: () => void, order: 'text' | 'found', readAs?: (rel: string) => string | undefined, exact?: readonly string[],
): Supersets {
  if (order === 'found') {
    const ids = idsFound(store, auxiliary, tick, readAs);
    return handedSupersets(exact === undefined ? ids : { ...ids, exactStatics: exact });
  }
  // Terms are made from the facts' ids, each once: a term held by several facts is one object.
  const term = (id: number): Term => store.terms.toTerm(id);
  // Sorted by text first, converted after: only what is kept is converted, once. Each fact's
  // text is made once (the sort reads it twice: amazons' 173,962 moves).
  const byText = <T>(r: RelationFacts | undefined, value: (row: number) => T): T[] => {
    if (r === undefined) return [];
    const texts = Array.from({ length: r.ids.size }, (_, row) => (tick(), factText(store, r, row)));
    return sortByCodePoints(rowsOf(r), (row) => texts[row]!).map((row) => (tick(), value(row)));
  };
  const t = store.relations.get('true/1');
  const d = store.relations.get('does/2');
  const fluents = byText(t, (row) => term(t!.ids.get(row, 0)));
  const moves = byText(d, (row) => ({ role: term(d!.ids.get(row, 0)), action: term(d!.ids.get(row, 1)) }));
  return { fluents, moves, axioms: axiomsByText(store, auxiliary, tick, term) };
}

/** The row numbers of a relation's facts, in the order found. */
function rowsOf(r: RelationFacts): number[] {
  return Array.from({ length: r.ids.size }, (_, i) => i);
}

/** The axiom of fact `row` of relation `r`, named `rel`. */
function axiomOf(r: RelationFacts, row: number, term: (id: number) => Term, rel = r.rel): Atom {
  // Sized once: an array filled by push keeps room for 17 elements (amazons: 385,000 argument
  // lists, 53 of the 109 MiB the supersets held through instantiation).
  const args = new Array<Term>(r.arity);
  for (let i = 0; i < r.arity; i++) args[i] = term(r.ids.get(row, i));
  return { kind: 'atom', rel, args, pos: NO_POS };
}

/**
 * The supersets in the order found, as the store's term ids (src/reach/handover.ts): the axioms
 * relation by relation; with `readAs`, each relation under the name it is read as, and a fact of
 * a name and arity that several relations are read as only the first time it is found.
 */
function idsFound(store: FactStore, auxiliary: ReadonlySet<string>, tick: () => void, readAs = (rel: string): string | undefined => rel): SupersetIds {
  const column = (r: RelationFacts | undefined): Int32Array => (r === undefined ? new Int32Array(0) : r.ids.rows.slice(0, r.ids.size * r.arity));
  const sources = new Map<string, number>();
  const named: { readonly r: RelationFacts; readonly rel: string; readonly key: string }[] = [];
  for (const [key, r] of store.relations) {
    const rel = KEYWORDS.has(r.rel) || auxiliary.has(key) ? undefined : readAs(r.rel);
    if (rel === undefined) continue;
    const to = `${rel}/${r.arity}`;
    named.push({ r, rel, key: to });
    sources.set(to, (sources.get(to) ?? 0) + 1);
  }
  // The facts already given of each merged name and arity, as tuples of the store's term ids.
  const merged = new Map<string, Relation>();
  const axioms: AxiomRows[] = [];
  let axiomCount = 0;
  for (const { r, rel, key } of named) {
    let seen = merged.get(key);
    if (seen === undefined && sources.get(key)! > 1) merged.set(key, (seen = new Relation(r.arity)));
    const rows = seen === undefined ? r.ids : newRows(r, seen, tick);
    // The rows alone, at their size: the store's relation (its index, its room) is left behind.
    axioms.push({ rel, arity: r.arity, size: rows.size, rows: rows.rows.slice(0, rows.size * r.arity) });
    axiomCount += rows.size;
  }
  return { terms: store.terms, fluents: column(store.relations.get('true/1')), moves: column(store.relations.get('does/2')), axioms, axiomCount };
}

/** The rows of `r` not in `seen`, in order, added to `seen` too. */
function newRows(r: RelationFacts, seen: Relation, tick: () => void): Relation {
  const out = new Relation(r.arity);
  const tuple = new Int32Array(r.arity);
  for (let row = 0; row < r.ids.size; row++) {
    tick();
    for (let i = 0; i < r.arity; i++) tuple[i] = r.ids.get(row, i);
    if (seen.insert(tuple)) out.append(tuple);
  }
  return out;
}

/**
 * The axioms sorted by their KIF text, `(rel args)` or `rel`, relation by relation: the texts of
 * one name share the prefix `(rel ` and differ in the facts' own texts, and texts of different
 * names are ordered by those prefixes (a name holds no space or parenthesis, so the prefix of
 * one is never a prefix of another's text). Sorting the facts' shorter texts within each name
 * spares building and comparing a text per instance (amazons: 752,469 axioms, and the sort
 * took as long as the fixpoint). Arities of one name share a prefix, so they are sorted together.
 */
function axiomsByText(store: FactStore, auxiliary: ReadonlySet<string>, tick: () => void, term: (id: number) => Term): Atom[] {
  type Fact = { readonly r: RelationFacts; readonly row: number; readonly text: string };
  const groups = new Map<string, { readonly prefix: string; readonly facts: Fact[] }>();
  for (const [key, r] of store.relations) {
    if (KEYWORDS.has(r.rel) || auxiliary.has(key)) continue;
    const prefix = r.arity === 0 ? r.rel : `(${r.rel} `;
    let g = groups.get(prefix);
    if (g === undefined) groups.set(prefix, (g = { prefix, facts: [] }));
    for (let row = 0; row < r.ids.size; row++) tick(), g.facts.push({ r, row, text: factText(store, r, row) });
  }
  const axioms: Atom[] = [];
  for (const g of sortByCodePoints([...groups.values()], (x) => x.prefix)) {
    for (const f of sortByCodePoints(g.facts, (x) => (tick(), x.text))) {
      tick();
      axioms.push(axiomOf(f.r, f.row, term));
    }
  }
  return axioms;
}
