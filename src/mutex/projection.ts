/**
 * "At most one" claims proven by a state search on a projection (docs/mutex.md 2m): for a claim
 * still open after every other pass, a set P of fluents closed under its `next` rules
 * (projection-cone.ts) is searched from the initial state's restriction, every joint move of the
 * moves P's cone reads taken, a move whose legality P does not decide taken as possibly legal, so
 * that the projected states reached are a superset of the reachable states' projections. A claim
 * no reached projected state violates holds in every reachable state. Every step of the pass is
 * counted in one meter: the index, the closures, the compiled cones, the states.
 */
import { Deadline } from '../deadline.js';
import type { Claim, ClaimVerdict } from './prove.js';
import { type Program, compileCone, evaluate } from './projection-compile.js';
import { type Closure, type ConeIndex, Meter, closeProjection, coneIndex, coneIndexCost } from './projection-cone.js';
import { type Projected, representative, symmetries } from './projection-symmetry.js';
import type { MutexView } from './view.js';

/**
 * Caps, counted: fluents in P (64: a majorities line of nine squares needs 42), atoms a closure's
 * walk may visit (a compiled cone four times that), projected states per search, and the work of
 * the whole pass (about 30 million units a processor second here).
 */
const CAPS = { maxFluents: 64, maxAtoms: 20_000, maxStates: 100_000, maxWork: 60_000_000 };

/** What the pass did, for the tests. */
interface ProjectionResult {
  readonly verdicts: readonly ClaimVerdict[];
  readonly proven: number;
  readonly searches: number;
  readonly states: number;
  readonly work: number;
  /** The work cap or the deadline stopped the pass before every claim was tried. */
  readonly cut: boolean;
}

/** Claims sharing one projection. */
interface Search {
  readonly closure: Closure;
  readonly claims: number[];
  readonly set: ReadonlySet<number>;
}

/**
 * The share of the reserve past the proofs' deadline (kept for the choice of the encoding) the
 * pass may use: a quarter, half a second of the default two. The pass looks at the clock once
 * per {@link Meter}'s units (milliseconds), so it ends within a few of its deadline, and the
 * choice keeps three quarters of its reserve (card17 took half, and amazonsTorus's choice ran
 * out: docs/mutex.md 2m).
 */
const RESERVE_SHARE = 0.25;

/** The pass's deadline: the proofs', extended by {@link RESERVE_SHARE} of the reserve up to `end`. */
function passDeadline(deadline: Deadline, end: Deadline | undefined): Deadline {
  if (end === undefined || deadline.cpuAt === Infinity || end.cpuAt === Infinity) return deadline;
  return new Deadline(end.at, end.maxHeapBytes, end.signal, deadline.cpuAt + (end.cpuAt - deadline.cpuAt) * RESERVE_SHARE);
}

/**
 * Tries every "at most one" claim whose verdict is not `proven` and that `skip` does not name
 * (claims refuted elsewhere), one search per projection. It starts only before the proofs'
 * `deadline` and runs until {@link passDeadline}. Returns the verdicts with those it proved set
 * to `proven`.
 */
export function proveByProjection(view: MutexView, claims: readonly Claim[], verdicts: readonly ClaimVerdict[], budget: { readonly deadline: Deadline; readonly end?: Deadline }, skip: (k: number) => boolean = () => false): ProjectionResult {
  const open = (k: number): boolean => claims[k]!.kind === 'amo' && verdicts[k] !== 'proven' && !skip(k);
  const none = (cut: boolean): ProjectionResult => ({ verdicts, proven: 0, searches: 0, states: 0, work: 0, cut });
  if (!claims.some((_, k) => open(k))) return none(false);
  const meter = new Meter(CAPS.maxWork, passDeadline(budget.deadline, budget.end));
  if (budget.deadline.passed() || !meter.fits(coneIndexCost(view))) return none(true);
  meter.spend(coneIndexCost(view));
  const ix = coneIndex(view);
  const searches = shareSearches(projections(ix, claims, open, meter), meter);
  const out = [...verdicts];
  let proven = 0;
  for (const { closure, claims: ks } of searches) {
    if (meter.cut) break;
    meter.searches++;
    const held = search(ix, closure, ks.map((k) => claims[k]!.members), meter);
    ks.forEach((k, j) => held?.[j] === true && ((out[k] = 'proven'), proven++));
  }
  return { verdicts: out, proven, searches: meter.searches, states: meter.states, work: meter.work, cut: meter.cut };
}

