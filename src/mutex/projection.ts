/**
 * "At most one" claims proven by a state search on a projection (docs/mutex.md, "Projection
 * search"): for a claim left unproven, a set P of fluents closed under its `next` rules
 * (projection-cone.ts) is searched from the initial state's restriction, every joint move of
 * the moves P's cone reads taken, a move whose legality P does not decide taken as possibly
 * legal, so that the projected states reached are a superset of the reachable states' projections.
 * A claim no reached projected state violates holds in every reachable state.
 */
import { Deadline } from '../deadline.js';
import type { Claim, ClaimVerdict } from './prove.js';
import { type Closure, type ConeIndex, type Program, closeProjection, coneIndex, compileCone, legalAtoms } from './projection-cone.js';
import type { MutexView } from './view.js';

/**
 * Caps, counted: fluents in P (64: a majorities line of nine squares needs 42), atoms a closure
 * may visit, projected states per search, and the work of the whole pass in rule evaluations
 * and atoms visited (about 30 million a processor second here).
 */
const CAPS = { maxFluents: 64, maxAtoms: 20_000, maxStates: 100_000, maxWork: 60_000_000 };

/**
 * The stage's budgets: the proofs' `deadline`, and the `end` of the whole budget past it (the
 * reserve for the choice of the encoding); none: the proofs' deadline alone.
 */
interface Budget {
  readonly deadline: Deadline;
  readonly end?: Deadline;
}

/**
 * The pass starts only before the proofs' deadline, and may run half way into the reserve that
 * follows it: on majorities the proofs before it leave it a fifth of a second, and it needs about
 * one (docs/mutex.md). The choice after it keeps the other half, and reads `end` itself.
 */
function halfReserve({ deadline, end }: Budget): Deadline {
  if (end === undefined || deadline.cpuAt === Infinity || end.cpuAt === Infinity) return deadline;
  return new Deadline(end.at, end.maxHeapBytes, end.signal, (deadline.cpuAt + end.cpuAt) / 2);
}

/** What the pass did, for `--stats` and the tests. */
interface ProjectionResult {
  readonly verdicts: readonly ClaimVerdict[];
  readonly proven: number;
  readonly searches: number;
  readonly states: number;
  readonly work: number;
  /** The work cap or the deadline stopped the pass before every claim was tried. */
  readonly cut: boolean;
}

/**
 * Tries every "at most one" claim whose verdict is not `proven` and that `skip` does not name
 * (claims refuted elsewhere), one search per distinct closure. Returns the verdicts with
 * those it proved set to `proven`.
 */
export function proveByProjection(view: MutexView, claims: readonly Claim[], verdicts: readonly ClaimVerdict[], budget: Budget, skip: (k: number) => boolean = () => false): ProjectionResult {
  const open = (k: number): boolean => claims[k]!.kind === 'amo' && verdicts[k] !== 'proven' && !skip(k);
  if (!claims.some((_, k) => open(k))) return { verdicts, proven: 0, searches: 0, states: 0, work: 0, cut: false };
  if (budget.deadline.passed()) return { verdicts, proven: 0, searches: 0, states: 0, work: 0, cut: true };
  const deadline = halfReserve(budget);
  const ix = coneIndex(view);
  const meter = { work: 0, states: 0, searches: 0 };
  const out = [...verdicts];
  const byClosure = new Map<string, { closure: Closure; claims: number[] }>();
  let cut = false;
  for (let k = 0; k < claims.length; k++) {
    if (!open(k)) continue;
    if (meter.work > CAPS.maxWork || deadline.passed()) return { verdicts: out, proven: 0, ...meter, cut: true };
    const closure = closureOf(ix, claims[k]!.members, meter);
    if (closure === undefined) continue;
    const key = closure.fluents.join(',');
    const entry = byClosure.get(key) ?? { closure, claims: [] };
    entry.claims.push(k);
    byClosure.set(key, entry);
  }
  const searches = shareSearches([...byClosure.values()]);
  let proven = 0;
  for (const { closure, claims: ks } of searches) {
    if (meter.work > CAPS.maxWork || deadline.passed()) {
      cut = true;
      break;
    }
    meter.searches++;
    const held = search(ix, closure, ks.map((k) => claims[k]!.members), meter, deadline);
    ks.forEach((k, j) => held?.[j] === true && ((out[k] = 'proven'), proven++));
  }
  return { verdicts: out, proven, ...meter, cut };
}

