/**
 * Lazy axioms (`--lazy-axioms`, docs/lazy.md): relations whose grounding would pass the budget
 * stay non-ground and are evaluated per state by the simulators. This module decides which
 * relations and rules that takes, and splits the game into the part that is ground as usual,
 * the relaxed game the supersets are computed from, and the non-ground program kept in the
 * output.
 *
 * - L, the lazy relations: the seeds, closed upwards over positive uses: a relation that uses
 *   one of L positively in a body is lazy too, unless its head is `next`, `legal`, `goal` or
 *   `terminal`; such a rule stays non-ground as a whole (a "lazy rule"). Atoms of L occur in
 *   ground rules only negated, with all arguments bound (safety), and are opaque there. A
 *   positive use of a keyword with a lazy rule counts as one of L (its reader reads a copy).
 * - D, the lazy program: L and every state-dependent non-keyword relation its rules (and the
 *   lazy rules) read, downwards. A relation of D outside L keeps its ground rules too (for its
 *   ground users); the output then holds both, whose union is the same relation.
 * - The static relations the program reads are evaluated exactly by instantiation as usual;
 *   their facts go into the output beside the program.
 */
import type { Atom, Rule } from '../gdl/ast.js';
import { KEYWORDS, NO_POS } from '../gdl/ast.js';
import { OUTPUT_KEYWORD_SET, READ_KEYWORDS, SEES } from '../gdl/keywords.js';
import { GdlError, diag } from '../gdl/diagnostics.js';
import { atomVars } from '../gdl/terms.js';
import { dependents, relationGraph, relationKeys, rulesByHead, stateDependent } from '../gdl/relations.js';
import { type Literal, type NormalGame, type NormalRule, asRule } from '../normalize/types.js';
import { keywordsRead, renameKeywordReads } from './lazy-keywords.js';

/**
 * Keyword heads whose rules may stay non-ground as a whole: the output keywords but GDL-II's
 * `sees`, which stays ground (its lazy heads would need the simulators to ask for them after
 * every move): a sees rule reading a lazy relation refuses the lazy part like other keywords.
 */
const LAZY_HEADS: ReadonlySet<string> = new Set([...OUTPUT_KEYWORD_SET].filter((k) => k !== SEES));

/** Why a relation cannot be made lazy (the caller words the error). */
export class LazyRefusal extends Error {}

/** The split of a game for lazy axioms. */
export interface LazyPlan {
  /** L: relation keys whose atoms are opaque in the ground game, sorted. */
  readonly relations: readonly string[];
  /** The game instantiation grounds: without lazy rules and without the rules of L. */
  readonly ground: NormalGame;
  /** D: relation keys the non-ground program defines, sorted. */
  readonly program: readonly string[];
  /** The game the supersets come from: `ground` plus the lazy rules without their L literals. */
  readonly relaxed: NormalGame;
  /** The static relations (and `role`) the non-ground program reads, sorted. */
  readonly statics: readonly string[];
  /** The non-ground rules kept: lazy keyword rules and the rules of D, in source order. */
  readonly rules: readonly NormalRule[];
  /** The lazy keyword rules alone (their heads are possibly produced in any state). */
  readonly lazyRules: readonly NormalRule[];
}

/** The seed that makes the keyword rule at `pos` lazy as a whole: `@line:col`. */
export function ruleSeed(pos: { readonly line: number; readonly col: number }): string {
  return `@${pos.line}:${pos.col}`;
}

function isRuleSeed(seed: string): boolean {
  return seed.startsWith('@');
}

function litRel(l: Literal): Atom | undefined {
  return l.kind === 'distinct' ? undefined : l.atom;
}

/**
 * L: the seeds closed upwards over positive uses (see the module comment), with `keywords` of
 * a keyword with a lazy rule too; also says which rules are lazy keyword rules. Throws
 * {@link LazyRefusal} when a relation of L feeds `init`, `role`, `base` or `input`.
 */