/**
 * The open claims by projection: a claim whose members all lie in a P already found joins it
 * (P is closed, so it is also an over-approximation for the claim), else its own closure is
 * computed (claims whose closure exceeds the caps are left).
 */
function projections(ix: ConeIndex, claims: readonly Claim[], open: (k: number) => boolean, meter: Meter): Search[] {
  const found: Search[] = [];
  const byKey = new Map<string, Search>();
  // Per fluent, the projections found that hold it.
  const hosts = new Map<number, Search[]>();
  for (let k = 0; k < claims.length && !meter.cut; k++) {
    if (!open(k)) continue;
    const members = claims[k]!.members;
    const candidates = hosts.get(members[0]!) ?? [];
    meter.spend(1 + candidates.length * members.length);
    const host = candidates.find((s) => members.every((f) => s.set.has(f)));
    if (host !== undefined) {
      host.claims.push(k);
      continue;
    }
    const closure = closeProjection(ix, members, CAPS, meter);
    if (closure === undefined) continue;
    const key = closure.fluents.join(',');
    const same = byKey.get(key);
    if (same !== undefined) {
      same.claims.push(k);
      continue;
    }
    const s: Search = { closure, claims: [k], set: new Set(closure.fluents) };
    found.push(s), byKey.set(key, s);
    for (const f of closure.fluents) hosts.set(f, [...(hosts.get(f) ?? []), s]);
  }
  return found;
}

/**
 * One search per projection that no larger one contains: a claim whose P lies inside another
 * claim's P' is checked on P' (also closed, so also an over-approximation), which on majorities
 * makes one search per line instead of one per count. Then the smallest first: the cheapest.
 */
function shareSearches(all: Search[], meter: Meter): Search[] {
  const kept: Search[] = [];
  for (const c of all.sort((a, b) => b.closure.fluents.length - a.closure.fluents.length)) {
    if (!meter.spend(1 + kept.length * c.closure.fluents.length)) break;
    const host = kept.find((k) => c.closure.fluents.every((f) => k.set.has(f)));
    if (host !== undefined) host.claims.push(...c.claims);
    else kept.push(c);
  }
  return kept.reverse();
}

/** Per role, the moves to try: [does local atom, legal local atom or -1 for "possibly legal"]; does -1 for "a move P's cone does not read". */
type Options = readonly (readonly (readonly [number, number])[])[];

