/**
 * Lemmas keyed through a static mapping relation (docs/mutex.md, "Lemmas through a mapping
 * relation", snake19): candidates for the joint proof (ground-joint.ts) that are neither a pair
 * nor one relation's group. The snake games' squares are 1-inductive only with "at most one move
 * points at a square, and none at the tail's" and three-literal clauses between a square and its
 * neighbours (snake18). Both are read off one rule shape, a *mapping rule*: a `next` rule whose
 * head h of relation R reads another fluent b of R (b's arguments, the *site*, differ from h's)
 * and a fluent q of another relation whose arguments start with b's (the snake's tail:
 * `(tailpos ?x ?y)`, `(cell ?x ?y ?move)`, `(nextcell ?x ?y ?move ?xn ?yn)`, ground: q maps its
 * site to h's). Its other body fluents are the rule's *conditions* (`evenmove`).
 *   - groups: h with every q mapped onto it (at most one);
 *   - clauses of three literals, at most one of them positive, over a site's fluents (those whose
 *     arguments are the site or start with it, but the mapped ones), over a mapped q (negative)
 *     and two fluents of the site it maps to, and over two fluents of a site and a condition. A
 *     mapped fluent enters a clause only through its mapping: at its own site, its claim's group
 *     covers it (the snake's moves, a symbol of their square).
 * Only what the sampled states (the initial one included) hold is kept; a clause two of whose
 * fluents are members of one of `claims` is skipped (implied by it, or by a shorter clause while it holds). No mapping rule,
 * no candidate: the pass costs one look at the rules. Hubs never enter by a link: the three
 * fluents of a clause share a site or a mapping rule, and a condition only joins a site's pair.
 */
import { type MutexView, atomFluents } from './view.js';

/** A candidate lemma: at most one of `members`, or a clause (`positive[i]`: the literal of `members[i]` is "true"). */
export type Lemma =
  | { readonly kind: 'group'; readonly members: readonly number[] }
  | { readonly kind: 'clause'; readonly members: readonly number[]; readonly positive: readonly boolean[] };

/** Limits of the generation; past `maxGenerated` clauses, none more are made. */
interface LemmaLimits {
  readonly maxGenerated: number;
  readonly maxKept: number;
  /** Asked every few states and per site: once it says to stop, no candidate is returned. */
  readonly stop: () => boolean;
}

/** The counts of a generation, for the stats. */
interface LemmaCounts {
  readonly mappingRules: number;
  readonly generated: number;
  readonly kept: number;
}

/** What the rules say: mapped fluents per head, the conditions, and the sites. */
interface Mapping {
  /** Per head fluent h: the fluents q mapped onto it (sorted, unique). */
  readonly onto: Map<number, number[]>;
  /** Per q: the heads it maps onto. */
  readonly from: Map<number, number[]>;
  readonly conditions: readonly number[];
  readonly rules: number;
}

/** Whether `pre`'s arguments start `args` (a fluent of `pre`'s site). */
function startsWith(args: readonly string[], pre: readonly string[]): boolean {
  if (pre.length === 0 || pre.length > args.length) return false;
  for (let i = 0; i < pre.length; i++) if (args[i] !== pre[i]) return false;
  return true;
}

