/**
 * Bounds of the derived relations (docs/mutex.md, section 2a, "Bounds of derived relations"):
 * for each derived relation, a set of ground rows that contains every atom of the relation true
 * in any reachable state under any joint move. They are the least model of the *relaxed* rules:
 * every rule with its negative literals and its atoms of unbounded relations dropped, its `true`
 * atoms read against the ground game's fluents and its `does` atoms against the bound of `legal`
 * (a move made is legal; dropped when `legal` has none). Dropping body literals
 * only makes more atoms derivable, and in a stratified program every atom of the perfect model
 * has a finite derivation whose positive atoms come first, so each true atom is derived in the
 * relaxed program too. Recursive relations are bounded as well (amazons' `horizontalMove`): what
 * the unfolding of derived relations cannot see through, their rows can rule out (no queen move
 * ends on its own square). A relation whose relaxed rules leave a head variable unbound, or whose
 * rows pass the limits, has no bound.
 */
import type { Deadline } from '../deadline.js';
import type { Term } from '../gdl/ast.js';
import { stronglyConnectedComponents } from '../gdl/scc.js';
import type { NormalGame, NormalRule } from '../normalize/types.js';
import type { Bounds, StaticFacts } from './lifted-core.js';
import type { Bound } from './lifted-rows.js';
import { type Budget, type JoinAtom, type Table, addRow, firstLevelsSteps, headBoundAt, joinRule, newTable, rowText, tableOf, varsOf as termVars } from './lifted-join.js';
import { type ComponentRule, type Known, KEYWORDS, arityOf, factorGroups, relKey, relaxedRules } from './lifted-relax.js';

/**
 * Rows one relation's bound may have (a state-free one more: see stateFree), rows of all bounds,
 * and rows tried in joins, before giving up (no bound).
 */
const MAX_RELATION_ROWS = 20_000;
const MAX_STATE_FREE_ROWS = 131_072;
const MAX_TOTAL_ROWS = 400_000;
const MAX_JOIN_STEPS = 3_000_000;
/**
 * Rows scanned and row pairs tried by the values forced by the rows of bounds (lifted-domains.ts),
 * over one proof: past it, the forcing says nothing. FARMERS_S needs 2,842; wargame01's moves
 * (`nSteps` with `cell`, over 300 patterns, none forcing a value) took 1.4 million, a processor
 * second of its derived relations' claims (lifted-derived.ts, 2 s in all): 233 bits instead of 51.
 */
const MAX_FORCING_WORK = 32_768;
/** Join steps one component may take (so that one hard relation leaves the others theirs). */
const MAX_COMPONENT_STEPS = 500_000;

/**
 * The bounds of the game's derived relations (see the module comment); `facts` are the static
 * relations' rows, `fluents` the ground game's fluents' arguments per relation. `does/2` gets the
 * bound of `legal/2`: a move made is legal. Computed on demand: a relation's bound (with those of
 * the relations its rules read positively, first) is computed when the proof first asks for it,
 * so the join steps go to the relations the tried rule pairs read, not to the costly ones no case
 * reaches (chess's threat relations, read by negative literals only).
 */
