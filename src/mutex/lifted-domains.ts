/**
 * Values forced by the rows of bounded relations (docs/mutex.md, "Values forced by the rows of
 * bounds", farm21): a settled case of the lifted proofs whose atoms of relations with a bound
 * (lifted-bounds.ts) leave a variable only one value binds it to that value, and one they leave
 * no value closes. Each true atom is a row of its bound, so a θ making the case's atoms true
 * takes, for every variable, a value some fitting row gives it: the values the atoms' rows
 * allow are narrowed atom by atom (a `distinct` against a ground term removes that term), then
 * for two atoms sharing two variables, by the pairs of rows that fit together. FARMERS_S's
 * stock: `(theast ?b ?y ?a)` (a - b = y) with `(wisfus ?y ?b)` (y >= b) and a few values of ?y
 * leave ?a = 0, the other rule's output, so the two rules agree.
 */
import type { Term } from '../gdl/ast.js';
import type { Literal } from '../normalize/types.js';
import { relOf } from './lifted-relax.js';
import { type Bound, matchesGround, patternText, varsOf } from './lifted-rows.js';
import { type Subst, ground, key, walk } from './lifted-terms.js';

/** The bounds of the derived relations, per `name/arity` (lifted-core.ts' `Bounds`). */
interface BoundOf {
  get(rel: string): Bound | undefined;
  /** The work left to this proof's forcing (lifted-bounds.ts' MAX_FORCING_WORK); none: no forcing. */
  readonly forcing?: Work;
  stateFree?(rel: string): boolean;
}

/** Rows scanned and row pairs tried that the forcing may still spend, shared by one proof's cases. */
interface Work {
  left: number;
}

/** Rows one atom may scan per round (past it the atom narrows nothing), and rounds of narrowing. */
const MAX_SCAN = 256;
const MAX_ROUNDS = 4;
/** Values of a variable whose rows' buckets are joined to find an atom's rows (more: not used). */
const MAX_DOMAIN_BUCKETS = 64;
/** Row pairs one pair of atoms may try (past it the pair narrows nothing). */
const MAX_PAIR_STEPS = 4096;

/** An atom of a bounded relation: its arguments cut to the bound's kept positions, and their variables. */
interface Item {
  readonly rel: string;
  readonly bound: Bound;
  readonly cut: readonly Term[];
  readonly vars: readonly string[];
}

/** Per variable, the values (by text) left to it; a variable not yet narrowed has none. */
type Domains = Map<string, Map<string, Term>>;

/**
 * Narrows the values of the case's variables by the rows of its bounded atoms and binds those
 * left one value in `s`: 'changed' (some bound), 'conflict' (a variable left none: no θ exists)
 * or 'same'.
 */
export function forcedByRows(body: readonly Literal[], s: Subst, over: BoundOf, goal: readonly [Term[], Term[]] | undefined): 'changed' | 'same' | 'conflict' {
  // Past its work the forcing says nothing (its bounds are not even asked for: they cost too).
  const work = over.forcing;
  if (work === undefined || work.left <= 0) return 'same';
  // Only where the two heads' outputs still differ in a variable (the values are forced for the goal's sake).
  const outputs = goal === undefined ? [] : [...goal[0], ...goal[1]].flatMap((t) => varsOf(t, s));
  if (outputs.length === 0 || !pairPossible(body, s, over, outputs)) return 'same';
  const items: Item[] = [];
  for (const l of body) {
    if (l.kind !== 'pos') continue;
    const b = over.get(relOf(l.atom));
    if (b === undefined || b.rows.length === 0) continue;
    const cut = b.keep.map((i) => l.atom.args[i]!);
    const vars = [...new Set(cut.flatMap((t) => varsOf(t, s)))];
    if (vars.length > 0) items.push({ rel: relOf(l.atom), bound: b, cut, vars });
  }
  // Only a pair of atoms sharing two variables narrows what each alone does not (cost: the atoms
  // alone are scanned in every settled case otherwise, 100 processor seconds on FARMERS_S).
  // Two atoms of one relation are checked in pairs already (lifted-rows.ts, for a conflict only):
  // forcing values from them cost colonelBlotto's `(gt ?x ?y)` pairs its whole budget.
  // And only pairs of state-free relations (arithmetic tables): pairs of dynamic bounds cost
  // checkers' lifted proofs the budget (601 rule pairs in 9.3 processor s against 2,062 in 4.5).
  const pairs = items.flatMap((a, i) => items.slice(i + 1).flatMap((b) => (a.rel !== b.rel && a.bound.stateFree === true && b.bound.stateFree === true && a.vars.filter((v) => b.vars.includes(v)).length >= 2 ? [[a, b] as const] : [])));
  if (!pairs.some(([a, b]) => outputs.some((v) => a.vars.includes(v) || b.vars.includes(v)))) return 'same';
  const excluded = distinctValues(body, s);
  // The answer depends only on the atoms' pattern (variables named by first occurrence) and the
  // values the `distinct`s exclude: kept per pattern in the first atom's bound, one per proof.
  const names = new Map<string, string>();
  const pattern = items.map((it) => `${it.rel} ${it.cut.map((x) => patternText(x, s, names, () => undefined)).join(' ')}`).join(' ; ');
  const key0 = `${pattern} | ${[...names].flatMap(([v, n]) => (excluded.has(v) ? [`${n}!=${[...excluded.get(v)!].sort().join(',')}`] : [])).join(' ')}`;
  const memo = (items[0]!.bound.forced ??= new Map());
  let found = memo.get(key0);
  if (found === undefined) memo.set(key0, (found = narrowed(items, pairs, s, excluded, names, work)));
  if (found === 'conflict') return 'conflict';
  const byName = new Map([...names].map(([v, n]) => [n, v]));
  for (const [n, value] of found) s.set(byName.get(n)!, value);
  return found.length > 0 ? 'changed' : 'same';
}

