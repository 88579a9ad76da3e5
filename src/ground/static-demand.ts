/**
 * Static relations on demand (issue 27, docs/corpus.md "Static relations on demand"): a static
 * component whose relations are read only through atoms that bind some of their columns is not
 * evaluated whole at its place in the order; its rules run later, when a component that reads
 * it runs, seeded by what that reader asks (the magic-sets idea, over the instantiation's own
 * join: src/ground/static-demand-run.ts runs it). This module makes the plan: which components
 * wait, the columns each of their relations is asked on (the same at every call, so one magic
 * relation per relation), and the rules that compute the asked tuples.
 *
 * A call binds a column when every variable of it occurs in an atom whose store is complete
 * when the caller runs: a relation that does not wait, outside the caller's own component and
 * not lazy; in a waiting component's rule also the asked columns of its own head (the magic
 * atom). The asked tuples are a semi-join of those atoms, so a superset of what the join of the
 * caller reads: the rows of the relation that match them are all its rows the caller can use.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { OUTPUT_KEYWORD_SET } from '../gdl/keywords.js';
import type { NormalGame, NormalRule } from '../normalize/types.js';
import { gameSymbols } from './split.js';
import type { JoinRule } from './compile.js';
import type { GroundFact } from './evaluate.js';

/** A component of the instantiation order (instantiate.ts, `componentsInOrder`). */
export interface DemandComponent {
  readonly rels: ReadonlySet<string>;
  readonly rules: readonly JoinRule[];
  readonly facts: readonly GroundFact[];
}

/** What waits, and how its demand is asked. */
export interface DemandPlan {
  /** The component index of every relation of a waiting component. */
  readonly waiting: ReadonlyMap<string, number>;
  /** Per waiting relation, the 0-based columns it is asked on (never empty). */
  readonly cols: ReadonlyMap<string, readonly number[]>;
  /** Per waiting relation, its magic relation's name (a static relation of the run). */
  readonly magic: ReadonlyMap<string, string>;
  readonly key: (atom: Atom) => string;
}

/** What the plan must not defer: relations read after the joins, or already seeded. */
interface DemandExclusions {
  readonly statics: ReadonlySet<string>;
  /** Relations read after the components' loop (roles, init, the lazy part's facts, ...). */
  readonly keep: ReadonlySet<string>;
  readonly lazy?: ReadonlySet<string>;
}

/** Relations that only the description defines and that are read after the joins. */
const READ_AFTER = new Set(['role', 'init', 'base', 'input']);

function termVars(t: Term, out: Set<string>): void {
  const stack: Term[] = [t];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === 'var') out.add(x.name);
    else if (x.kind === 'fn') for (const a of x.args) stack.push(a);
  }
}

function atomVars(a: Atom): Set<string> {
  const out = new Set<string>();
  for (const t of a.args) termVars(t, out);
  return out;
}

/** The magic atom of `atom` (a waiting relation's): its asked columns under the magic name. */
function magicAtom(plan: DemandPlan, atom: Atom): Atom {
  const rel = plan.key(atom);
  return { ...atom, rel: plan.magic.get(rel)!, args: plan.cols.get(rel)!.map((i) => atom.args[i]!) };
}

/** The positive atoms of `rule` whose stores are complete when it runs (see the module comment). */
function available(rule: NormalRule, waiting: ReadonlySet<string>, own: ReadonlySet<string>, lazy: ReadonlySet<string> | undefined, key: (a: Atom) => string): Atom[] {
  const out: Atom[] = [];
  for (const l of rule.body) {
    if (l.kind !== 'pos') continue;
    const rel = key(l.atom);
    if (!waiting.has(rel) && !own.has(rel) && lazy?.has(rel) !== true) out.push(l.atom);
  }
  return out;
}

/** A call of a waiting relation: the rule, its atom, and the complete atoms beside it. */
interface Site {
  readonly rule: NormalRule;
  readonly atom: Atom;
  readonly rel: string;
  readonly beside: readonly Atom[];
  /** The rule's head when the rule is a waiting component's (its magic atom binds too). */
  readonly head?: Atom;
}