/** The mapping rules of the game (module doc). */
function mappingOf(view: MutexView): Mapping {
  const { ofTrue, ofNext } = atomFluents(view);
  const onto = new Map<number, number[]>();
  const from = new Map<number, number[]>();
  const conditions = new Set<number>();
  let rules = 0;
  for (const r of view.rules) {
    const h = ofNext[r.head]!;
    if (h < 0) continue;
    const head = view.fluents[h]!;
    const body = r.pos.map((a) => ofTrue[a]!).filter((f) => f >= 0);
    const b = body.find((f) => f !== h && view.fluents[f]!.relation === head.relation && view.fluents[f]!.args.join(' ') !== head.args.join(' '));
    if (b === undefined) continue;
    const site = view.fluents[b]!.args;
    const qs = body.filter((f) => view.fluents[f]!.relation !== head.relation && startsWith(view.fluents[f]!.args, site) && view.fluents[f]!.args.length > site.length);
    if (qs.length === 0) continue;
    rules++;
    for (const q of qs) {
      pushUnique(onto, h, q);
      pushUnique(from, q, h);
    }
    for (const c of body) if (c !== b && !qs.includes(c)) conditions.add(c);
    for (const a of r.neg) if (ofTrue[a]! >= 0) conditions.add(ofTrue[a]!);
  }
  return { onto, from, conditions: [...conditions].sort((x, y) => x - y), rules };
}

/** Appends `v` to the list of `k` unless it is there. */
function pushUnique(m: Map<number, number[]>, k: number, v: number): void {
  const list = m.get(k);
  if (list === undefined) m.set(k, [v]);
  else if (!list.includes(v)) list.push(v);
}

/** Per site (the arguments of a head or of a body fluent of R, joined): the fluents whose arguments are it or start with it. */
function sitesOf(view: MutexView, m: Mapping): Map<string, number[]> {
  const sites = new Map<string, number[]>();
  for (const h of m.onto.keys()) sites.set(view.fluents[h]!.args.join(' '), []);
  view.fluents.forEach((f, i) => {
    for (let k = 1; k <= f.args.length; k++) sites.get(f.args.slice(0, k).join(' '))?.push(i);
  });
  return sites;
}

/** The three-literal sign patterns with at most one positive literal (index of the positive one, -1 none). */
const HORN = [-1, 0, 1, 2] as const;

/**
 * The candidate lemmas of the game held against `states` (the initial one first), `claims` (the
 * members of the groups being proven) used to skip clauses they imply. Empty when the game has
 * no mapping rule, or when `stop` said to stop.
 */
export function mappedLemmas(view: MutexView, states: readonly (readonly number[])[], claims: readonly (readonly number[])[], limits: LemmaLimits): { readonly lemmas: Lemma[]; readonly counts: LemmaCounts } {
  const m = mappingOf(view);
  const none = { lemmas: [], counts: { mappingRules: m.rules, generated: 0, kept: 0 } };
  if (m.rules === 0) return none;
  // A mapped fluent enters a clause only through its mapping: the fluents of a site are those not mapped.
  const sites = new Map([...sitesOf(view, m)].map(([k, fs]) => [k, fs.filter((f) => !m.from.has(f))]));
  const out: Lemma[] = [];
  for (const [h, qs] of m.onto) out.push({ kind: 'group', members: [h, ...qs].sort((x, y) => x - y) });
  // A clause with two members of a claim or of a group made here follows from it (while it holds).
  const groupOf = claimPartners(view, [...claims, ...out.map((g) => g.members)]);
  const add = (f: readonly number[], pos: number): void => {
    if (out.length >= limits.maxGenerated) return;
    if (implied(groupOf, f[0]!, f[1]!) || implied(groupOf, f[0]!, f[2]!) || implied(groupOf, f[1]!, f[2]!)) return;
    out.push({ kind: 'clause', members: f, positive: f.map((_, i) => i === pos) });
  };
  for (const site of sites.values()) {
    if (limits.stop()) return none;
    eachTriple(site, (t) => HORN.forEach((p) => add(t, p)));
    for (let i = 0; i < site.length; i++) {
      for (let j = i + 1; j < site.length; j++) for (const c of m.conditions) if (!site.includes(c)) HORN.forEach((p) => add([site[i]!, site[j]!, c], p));
    }
  }
  for (const [q, hs] of m.from) {
    for (const h of hs) {
      const site = sites.get(view.fluents[h]!.args.join(' ')) ?? [];
      for (let i = 0; i < site.length; i++) {
        for (let j = i + 1; j < site.length; j++) for (const p of [-1, 1, 2]) add([q, site[i]!, site[j]!], p);
      }
    }
  }
  const generated = out.length;
  const kept = heldByStates(view, out, states, limits.stop).slice(0, limits.maxKept);
  if (limits.stop()) return none;
  return { lemmas: kept, counts: { mappingRules: m.rules, generated, kept: kept.length } };
}