/**
 * Whether two atoms of two different state-free relations share two variables, one of them an
 * output's: told from the relations alone, before any bound is asked for (asking computes it:
 * 2.7 processor s of FARMERS_S's budget in the bench worker, for 6 cases of 998 that had a pair).
 * All the atoms' arguments are read, not only the bounds' kept ones: a pair found later is one here.
 */
function pairPossible(body: readonly Literal[], s: Subst, over: BoundOf, outputs: readonly string[]): boolean {
  const atoms = body.flatMap((l) => (l.kind === 'pos' && over.stateFree?.(relOf(l.atom)) === true ? [{ rel: relOf(l.atom), vars: new Set(l.atom.args.flatMap((t) => varsOf(t, s))) }] : []));
  return atoms.some((a, i) => atoms.slice(i + 1).some((b) => a.rel !== b.rel && [...a.vars].filter((v) => b.vars.has(v)).length >= 2 && outputs.some((v) => a.vars.has(v) || b.vars.has(v))));
}

/** The values left one choice (by pattern name: `names` maps the case's variables to them), or 'conflict'. */
function narrowed(
  items: readonly Item[], pairs: readonly (readonly [Item, Item])[], s: Subst, excluded: ReadonlyMap<string, ReadonlySet<string>>, names: ReadonlyMap<string, string>, work: Work,
): readonly (readonly [string, Term])[] | 'conflict' {
  const dom: Domains = new Map();
  for (let round = 0, changed = true; changed && round < MAX_ROUNDS; round++) {
    changed = false;
    for (const item of items) {
      const seen = fittingValues(item, s, dom, excluded, work);
      if (seen === 'conflict') return 'conflict';
      if (seen !== undefined) changed = narrow(dom, seen) || changed;
    }
  }
  for (const [x, y] of pairs) {
    // The atom with fewer rows to scan first: the other is looked up under its bindings.
    const [a, b] = (candidateRows(y, s, dom)?.length ?? Infinity) < (candidateRows(x, s, dom)?.length ?? Infinity) ? [y, x] : [x, y];
    const seen = pairValues(a, b, s, dom, excluded, work);
    if (seen === 'conflict') return 'conflict';
    if (seen !== undefined) narrow(dom, seen);
  }
  const out: [string, Term][] = [];
  for (const [v, values] of dom) {
    if (values.size === 0) return 'conflict';
    if (values.size === 1) out.push([names.get(v)!, [...values.values()][0]!]);
  }
  return out;
}

/** Per variable, the ground terms a `distinct` of the body says it is not. */
function distinctValues(body: readonly Literal[], s: Subst): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const l of body) {
    if (l.kind !== 'distinct') continue;
    for (const [x, y] of [[l.left, l.right], [l.right, l.left]] as const) {
      const u = walk(x, s);
      if (u.kind === 'var' && ground(y, s)) out.set(u.name, new Set([...(out.get(u.name) ?? []), key(y, s)]));
    }
  }
  return out;
}

/** Intersects the domains with the values seen per variable; true when one became smaller or known. */
function narrow(dom: Domains, seen: Domains): boolean {
  let changed = false;
  for (const [v, values] of seen) {
    const old = dom.get(v);
    if (old === undefined) {
      dom.set(v, values);
      changed = true;
      continue;
    }
    for (const t of [...old.keys()]) if (!values.has(t)) (old.delete(t), (changed = true));
  }
  return changed;
}