function closeUpwards(rules: readonly NormalRule[], key: (a: Atom) => string, seeds: Iterable<string>, keywords = true): { lazy: Set<string>; lazyRule: Set<NormalRule> } {
  const lazy = new Set([...seeds].filter((s) => !isRuleSeed(s)));
  const positions = new Set([...seeds].filter(isRuleSeed));
  const lazyRule = new Set(rules.filter((r) => LAZY_HEADS.has(r.head.rel) && positions.has(ruleSeed(r.pos))));
  // A keyword with a lazy rule, read in a body, is read like L: instantiation knows only the
  // heads of its ground rules (PORTUGAL's `sartuntent`, "a legal move", read none of the moves
  // of its lazy legal rules, so every state was terminal). The reader joins L, reading its own
  // copy of the keyword (planLazy). Not with `keywords` false (what joins L through them alone).
  const lazyKeywords = new Set(keywords ? [...lazyRule].filter((r) => READ_KEYWORDS.has(r.head.rel)).map((r) => key(r.head)) : []);
  for (let changed = true; changed;) {
    changed = false;
    for (const r of rules) {
      const head = key(r.head);
      if (lazy.has(head) || lazyRule.has(r)) continue;
      const used = r.body.find((l) => l.kind === 'pos' && (lazy.has(key(l.atom)) || lazyKeywords.has(key(l.atom))));
      if (used === undefined) continue;
      if (LAZY_HEADS.has(r.head.rel)) {
        lazyRule.add(r);
        if (keywords && READ_KEYWORDS.has(r.head.rel) && !lazyKeywords.has(head)) (lazyKeywords.add(head), (changed = true));
      } else if (KEYWORDS.has(r.head.rel)) throw new LazyRefusal(`'${key(litRel(used)!)}' is used by a rule for '${r.head.rel}', which must be ground`);
      else (lazy.add(head), (changed = true));
    }
  }
  return { lazy, lazyRule };
}

/**
 * D: the state-dependent non-keyword relations the rules of L and the lazy rules read,
 * downwards; and the static relations they read.
 */
function closeDownwards(rules: readonly NormalRule[], key: (a: Atom) => string, lazy: ReadonlySet<string>, lazyRule: ReadonlySet<NormalRule>, dynamic: ReadonlySet<string>): { program: Set<string>; statics: Set<string> } {
  const program = new Set(lazy);
  const statics = new Set<string>();
  const todo = rules.filter((r) => lazyRule.has(r) || lazy.has(key(r.head)));
  const byHead = rulesByHead(rules, key);
  while (todo.length > 0) {
    for (const l of todo.pop()!.body) {
      const a = litRel(l);
      if (a === undefined || a.rel === 'true' || a.rel === 'does') continue;
      const rel = key(a);
      if (program.has(rel) || statics.has(rel)) continue;
      if (dynamic.has(rel) && !KEYWORDS.has(a.rel)) (program.add(rel), todo.push(...(byHead.get(rel) ?? [])));
      else statics.add(rel);
    }
  }
  return { program, statics };
}

/**
 * The rules instantiation grounds: not the lazy rules, not the rules of L, and of the rest of
 * D only those the other ground rules read (downwards):
 *   keep(R) <= R not in D        keep(B) <= keep(H), H <= ... B ...
 */
function groundRules(rules: readonly NormalRule[], key: (a: Atom) => string, lazy: ReadonlySet<string>, lazyRule: ReadonlySet<NormalRule>, program: ReadonlySet<string>): NormalRule[] {
  const candidates = rules.filter((r) => !lazyRule.has(r) && !lazy.has(key(r.head)));
  const byHead = rulesByHead(candidates, key);
  const keep = new Set(candidates.map((r) => key(r.head)).filter((h) => !program.has(h)));
  const todo = [...keep];
  while (todo.length > 0) {
    for (const r of byHead.get(todo.pop()!) ?? []) {
      for (const l of r.body) {
        const a = litRel(l);
        if (a !== undefined && !keep.has(key(a))) (keep.add(key(a)), todo.push(key(a)));
      }
    }
  }
  return candidates.filter((r) => keep.has(key(r.head)));
}