/** Calls `emit` with every three members of `xs`. */
function eachTriple(xs: readonly number[], emit: (t: readonly number[]) => void): void {
  for (let i = 0; i < xs.length; i++) for (let j = i + 1; j < xs.length; j++) for (let k = j + 1; k < xs.length; k++) emit([xs[i]!, xs[j]!, xs[k]!]);
}

/** Per fluent, the claims (indexes) it is a member of. */
function claimPartners(view: MutexView, claims: readonly (readonly number[])[]): readonly (readonly number[])[] {
  const of = view.fluents.map((): number[] => []);
  claims.forEach((c, k) => c.forEach((f) => of[f]!.push(k)));
  return of;
}

/**
 * Whether `a` and `b` are members of one claim: "not both" then follows from it, and a clause with
 * both is implied by it (both negative) or, while it holds, by the clause without the positive one.
 */
function implied(groupOf: readonly (readonly number[])[], a: number, b: number): boolean {
  return groupOf[a]!.some((k) => groupOf[b]!.includes(k));
}

/** States between two looks at `stop`. */
const STATES_PER_LOOK = 64;

/**
 * The lemmas no state refutes (a group with two members true, a clause with every literal false).
 * Each lemma is looked at only in the states that hold a fluent every refuting state holds true:
 * a group at each member, a clause at its negative literal whose fluent the fewest states hold
 * (snake_2009_big: a square's blank is true in most states, its moves in few). Which lemmas are
 * refuted does not depend on that choice, only how many are looked at.
 */
function heldByStates(view: MutexView, lemmas: readonly Lemma[], states: readonly (readonly number[])[], stop: () => boolean): Lemma[] {
  const trueIn = new Int32Array(view.fluents.length);
  for (const state of states) for (const f of state) trueIn[f]!++;
  const by = view.fluents.map((): number[] => []);
  lemmas.forEach((l, k) => {
    if (l.kind === 'group') for (const f of l.members) by[f]!.push(k);
    else by[rarestNegative(l, trueIn)]!.push(k);
  });
  const refuted = new Uint8Array(lemmas.length);
  const now = new Uint8Array(view.fluents.length);
  for (let s = 0; s < states.length; s++) {
    if (s % STATES_PER_LOOK === 0 && stop()) return [];
    const state = states[s]!;
    for (const f of state) now[f] = 1;
    for (const f of state) {
      for (const k of by[f]!) if (refuted[k] === 0 && refutes(lemmas[k]!, now, f)) refuted[k] = 1;
    }
    for (const f of state) now[f] = 0;
  }
  return lemmas.filter((_, k) => refuted[k] === 0);
}

/** The fluent of the clause's negative literal true in the fewest states (the first of those; a clause has one). */
function rarestNegative(l: Lemma & { readonly kind: 'clause' }, trueIn: Int32Array): number {
  let best = -1;
  l.members.forEach((f, i) => {
    if (!l.positive[i] && (best < 0 || trueIn[f]! < trueIn[best]!)) best = f;
  });
  return best;
}

/** Whether the state (`now`, with `f` true) refutes the lemma: a second group member true, or every clause literal false. */
function refutes(l: Lemma, now: Uint8Array, f: number): boolean {
  const ms = l.members;
  if (l.kind === 'group') {
    for (const g of ms) if (g !== f && now[g] === 1) return true;
    return false;
  }
  for (let i = 0; i < ms.length; i++) if ((now[ms[i]!] === 1) === l.positive[i]) return false;
  return true;
}