/**
 * One search per projection that no larger one contains: a claim whose P lies inside another
 * claim's P' is checked on P' (also closed, so also an over-approximation), which on majorities
 * makes one search per line instead of one per count. Then the smallest first: the cheapest.
 */
function shareSearches(all: { closure: Closure; claims: number[] }[]): { closure: Closure; claims: number[] }[] {
  const kept: { closure: Closure; claims: number[]; set: Set<number> }[] = [];
  for (const c of all.sort((a, b) => b.closure.fluents.length - a.closure.fluents.length)) {
    const host = kept.find((k) => c.closure.fluents.every((f) => k.set.has(f)));
    if (host !== undefined) host.claims.push(...c.claims);
    else kept.push({ ...c, set: new Set(c.closure.fluents) });
  }
  return kept.reverse();
}

/** P with the fluents the moves' legal rules read where they fit (counted as a closure's whole atom cap). */
function closureOf(ix: ConeIndex, seed: readonly number[], meter: { work: number }): Closure | undefined {
  meter.work += CAPS.maxAtoms;
  return closeProjection(ix, seed, { ...CAPS, withLegal: true });
}

/** Per role, the moves to try: [does atom, legal local atom or -1 for "possibly legal"]; does -1 for "a move P's cone does not read". */
type Options = readonly (readonly (readonly [number, number])[])[];

/** The search of one projection: per group, whether it held on every projected state reached (undefined: cut). */
function search(ix: ConeIndex, closure: Closure, groups: readonly (readonly number[])[], meter: { work: number; states: number }, deadline: Deadline): boolean[] | undefined {
  const { view } = ix;
  const legalOf = legalAtoms(view);
  const roots = [...closure.fluents.map((f) => view.fluents[f]!.nextAtom), ...closure.does.map((a) => legalOf.get(a) ?? -1)].filter((a) => a >= 0);
  const prog = compileCone(ix, roots);
  if (prog === undefined) return undefined;
  const posInP = new Map(closure.fluents.map((f, i) => [f, i]));
  const options = moveOptions(ix, closure, prog, posInP, legalOf);
  const nextLocal = closure.fluents.map((f) => prog.local.get(view.fluents[f]!.nextAtom) ?? -1);
  const groupPos = groups.map((g) => g.map((f) => posInP.get(f)!));
  const alive = groups.map(() => true);
  const init = new Set(view.init);
  const start = closure.fluents.map((f) => (init.has(f) ? '1' : '0')).join('');
  const seen = new Set([start]);
  const queue = [start];
  const vals = new Uint8Array(prog.size);
  const ruleCount = prog.rules.reduce((n, rs) => n + rs.length, 0);
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    groupPos.forEach((g, j) => alive[j] && g.reduce((n, p) => n + (s.charCodeAt(p) === 49 ? 1 : 0), 0) > 1 && (alive[j] = false));
    if (!alive.includes(true)) return alive;
    if (seen.size > CAPS.maxStates || meter.work > CAPS.maxWork || ((q & 1023) === 1023 && deadline.passed())) return undefined;
    vals.fill(0);
    for (let a = 0; a < prog.size; a++) if (prog.leafFluent[a]! >= 0) vals[a] = s.charCodeAt(posInP.get(prog.leafFluent[a]!) ?? -1) === 49 ? 1 : 0;
    evaluate(prog, vals, false);
    const choices = options.map((os) => os.filter(([, l]) => l < 0 || vals[l] === 1));
    if (choices.some((c) => c.length === 0)) continue;
    // Every joint move of the choices (an odometer over the roles).
    const at = choices.map(() => 0);
    for (;;) {
      choices.forEach((c, r) => c.forEach(([d], i) => d >= 0 && (vals[d] = i === at[r] ? 1 : 0)));
      evaluate(prog, vals, true);
      meter.work += ruleCount;
      const t = nextLocal.map((l) => (l >= 0 && vals[l] === 1 ? '1' : '0')).join('');
      if (!seen.has(t)) seen.add(t), queue.push(t), meter.states++;
      let r = 0;
      while (r < at.length && ++at[r]! === choices[r]!.length) at[r++] = 0;
      if (r === at.length) break;
    }
  }
  return alive;
}