function sitesOf(components: readonly DemandComponent[], waiting: ReadonlyMap<string, number>, lazy: ReadonlySet<string> | undefined, key: (a: Atom) => string): Site[] {
  const names = new Set(waiting.keys());
  const sites: Site[] = [];
  for (const c of components) {
    for (const r of c.rules) {
      const rule = r.source;
      const inside = waiting.has(key(rule.head));
      const beside = available(rule, names, c.rels, lazy, key);
      for (const l of rule.body) {
        if (l.kind !== 'pos' || !names.has(key(l.atom))) continue;
        sites.push({ rule, atom: l.atom, rel: key(l.atom), beside, ...(inside ? { head: rule.head } : {}) });
      }
    }
  }
  return sites;
}

/** A site's variables, gathered once: its fixpoint below looks at each site again whenever its head's columns shrink. */
interface SiteVars {
  readonly site: Site;
  /** Variables of the complete atoms beside the call. */
  readonly beside: ReadonlySet<string>;
  /** Per argument of the call, its variables. */
  readonly args: readonly (readonly string[])[];
  /** The head's relation when the site is a waiting component's (its asked columns bind too). */
  readonly headRel?: string;
}

function siteVars(site: Site, key: (a: Atom) => string): SiteVars {
  const beside = new Set<string>();
  for (const a of site.beside) for (const v of atomVars(a)) beside.add(v);
  const args = site.atom.args.map((t) => {
    const vs = new Set<string>();
    termVars(t, vs);
    return [...vs];
  });
  return { site, beside, args, ...(site.head !== undefined ? { headRel: key(site.head) } : {}) };
}

/** Columns of the site's atom bound by the atoms beside it (and its head's asked columns). */
function boundCols(s: SiteVars, cols: ReadonlyMap<string, readonly number[]>): number[] {
  let bound: ReadonlySet<string> = s.beside;
  if (s.headRel !== undefined) {
    const more = new Set(s.beside);
    for (const i of cols.get(s.headRel)!) termVars(s.site.head!.args[i]!, more);
    bound = more;
  }
  const out: number[] = [];
  s.args.forEach((vs, i) => {
    if (vs.every((v) => bound.has(v))) out.push(i);
  });
  return out;
}

/** A component that may wait: static, rules of its own, none of its relations read after the joins or negated. */
function mayWait(c: DemandComponent, ex: DemandExclusions, negated: ReadonlySet<string>): boolean {
  if (c.rules.length === 0) return false;
  for (const rel of c.rels) {
    const name = rel.split('/')[0]!;
    if (!ex.statics.has(rel) || ex.keep.has(rel) || negated.has(rel) || READ_AFTER.has(name) || OUTPUT_KEYWORD_SET.has(name)) return false;
  }
  return true;
}

/** The asked columns of every waiting relation: intersected over its calls until none changes. */
function askedColumns(components: readonly DemandComponent[], waiting: ReadonlyMap<string, number>, lazy: ReadonlySet<string> | undefined, key: (a: Atom) => string): Map<string, number[]> {
  const sites = sitesOf(components, waiting, lazy, key);
  const cols = new Map<string, number[]>();
  for (const s of sites) if (!cols.has(s.rel)) cols.set(s.rel, s.atom.args.map((_, i) => i));
  // A waiting relation no rule reads keeps every column: it is never asked, never evaluated.
  for (const rel of waiting.keys()) if (!cols.has(rel)) cols.set(rel, [0]);
  // Columns only shrink, and a site's bound columns depend only on its head's asked columns, so
  // a worklist reaches the same greatest fixpoint as sweeping every site until none changes; the
  // sweeps were quadratic on a long chain of waiting relations (a fuzzed gt_chicken with a
  // 1,000-relation recursive chain: a second of processor time past a 0.5 s limit).
  const vars = sites.map((s) => siteVars(s, key));
  const byHead = new Map<string, SiteVars[]>();
  for (const v of vars) {
    if (v.headRel === undefined) continue;
    const list = byHead.get(v.headRel);
    if (list === undefined) byHead.set(v.headRel, [v]);
    else list.push(v);
  }
  const work = [...vars].reverse();
  while (work.length > 0) {
    const v = work.pop()!;
    const bound = new Set(boundCols(v, cols));
    const now = cols.get(v.site.rel)!;
    const next = now.filter((i) => bound.has(i));
    if (next.length === now.length) continue;
    cols.set(v.site.rel, next);
    for (const w of byHead.get(v.site.rel) ?? []) work.push(w);
  }
  return cols;
}