/**
 * `rule` relaxed for the superset stage: only the positive literals that bind a head variable,
 * and of those over `lazy` only the ones a head variable needs (alexChess's legal rules bind
 * the move only through the lazy `legal2`). Dropping a positive literal only adds answers, so
 * the relaxed rule still over-approximates, and it joins far less (chess's discovered-check
 * rules join every move with two cells otherwise).
 */
function relaxRule(rule: NormalRule, key: (a: Atom) => string, lazy: ReadonlySet<string>): NormalRule {
  const needed = atomVars(rule.head);
  const binds = (l: Literal): l is Extract<Literal, { kind: 'pos' }> => l.kind === 'pos' && [...atomVars(l.atom)].some((v) => needed.has(v));
  const body = rule.body.filter((l) => binds(l) && !lazy.has(key(l.atom)));
  const bound = new Set<string>();
  for (const l of body) if (l.kind === 'pos') atomVars(l.atom, bound);
  for (const l of rule.body) {
    if (!binds(l) || !lazy.has(key(l.atom)) || [...atomVars(l.atom)].every((v) => !needed.has(v) || bound.has(v))) continue;
    body.push(l);
    atomVars(l.atom, bound);
  }
  return { head: rule.head, body, pos: rule.pos };
}

/**
 * Splits `game` for the lazy relations `seeds` (relation keys); throws {@link LazyRefusal}
 * when they cannot be lazy. Pure: the same game and seeds give the same plan.
 */
export function planLazy(game: NormalGame, seeds: Iterable<string>): LazyPlan {
  const given = [...seeds];
  const plan = planFor(game, given, new Set());
  // A keyword the lazy program reads becomes a relation of its own (src/ground/lazy-keywords.ts).
  const read = keywordsRead(plan.rules);
  if (read.length === 0) return plan;
  // What joined L or became a lazy rule for reading a keyword with a lazy rule stays so: the
  // copy it then reads has no lazy rule (the keyword's own rules are made lazy by position).
  const kept = [...plan.relations, ...plan.lazyRules.map((r) => ruleSeed(r.pos))];
  const plain = new Set(planFor(game, given, new Set(), false).relations);
  return planFor(renameKeywordReads(game, read), [...new Set([...given, ...kept])], new Set(plan.relations.filter((r) => !plain.has(r))));
}

/**
 * Whether relation `rel` alone may be lazy in `game` (no {@link LazyRefusal}): the superset
 * stage's foresight (src/reach/foresight.ts) names only such relations. `rel` is the name a
 * limit error carries (`relation`), the seed the lazy rounds (lazy-rounds.ts) then take.
 */
export function mayBeLazy(game: NormalGame, rel: string): boolean {
  try {
    planLazy(game, [rel]);
    return true;
  } catch (err) {
    if (err instanceof LazyRefusal) return false;
    throw err;
  }
}

/**
 * The plan of {@link planLazy} for `game` as it is. `readers`: relations of L only for reading
 * a keyword with a lazy rule, whose own reads make nothing else lazy; `keywords` false: such a
 * read does not count ({@link closeUpwards}; the plan's L without them).
 */
function planFor(game: NormalGame, seeds: readonly string[], readers: ReadonlySet<string>, keywords = true): LazyPlan {
  const plain = game.rules.map(asRule);
  const key = relationKeys(plain);
  const dynamic = stateDependent(plain);
  // A relation of D that a keyword rule reads positively is made lazy too (that rule with it):
  // it is evaluated non-ground anyway, and grounding its keyword users would ground it a
  // second time (chess's discovered-check rules read rook_threatens beside queen_threatens).
  // Not when that would make a relation lazy that depends on the joint move (alexChess's
  // `empty`, read by the castling rules and by `unstable`): the relation then stays in both.
  const onMove = moveDependent(plain);
  const kept = new Set<string>();
  let start = new Set(seeds);
  for (;;) {
    const { lazy, lazyRule } = closeUpwards(game.rules, key, start, keywords);
    const { program, statics } = closeDownwards(game.rules, key, lazy, lazyRule, dynamic);
    // Only what L's own rules need counts here, not what a rule made lazy by position reads,
    // nor what a reader of a keyword with such a rule does (PORTUGAL's `sartuntent` reads the
    // copy of every legal rule: their relations would all be lazy, and their fluents unviewed).
    const below = closeDownwards(game.rules, key, new Set([...lazy].filter((r) => !readers.has(r))), new Set(), dynamic).program;
    const more = [...new Set(game.rules.flatMap((r) => (LAZY_HEADS.has(r.head.rel) && !lazyRule.has(r) ? r.body : []))
      .flatMap((l) => (l.kind === 'pos' && below.has(key(l.atom)) && !lazy.has(key(l.atom)) && !kept.has(key(l.atom)) ? [key(l.atom)] : [])))].sort();
    const fine = more.filter((m) => !movesWith(game.rules, key, [...start, ...lazy, m], onMove, keywords));
    for (const m of more) if (!fine.includes(m)) kept.add(m);
    if (fine.length === 0) {
      refuseMoveDependent(onMove, lazy);
      return assemblePlan(game, key, lazy, lazyRule, program, statics);
    }
    start = new Set([...start, ...lazy, ...fine]);
  }
}