export function relaxedBounds(normal: NormalGame, facts: StaticFacts, fluents: StaticFacts, deadline: Deadline): Bounds {
  const known = { tables: new Map<string, Table>(), keeps: new Map<string, readonly number[]>(), statics: new Set(facts.keys()) };
  const add = (k: string, rows: readonly (readonly Term[])[], arity: number): void => {
    known.tables.set(k, tableOf(rows, arity));
    known.keeps.set(k, [...Array(arity).keys()]);
  };
  for (const [k, rows] of facts) add(k, rows, arityOf(k));
  for (const [k, rows] of fluents) add(`true ${k}`, rows, arityOf(k));
  const byHead = new Map<string, NormalRule[]>();
  for (const r of normal.rules) {
    const k = relKey(r.head.rel, r.head.args.length);
    if (!KEYWORDS.has(r.head.rel) && !facts.has(k)) byHead.set(k, [...(byHead.get(k) ?? []), r]);
  }
  const run: Run = { graph: componentGraph(byHead), byHead, known, out: new Map(), budget: { steps: MAX_JOIN_STEPS, deadline }, rows: 0, tried: new Set() };
  return {
    forcing: { left: MAX_FORCING_WORK },
    stateFree: (k) => run.graph.stateFree[run.graph.of.get(k === 'does/2' ? 'legal/2' : k) ?? -1] === true,
    get: (k) => {
      const rel = k === 'does/2' ? 'legal/2' : k;
      const c = run.graph.of.get(rel);
      if (c !== undefined) demand(c, run);
      return run.out.get(rel);
    },
  };
}

/** The derived relations' components (strongly connected, over the atoms the rules read positively) and their dependencies. */
interface ComponentGraph {
  readonly comps: readonly (readonly string[])[];
  /** The component of each derived relation. */
  readonly of: ReadonlyMap<string, number>;
  /** Per component, the other components its rules read positively. */
  readonly deps: readonly (readonly number[])[];
  /** Per component, whether it is state-free (stateFree). */
  readonly stateFree: readonly boolean[];
}

/**
 * The components of the derived relations. Only positive atoms are edges: the relaxation drops
 * the negative ones, so a bound never waits for a relation read only under `not` (a stratified
 * program has no recursion through `not`, so the components are those of the full graph).
 */
function componentGraph(byHead: ReadonlyMap<string, readonly NormalRule[]>): ComponentGraph {
  const derived = [...byHead.keys()];
  const index = new Map(derived.map((k, i) => [k, i]));
  // A `does` atom is read against the bound of `legal` (lifted-relax.ts): an edge to it.
  const read = (l: NormalRule['body'][number]): string | undefined => (l.kind !== 'pos' ? undefined : l.atom.rel === 'does' && l.atom.args.length === 2 ? 'legal/2' : relKey(l.atom.rel, l.atom.args.length));
  const succ = derived.map((k) => [...new Set(byHead.get(k)!.flatMap((r) => r.body.flatMap((l) => index.get(read(l) ?? '') ?? [])))]);
  const comps = stronglyConnectedComponents(derived.length, (v) => succ[v]!);
  const compOf = new Map<number, number>();
  comps.forEach((c, i) => c.forEach((v) => compOf.set(v, i)));
  const deps = comps.map((c, i) => [...new Set(c.flatMap((v) => succ[v]!.map((w) => compOf.get(w)!)))].filter((d) => d !== i));
  const free = stateFree(byHead);
  const stateFreeComps = comps.map((c) => c.every((v) => free.has(derived[v]!)));
  return { comps: comps.map((c) => c.map((v) => derived[v]!)), of: new Map(derived.map((k, v) => [k, compOf.get(v)!])), deps, stateFree: stateFreeComps };
}

/**
 * The derived relations that are state-free: no rule reads `true` or `does` (under `not` or not),
 * and every derived relation they read is state-free. Such a relation means the same in every
 * state, like a static one, so its rows are its definition's size, not the relaxation's: chess's
 * `different_cells`, every pair of different squares over 16 coordinates (65,280 rows), which no
 * projection can replace. Those may have {@link MAX_STATE_FREE_ROWS} rows; the others keep
 * {@link MAX_RELATION_ROWS} (amazons' moves, whose bounds are cut). A fixpoint: stratified
 * programs may read a relation under `not` that the order of components lists later.
 */