/**
 * The plan of a run: components that may wait, less those with a relation no call binds a
 * column of (asked whole: nothing to gain), repeated until every waiting relation has asked
 * columns (a component that stops waiting makes its atoms complete for the others' calls).
 */
export function planDemand(components: readonly DemandComponent[], ex: DemandExclusions, key: (a: Atom) => string, prefix: string): DemandPlan {
  const negated = new Set<string>();
  for (const c of components) for (const r of c.rules) for (const n of r.negatives) negated.add(n.rel);
  const waiting = new Map<string, number>();
  components.forEach((c, i) => {
    if (mayWait(c, ex, negated)) for (const rel of c.rels) waiting.set(rel, i);
  });
  for (;;) {
    const cols = askedColumns(components, waiting, ex.lazy, key);
    const drop = new Set<number>();
    for (const [rel, c] of cols) if (c.length === 0) drop.add(waiting.get(rel)!);
    if (drop.size === 0) {
      const magic = new Map([...waiting.keys()].sort().map((rel, i) => [rel, `${prefix}-${i + 1}`]));
      return { waiting, cols, magic, key };
    }
    for (const [rel, i] of [...waiting]) if (drop.has(i)) waiting.delete(rel);
  }
}

/**
 * The rule that asks for `atom`'s tuples at a call in `rule`: the magic atom of the call as
 * head, and as body the rule's head's magic atom (when `inside`) and, of the complete atoms
 * beside the call, those needed to bind the asked columns, taken in body order (fewer atoms:
 * a larger, still complete demand, for a cheaper join). An empty body: the tuple is ground.
 */
export function askRule(plan: DemandPlan, rule: NormalRule, atom: Atom, own: ReadonlySet<string>, lazy: ReadonlySet<string> | undefined): NormalRule {
  const names = new Set(plan.waiting.keys());
  const head = magicAtom(plan, atom);
  const needed = new Set<string>();
  for (const t of head.args) termVars(t, needed);
  const body: Atom[] = [];
  const bound = new Set<string>();
  if (plan.waiting.has(plan.key(rule.head))) {
    const m = magicAtom(plan, rule.head);
    body.push(m);
    for (const t of m.args) termVars(t, bound);
  }
  for (const a of available(rule, names, own, lazy, plan.key)) {
    const vs = atomVars(a);
    if (![...vs].some((v) => needed.has(v) && !bound.has(v))) continue;
    body.push(a);
    for (const v of vs) bound.add(v);
  }
  return { head, body: body.map((a) => ({ kind: 'pos', atom: a })), pos: rule.pos };
}

/** `rule` (of a waiting component) seeded: its head's magic atom first in the body. */
export function seededRule(plan: DemandPlan, rule: NormalRule): NormalRule {
  return { ...rule, body: [{ kind: 'pos', atom: magicAtom(plan, rule.head) }, ...rule.body] };
}

/** The magic relations' prefix: `demand`, then as many `x` as no symbol of the game starts with. */
export function demandPrefix(game: NormalGame): string {
  const all = [...gameSymbols(game, 'demand')];
  let prefix = 'demand';
  while (all.some((s) => s.startsWith(prefix))) prefix += 'x';
  return prefix;
}