/**
 * Per role, its moves P's cone reads (with their legal atom when P decides it: its cone reads
 * no `does` and only fluents of P; a move with no legal atom is never legal) and one entry for
 * all its other moves, taken as possibly legal (a role with no move listed gets that entry too).
 */
function moveOptions(ix: ConeIndex, closure: Closure, prog: Program, posInP: ReadonlyMap<number, number>, legalOf: ReadonlyMap<number, number>): Options {
  const decided = decidedAtoms(prog, posInP);
  const read = new Set(closure.does);
  return ix.view.moves.map((ms) => {
    const own: (readonly [number, number])[] = [];
    for (const m of ms) {
      if (m.does < 0 || !read.has(m.does)) continue;
      const legal = legalOf.get(m.does) ?? -1;
      if (legal < 0) continue;
      const l = prog.local.get(legal)!;
      own.push([prog.local.get(m.does)!, decided[l] === 1 ? l : -1]);
    }
    const other = ms.length === 0 || ms.some((m) => m.legal >= 0 && (m.does < 0 || !read.has(m.does)));
    return other ? [...own, [-1, -1] as const] : own;
  });
}

/** Per local atom, 1 when its value follows from P's fluents alone (no `does`, no fluent outside P in its cone). */
function decidedAtoms(prog: Program, posInP: ReadonlyMap<number, number>): Uint8Array {
  const out = new Uint8Array(prog.size);
  for (const part of prog.parts) {
    const ok = part.atoms.every((a) => (prog.leafFluent[a]! >= 0 ? posInP.has(prog.leafFluent[a]!) : prog.leafDoes[a]! < 0)
      && prog.rules[a]!.every((r) => [...r.pos, ...r.neg].every((b) => part.atoms.includes(b) || out[b] === 1)));
    for (const a of part.atoms) out[a] = ok ? 1 : 0;
  }
  return out;
}

/** Evaluates the parts that read a move (`moves`) or those that do not, in order, on `vals`. */
function evaluate(prog: Program, vals: Uint8Array, moves: boolean): void {
  for (const part of prog.parts) {
    if (part.moves !== moves) continue;
    if (!part.recursive) {
      const a = part.atoms[0]!;
      const rules = prog.rules[a]!;
      // Leaves (a fluent, a move, an atom no rule makes) keep the value set or 0.
      if (rules.length > 0) vals[a] = rules.some((r) => holds(r, vals)) ? 1 : 0;
      continue;
    }
    // Positive recursion (negation only on earlier parts): the least fixpoint, pass by pass.
    for (const a of part.atoms) vals[a] = 0;
    for (let changed = true; changed; ) {
      changed = false;
      for (const a of part.atoms) if (vals[a] === 0 && prog.rules[a]!.some((r) => holds(r, vals))) (vals[a] = 1), (changed = true);
    }
  }
}

/** A rule's body holds on `vals`. */
function holds(r: { readonly pos: Int32Array; readonly neg: Int32Array }, vals: Uint8Array): boolean {
  for (let i = 0; i < r.pos.length; i++) if (vals[r.pos[i]!] === 0) return false;
  for (let i = 0; i < r.neg.length; i++) if (vals[r.neg[i]!] === 1) return false;
  return true;
}