function stateFree(byHead: ReadonlyMap<string, readonly NormalRule[]>): Set<string> {
  const free = new Set(byHead.keys());
  const reads = (l: NormalRule['body'][number]): string | undefined => (l.kind === 'distinct' ? undefined : relKey(l.atom.rel, l.atom.args.length));
  for (let changed = true; changed;) {
    changed = false;
    for (const [k, rules] of byHead) {
      if (!free.has(k)) continue;
      const dynamic = rules.some((r) => r.body.some((l) => {
        const rel = reads(l);
        return rel !== undefined && (rel === 'true/1' || rel === 'does/2' || (byHead.has(rel) && !free.has(rel)));
      }));
      if (dynamic) {
        free.delete(k);
        changed = true;
      }
    }
  }
  return free;
}

/** The state of one game's bounds: what is known, what is left of the budget, which components were tried. */
interface Run {
  readonly graph: ComponentGraph;
  readonly byHead: ReadonlyMap<string, readonly NormalRule[]>;
  readonly known: { readonly tables: Map<string, Table>; readonly keeps: Map<string, readonly number[]>; readonly statics: ReadonlySet<string> };
  readonly out: Map<string, Bound>;
  readonly budget: Budget;
  /** Rows of all bounds so far. */
  rows: number;
  readonly tried: Set<number>;
}

/**
 * Tries the bound of component `c` unless tried before, after those of the components it reads
 * (depth first, iteratively, each once). Once the join steps are spent, a component is marked
 * tried without a bound.
 */
function demand(c: number, run: Run): void {
  if (run.tried.has(c)) return;
  run.tried.add(c);
  const stack: [number, number][] = [[c, 0]];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const deps = run.graph.deps[top[0]]!;
    if (top[1] < deps.length) {
      const d = deps[top[1]++]!;
      if (!run.tried.has(d)) {
        run.tried.add(d);
        stack.push([d, 0]);
      }
      continue;
    }
    stack.pop();
    if (run.budget.steps > 0) boundOf(top[0], run);
  }
}

/** Computes the bound of component `c` (its dependencies tried) within its share of the join steps. */
function boundOf(c: number, run: Run): void {
  const { budget, known } = run;
  const local: Budget = { steps: Math.min(budget.steps, MAX_COMPONENT_STEPS), deadline: budget.deadline };
  const before = local.steps;
  const limits: RowLimits = { total: MAX_TOTAL_ROWS - run.rows, relation: run.graph.stateFree[c] ? MAX_STATE_FREE_ROWS : MAX_RELATION_ROWS };
  const built = boundComponent(run.graph.comps[c]!, run.byHead, known, local, limits);
  budget.steps -= before - Math.max(local.steps, 0);
  for (const [k, { table, keep }] of built ?? []) {
    known.tables.set(k, table);
    known.keeps.set(k, keep);
    if (keep.length > 0) run.out.set(k, { keep, rows: table.rows, index: table.index, memo: new Map(), ...(run.graph.stateFree[c] === true ? { stateFree: true } : {}) });
    run.rows += table.rows.length;
  }
}

/** Rows left for all bounds, and rows one relation of the component may have. */
interface RowLimits {
  readonly total: number;
  readonly relation: number;
}

/** A bound built: its rows, and the positions of the relation they keep. */
interface Built {
  readonly table: Table;
  readonly keep: readonly number[];
}

/**
 * The bounds of one component: its least relaxed model, or when that passes the row limits, the
 * same with one factor of a cross product left out (factorGroups): of those within the limits,
 * the one keeping the most positions, then the fewest rows (the most precise); undefined when
 * none is.
 */