/** The search of one projection: per group, whether it held on every projected state reached (undefined: cut). */
function search(ix: ConeIndex, closure: Closure, groups: readonly (readonly number[])[], meter: Meter): boolean[] | undefined {
  const { view } = ix;
  const legals = closure.decided.map((a) => ix.legalOfDoes[a]!);
  const roots = [...closure.fluents.map((f) => view.fluents[f]!.nextAtom), ...legals];
  const prog = compileCone(ix, roots, 4 * CAPS.maxAtoms, meter);
  if (prog === undefined) return undefined;
  const posInP = new Map(closure.fluents.map((f, i) => [f, i]));
  // The cone's leaves that are fluents, as [local atom, position in P]; all in P (P is closed).
  const leaves: [number, number][] = [];
  for (let a = 0; a < prog.size; a++) if (prog.leafFluent[a]! >= 0) leaves.push([a, posInP.get(prog.leafFluent[a]!) ?? -1]);
  if (leaves.some(([, p]) => p < 0)) return undefined;
  const options = moveOptions(ix, closure, prog.local, meter);
  const nextLocal = closure.fluents.map((f) => prog.local.get(view.fluents[f]!.nextAtom) ?? -1);
  const groupPos = groups.map((g) => g.map((f) => posInP.get(f)!));
  const alive = groups.map(() => true);
  const init = new Set(view.init);
  const start0 = closure.fluents.map((f) => (init.has(f) ? '1' : '0')).join('');
  const gens = symmetries(projected(ix, closure, prog, leaves, options, nextLocal, groupPos, start0), meter);
  const start = representative(start0, gens, meter);
  const seen = new Set([start]);
  const queue = [start];
  const vals = new Uint8Array(prog.size);
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    groupPos.forEach((g, j) => alive[j] && g.reduce((n, p) => n + (s.charCodeAt(p) === 49 ? 1 : 0), 0) > 1 && (alive[j] = false));
    if (!alive.includes(true)) return alive;
    if (seen.size > CAPS.maxStates) return undefined;
    vals.fill(0);
    for (const [a, p] of leaves) vals[a] = s.charCodeAt(p) === 49 ? 1 : 0;
    if (!meter.spend(prog.size + groupPos.length + evaluate(prog, vals, false))) return undefined;
    const choices = options.map((os) => os.filter(([, l]) => l < 0 || vals[l] === 1));
    if (choices.some((c) => c.length === 0)) continue;
    // Every joint move of the choices (an odometer over the roles).
    const at = choices.map(() => 0);
    for (;;) {
      choices.forEach((c, r) => c.forEach(([d], i) => d >= 0 && (vals[d] = i === at[r] ? 1 : 0)));
      const work = evaluate(prog, vals, true);
      const t = representative(nextLocal.map((l) => (l >= 0 && vals[l] === 1 ? '1' : '0')).join(''), gens, meter);
      if (!seen.has(t)) seen.add(t), queue.push(t), meter.states++;
      if (!meter.spend(work + nextLocal.length + choices.length)) return undefined;
      let r = 0;
      while (r < at.length && ++at[r]! === choices[r]!.length) at[r++] = 0;
      if (r === at.length) break;
    }
  }
  return alive;
}

/** The search's projection as its symmetries are found on it (projection-symmetry.ts). */
function projected(ix: ConeIndex, closure: Closure, prog: Program, leaves: readonly (readonly [number, number])[], options: Options, nextLocal: readonly number[], groups: readonly (readonly number[])[], start: string): Projected {
  const posOfLeaf = new Int32Array(prog.size).fill(-1);
  const leafOf = new Int32Array(nextLocal.length).fill(-1);
  for (const [a, p] of leaves) (posOfLeaf[a] = p), (leafOf[p] = a);
  const roleOfDoes = new Int32Array(prog.size).fill(-1);
  const legalOfDoes = new Int32Array(prog.size).fill(-2);
  for (const d of closure.does) {
    const a = prog.local.get(d);
    if (a !== undefined) roleOfDoes[a] = ix.roleOfDoes[d]!;
  }
  for (const os of options) for (const [d, l] of os) if (d >= 0) legalOfDoes[d] = l;
  const kinds = closure.fluents.map((f, i) => `${ix.view.fluents[f]!.relation}:${start[i]}`);
  return { prog, posOfLeaf, leafOf, nextLocal, kinds, roleOfDoes, legalOfDoes, groups };
}

/**
 * Per role, its moves P's cone reads (with their legal atom when P decides it; a move with no
 * legal atom is never legal) and one entry for all its other moves, taken as possibly legal (a
 * role with no move listed gets that entry too).
 */
function moveOptions(ix: ConeIndex, closure: Closure, local: ReadonlyMap<number, number>, meter: Meter): Options {
  const read = new Set(closure.does);
  const decided = new Set(closure.decided);
  return ix.view.moves.map((ms) => {
    meter.spend(ms.length);
    const own: (readonly [number, number])[] = [];
    for (const m of ms) {
      if (m.does < 0 || !read.has(m.does) || m.legal < 0) continue;
      own.push([local.get(m.does)!, decided.has(m.does) ? local.get(m.legal)! : -1]);
    }
    const other = ms.length === 0 || ms.some((m) => m.legal >= 0 && (m.does < 0 || !read.has(m.does)));
    return other ? [...own, [-1, -1] as const] : own;
  });
}