/** True when L closed upwards from `seeds` holds a relation of `onMove` (or cannot be closed). */
function movesWith(rules: readonly NormalRule[], key: (a: Atom) => string, seeds: readonly string[], onMove: ReadonlySet<string>, keywords: boolean): boolean {
  try {
    return [...closeUpwards(rules, key, seeds, keywords).lazy].some((r) => onMove.has(r));
  } catch (err) {
    if (err instanceof LazyRefusal) return true;
    throw err;
  }
}

/**
 * The rules of the relations the relaxed lazy rules read that the ground part leaves out (a
 * relation of D that no ground rule reads), downwards: without them such a literal has no
 * instance in the relaxed game, and the lazy rule no possible head (a lazy `legal` rule reading
 * `(empty ?b)` beside a lazy `reach`). A relation of L counts only where `relaxRule` kept a
 * literal over it, to bind the head.
 *   need(R) <= a relaxed lazy rule reads R, R has no ground rule
 *   need(B) <= need(H), H <= ... B ..., B has no ground rule
 */
function readRules(rules: readonly NormalRule[], key: (a: Atom) => string, relaxedLazy: readonly NormalRule[], ground: readonly NormalRule[], lazy: ReadonlySet<string>): NormalRule[] {
  const grounded = new Set(ground.map((r) => key(r.head)));
  const byHead = rulesByHead(rules, key);
  const need = new Set<string>();
  const todo = [...relaxedLazy];
  while (todo.length > 0) {
    // Relaxed: only positive literals count (negative ones are dropped with the rule's relaxation).
    for (const l of todo.pop()!.body) {
      if (l.kind !== 'pos' || KEYWORDS.has(l.atom.rel)) continue;
      const rel = key(l.atom);
      if (need.has(rel) || grounded.has(rel)) continue;
      need.add(rel);
      todo.push(...(byHead.get(rel) ?? []));
    }
  }
  return rules.filter((r) => need.has(key(r.head)));
}

/**
 * Refuses lazy relations that read `does`: the ground simulator decides opaque atoms per state,
 * before the joint move (lazy rules may read `does`; they are evaluated after it).
 *   onDoes(H) <= H <= ... does ...      onDoes(H) <= onDoes(B), H <= ... B ...
 */
function refuseMoveDependent(onMove: ReadonlySet<string>, lazy: ReadonlySet<string>): void {
  const bad = [...lazy].filter((r) => onMove.has(r)).sort();
  if (bad.length > 0) throw new LazyRefusal(`'${bad[0]}' depends on the joint move (does)`);
}

/** The relations that depend on `does`, through any literal (relation-graph keys). */
function moveDependent(plain: readonly Rule[]): Set<string> {
  return dependents(relationGraph(plain).edges, ['does']);
}