function boundComponent(rels: readonly string[], byHead: ReadonlyMap<string, readonly NormalRule[]>, known: Known, budget: Budget, rowsLeft: RowLimits): Map<string, Built> | undefined {
  const whole = attempt(rels, byHead, known, budget, rowsLeft, new Map());
  if (whole.kind !== 'rows') return whole.kind === 'done' ? whole.built : undefined;
  const seen = new Set<string>();
  let best: { readonly built: Map<string, Built>; readonly kept: number; readonly rows: number } | undefined;
  for (const { rel, source, rule } of whole.rules) {
    for (const group of factorGroups(source, rule, whole.keepOf(rel))) {
      const id = `${rel} ${group.join(',')}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const cut = attempt(rels, byHead, known, budget, rowsLeft, new Map([[rel, group]]));
      if (cut.kind === 'steps') return undefined;
      if (cut.kind !== 'done') continue;
      const kept = [...cut.built.values()].reduce((n, b) => n + b.keep.length, 0);
      const rows = [...cut.built.values()].reduce((n, b) => n + b.table.rows.length, 0);
      if (best === undefined || kept > best.kept || (kept === best.kept && rows < best.rows)) best = { built: cut.built, kept, rows };
    }
  }
  return best?.built;
}

/** One try at a component's bounds, with some positions of one relation left out from the start. */
function attempt(
  rels: readonly string[], byHead: ReadonlyMap<string, readonly NormalRule[]>, known: Known, budget: Budget, rowsLeft: RowLimits, cut: ReadonlyMap<string, readonly number[]>,
): { readonly kind: 'done'; readonly built: Map<string, Built> } | { readonly kind: 'rows'; readonly rules: readonly ComponentRule[]; readonly keepOf: (rel: string) => number[] } | { readonly kind: 'steps' } {
  const dropped = new Map(rels.map((k) => [k, new Set<number>(cut.get(k) ?? [])]));
  const keepOf = (rel: string): number[] => [...Array(arityOf(rel)).keys()].filter((i) => !dropped.get(rel)!.has(i));
  const rules = relaxedRules(rels, byHead, known, dropped);
  const own = new Map(rels.map((k) => [k, newTable(keepOf(k).length)]));
  const result = leastModel(rules, own, new Map([...known.tables, ...own]), budget, rowsLeft);
  if (result === 'done') return { kind: 'done', built: new Map(rels.map((k) => [k, { table: own.get(k)!, keep: keepOf(k) }])) };
  return result === 'rows' ? { kind: 'rows', rules, keepOf } : { kind: 'steps' };
}

/**
 * Fills the component's tables `own` with the least model of its relaxed rules (semi-naive: after
 * the first round, each rule once per atom of the component, that atom reading the rows new in
 * the round before). 'rows' or 'steps' when a limit was reached.
 */
function leastModel(rules: readonly ComponentRule[], own: ReadonlyMap<string, Table>, all: ReadonlyMap<string, Table>, budget: Budget, rowsLeft: RowLimits): 'done' | 'rows' | 'steps' {
  if (firstRoundSpends(rules, all, budget)) return 'steps';
  let delta: Map<string, Table> | undefined;
  let rows = 0;
  for (let first = true; first || delta!.size > 0; first = false) {
    const pending: Pending[] = [];
    const join = knownJoin(own, pending, all, budget);
    for (const { rel, rule } of rules) {
      const at = rule.atoms.flatMap((a, i) => (own.has(a.rel) ? [i] : []));
      const ok = first ? join(rel, rule, undefined, -1)
        : at.every((i) => delta!.get(rule.atoms[i]!.rel) === undefined || join(rel, deltaFirst(rule, i), delta!.get(rule.atoms[i]!.rel), 0));
      if (!ok) return 'steps';
    }
    delta = new Map();
    for (const { rel, row, text = rowText(row) } of pending) {
      const table = own.get(rel)!;
      if (!addRow(table, row, text)) continue;
      if (++rows > rowsLeft.total || table.rows.length > rowsLeft.relation) return 'rows';
      if (!delta.has(rel)) delta.set(rel, newTable(row.length));
      addRow(delta.get(rel)!, row, text);
    }
  }
  return 'done';
}

/**
 * Whether the first round's joins would spend the budget's steps, counted before they run
 * (firstLevelsSteps): then the least model ends in 'steps' anyway, since every join of a round
 * runs before its rows are counted against the limits. The budget is then left spent (-1), as the
 * joins would leave it, so the steps charged to the component and the bounds computed are those
 * of the joins; only their time is saved.
 */
function firstRoundSpends(rules: readonly ComponentRule[], all: ReadonlyMap<string, Table>, budget: Budget): boolean {
  let steps = 0;
  for (const { rule } of rules) {
    steps += firstLevelsSteps(rule, all, budget.steps - steps);
    if (steps > budget.steps) {
      budget.steps = -1;
      return true;
    }
  }
  return false;
}

/** A head row found in a round, of relation `rel`; its text when the join made it. */
interface Pending {
  readonly rel: string;
  readonly row: readonly Term[];
  readonly text?: string;
}

/** One join of a round: the rule's head rows (of `rel`) into the round's rows; false when the budget ran out. */
type RoundJoin = (rel: string, rule: ComponentRule['rule'], delta: Table | undefined, deltaAt: number) => boolean;

/**
 * One round's joins, each adding its head rows to `pending`. A join that can look its head row up
 * before its last atom (headBoundAt) skips the rows known: in the relation's table (the rounds
 * before) or found this round by such a join. Only duplicates are skipped, so `pending` adds the
 * same rows to the tables, in the same order, as without the look-ups: only fewer steps are taken.
 */
function knownJoin(own: ReadonlyMap<string, Table>, pending: Pending[], all: ReadonlyMap<string, Table>, budget: Budget): RoundJoin {
  // The texts of the rows found this round by the joins that look rows up, per relation.
  const found = new Map([...own.keys()].map((k) => [k, new Set<string>()]));
  return (rel: string, rule: ComponentRule['rule'], delta: Table | undefined, deltaAt: number): boolean => {
    // A join that never looks rows up records none either (a text for every row would cost).
    if (headBoundAt(rule) >= rule.atoms.length - 1) return joinRule(rule, all, delta, deltaAt, (row) => void pending.push({ rel, row }), budget);
    const seen = found.get(rel)!;
    const table = own.get(rel)!;
    const emit = (row: readonly Term[], found = rowText(row)): void => {
      seen.add(found);
      pending.push({ rel, row, text: found });
    };
    const known = (text: string): boolean => seen.has(text) || table.seen.has(text);
    return joinRule(rule, all, delta, deltaAt, emit, budget, known);
  };
}

/**
 * The rule with atom `i` (the one reading the rows new in the last round) joined first, then
 * each time the atom with the most arguments the atoms before it bind (then the most constants,
 * then the rule's order):
 * the same rows (a join is a conjunction), but the few new rows bind the variables the other
 * atoms are looked up by, instead of every row of the atoms before it being tried for each
 * (kalaha's `plus` over 200 numbers: 40,000 steps a round before; racer's `add`, whose
 * `(smaller p0 ?y)` comes before the `succ` that binds ?y).
 */
function deltaFirst(rule: ComponentRule['rule'], i: number): ComponentRule['rule'] {
  const bound = varsOf(rule.atoms[i]!.args, new Set());
  const order = [rule.atoms[i]!];
  const rest = rule.atoms.filter((_, j) => j !== i);
  while (rest.length > 0) {
    // Arguments bound by the atoms before it count most; a constant argument breaks ties.
    const score = (a: JoinAtom): number => a.args.reduce((n, t) => {
      const vs = [...varsOf([t], new Set())];
      return n + (vs.length === 0 ? 1 : vs.every((v) => bound.has(v)) ? 1000 : 0);
    }, 0);
    const best = rest.reduce((b, a, j) => (score(a) > score(rest[b]!) ? j : b), 0);
    const [a] = rest.splice(best, 1);
    order.push(a!);
    varsOf(a!.args, bound);
  }
  return { ...rule, atoms: order };
}

/** Adds the variables of the terms to `out`, and returns it. */
function varsOf(ts: readonly Term[], out: Set<string>): Set<string> {
  for (const t of ts) termVars(t, out);
  return out;
}