/** Whether the bindings of `local` are values the domains and the `distinct`s allow. */
function allowed(local: ReadonlyMap<string, Term>, s: Subst, dom: Domains, excluded: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  for (const [v, t] of local) {
    const k = key(t, s);
    const d = dom.get(v);
    if ((d !== undefined && !d.has(k)) || excluded.get(v)?.has(k) === true) return false;
  }
  return true;
}

/**
 * The rows the item may take: those of the position with the fewest, over the ground argument's
 * bucket or the union of its variable's values' buckets; undefined past {@link MAX_SCAN}.
 */
function candidateRows(item: Item, s: Subst, dom: Domains): readonly (readonly Term[])[] | undefined {
  let best: { readonly at: number; readonly texts: readonly string[]; readonly size: number } | undefined;
  for (let i = 0; i < item.cut.length; i++) {
    const u = walk(item.cut[i]!, s);
    const index = item.bound.index[i]!;
    const d = u.kind === 'var' ? dom.get(u.name) : undefined;
    const texts = d !== undefined ? (d.size <= MAX_DOMAIN_BUCKETS ? [...d.keys()] : undefined) : u.kind !== 'var' && ground(u, s) ? [key(u, s)] : undefined;
    if (texts === undefined) continue;
    let size = 0;
    for (const t of texts) size += index.get(t)?.length ?? 0;
    if (best === undefined || size < best.size) best = { at: i, texts, size };
  }
  if (best === undefined) return item.bound.rows.length > MAX_SCAN ? undefined : item.bound.rows;
  if (best.size > MAX_SCAN) return undefined;
  const index = item.bound.index[best.at]!;
  return best.texts.length === 1 ? index.get(best.texts[0]!) ?? [] : best.texts.flatMap((t) => index.get(t) ?? []);
}

/** Adds every binding of `local` to `seen`. */
function record(seen: Domains, local: ReadonlyMap<string, Term>, s: Subst): void {
  for (const [v, t] of local) {
    let d = seen.get(v);
    if (d === undefined) seen.set(v, (d = new Map()));
    d.set(key(t, s), t);
  }
}

/** The values the item's fitting rows give its variables; 'conflict' when none fits, undefined when too many to scan (or past the work). */
function fittingValues(item: Item, s: Subst, dom: Domains, excluded: ReadonlyMap<string, ReadonlySet<string>>, work: Work): Domains | 'conflict' | undefined {
  const rows = candidateRows(item, s, dom);
  if (rows === undefined || (work.left -= rows.length) < 0) return undefined;
  const seen: Domains = new Map();
  let fits = false;
  for (const row of rows) {
    const local = new Map<string, Term>();
    if (!item.cut.every((x, k) => matchesGround(x, row[k]!, s, local)) || !allowed(local, s, dom, excluded)) continue;
    fits = true;
    record(seen, local, s);
  }
  return fits ? seen : 'conflict';
}

/**
 * The values two items' rows give their variables when the rows fit together (the second's rows
 * looked up under the first's bindings); 'conflict' when no two fit, undefined past the limits (or the work).
 */
function pairValues(a: Item, b: Item, s: Subst, dom: Domains, excluded: ReadonlyMap<string, ReadonlySet<string>>, work: Work): Domains | 'conflict' | undefined {
  const rows = candidateRows(a, s, dom);
  if (rows === undefined || (work.left -= rows.length) < 0) return undefined;
  const seen: Domains = new Map();
  let steps = 0;
  let fits = false;
  for (const row of rows) {
    const local = new Map<string, Term>();
    if (!a.cut.every((x, k) => matchesGround(x, row[k]!, s, local)) || !allowed(local, s, dom, excluded)) continue;
    // The second item's rows under the first's bindings (the domains are checked on each row).
    const fixed: Domains = new Map();
    for (const [v, t] of local) fixed.set(v, new Map([[key(t, s), t]]));
    const others = candidateRows(b, s, fixed);
    if (others === undefined) return undefined;
    for (const other of others) {
      if (++steps > MAX_PAIR_STEPS || --work.left < 0) return undefined;
      const more = new Map(local);
      if (!b.cut.every((x, k) => matchesGround(x, other[k]!, s, more)) || !allowed(more, s, dom, excluded)) continue;
      fits = true;
      record(seen, more, s);
    }
  }
  return fits ? seen : 'conflict';
}