/** The plan of closed sets L (`lazy`) and D (`program`). */
function assemblePlan(
  game: NormalGame, key: (a: Atom) => string, lazy: ReadonlySet<string>, lazyRule: ReadonlySet<NormalRule>,
  program: ReadonlySet<string>, statics: ReadonlySet<string>,
): LazyPlan {
  const ground = groundRules(game.rules, key, lazy, lazyRule, program);
  const lazyRules = game.rules.filter((r) => lazyRule.has(r));
  // Goal and terminal rules play no part in the relaxed game (Algorithm 9.2 leaves them out).
  const relaxedLazy = lazyRules.filter((r) => r.head.rel === 'next' || r.head.rel === 'legal').map((r) => relaxRule(r, key, lazy));
  const relaxed = [...ground, ...relaxedLazy, ...readRules(game.rules, key, relaxedLazy, ground, lazy)];
  const sorted = (s: Iterable<string>): string[] => [...s].sort();
  return {
    relations: sorted(lazy),
    program: sorted(program),
    statics: sorted(statics),
    rules: game.rules.filter((r) => lazyRule.has(r) || program.has(key(r.head))),
    lazyRules,
    ground: { file: game.file, rules: ground },
    relaxed: { file: game.file, rules: relaxed },
  };
}

/**
 * What to make lazy after limit error `d`: the relation it carries (`relation`, set by the
 * superset stage and by instantiation), or for a next, legal, goal or terminal rule that rule
 * ({@link ruleSeed}, at the diagnostic's position); undefined when it carries none.
 */
export function seedOfLimit(d: { readonly relation?: string; readonly line: number; readonly col: number }): string | undefined {
  const rel = d.relation;
  if (rel === undefined || !KEYWORDS.has(rel)) return rel;
  // A keyword rule too large to ground stays non-ground as a whole (it is named by position).
  return LAZY_HEADS.has(rel) && d.line > 0 ? ruleSeed(d) : undefined;
}

/**
 * What the first lazy round would make lazy after `err`, a limit met by a run without lazy
 * axioms: the seed the lazy rounds (lazy-rounds.ts) would take (not after the clock or the heap, which never
 * start a round, and only one whose lazy plan is not refused); undefined otherwise.
 */
function lazySeed(game: NormalGame, err: GdlError): string | undefined {
  const kind = err.limit?.kind;
  if (err.code !== 'limit' || kind === 'time' || kind === 'memory' || kind === 'aborted') return undefined;
  const first = err.diagnostics[0];
  const seed = first === undefined ? undefined : seedOfLimit(first);
  return seed !== undefined && mayBeLazy(game, seed) ? seed : undefined;
}

/**
 * `err` with the flag that answers it, when it is a limit that a run with lazy axioms would
 * have answered by leaving a relation (or keyword rule) non-ground (the held-out chess
 * scramblings: ground with `--lazy-axioms`, refused without); else `err` itself. Applied where
 * every command grounds, so `ground`, `mutex`, `play`, `verify` and the batch say the same.
 */
export function withLazyNote(game: NormalGame, err: unknown): unknown {
  if (!(err instanceof GdlError)) return err;
  const seed = lazySeed(game, err);
  if (seed === undefined) return err;
  const [first, ...rest] = err.diagnostics;
  const what = seed.startsWith('@') ? `the rule at line ${seed.slice(1).split(':')[0]}` : `'${seed}'`;
  return new GdlError([{ ...first!, message: `${first!.message}; --lazy-axioms leaves ${what} non-ground, evaluated per state (docs/lazy.md)` }, ...rest], err.code, err.limit);
}

/**
 * Whether a run with lazy axioms would answer `err`, a limit met by a run without them, by
 * leaving a relation (or keyword rule) non-ground: the limits {@link withLazyNote} notes. The
 * benchmark's mutex column grounds such a game again with lazy axioms, as the note says to.
 */
export function lazyWouldAnswer(game: NormalGame, err: unknown): boolean {
  return err instanceof GdlError && lazySeed(game, err) !== undefined;
}

/** Stages that need every rule ground refuse a game with lazy axioms (exit 1, docs/lazy.md). */
export function refuseLazy(game: { readonly file: string; readonly lazy?: { readonly relations: readonly string[] } }, what: string): void {
  if (game.lazy === undefined) return;
  throw new GdlError([diag('error', game.file, NO_POS, `${what} needs a fully ground game; this one has lazy axioms (${game.lazy.relations.join(', ')})`)]);
}
