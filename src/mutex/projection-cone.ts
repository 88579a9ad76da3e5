/**
 * The projection a state search runs on (docs/mutex.md, "Projection search"): a set P of fluents
 * closed under "the `next` rules of a fluent in P read only fluents in P, `does` and static
 * facts", and the cone of ground rules that computes P's `next` atoms and the decidable `legal`
 * atoms from a projected state and a joint move, compiled to local indexes in an evaluation order.
 */
import type { GroundRule } from '../ground/types.js';
import type { MutexView } from './view.js';

/** Per atom, the rules whose head it is (indexes into `view.rules`), and what the atom is. */
export interface ConeIndex {
  readonly view: MutexView;
  /** CSR: rules of atom a are `ruleIds[ruleStart[a] .. ruleStart[a+1])`. */
  readonly ruleStart: Int32Array;
  readonly ruleIds: Int32Array;
  /** The fluent whose `true` atom it is, else -1. */
  readonly fluentOfAtom: Int32Array;
  /** The role whose `does` atom it is, else -1. */
  readonly roleOfDoes: Int32Array;
}

/** Builds the index once per game. */
export function coneIndex(view: MutexView): ConeIndex {
  const n = view.atoms;
  const ruleStart = new Int32Array(n + 1);
  for (const r of view.rules) ruleStart[r.head + 1]!++;
  for (let a = 0; a < n; a++) ruleStart[a + 1]! += ruleStart[a]!;
  const fill = ruleStart.slice(0, n);
  const ruleIds = new Int32Array(view.rules.length);
  view.rules.forEach((r, i) => (ruleIds[fill[r.head]!++] = i));
  const fluentOfAtom = new Int32Array(n).fill(-1);
  view.fluents.forEach((f, i) => (fluentOfAtom[f.trueAtom] = i));
  const roleOfDoes = new Int32Array(n).fill(-1);
  view.moves.forEach((ms, r) => ms.forEach((m) => m.does >= 0 && (roleOfDoes[m.does] = r)));
  return { view, ruleStart, ruleIds, fluentOfAtom, roleOfDoes };
}

/** Caps of one closure: fluents in P and atoms visited. */
interface ClosureCaps {
  readonly maxFluents: number;
  readonly maxAtoms: number;
  /** Also add the fluents the `legal` rules of its moves read, where they fit (fewer moves taken as possibly legal). */
  readonly withLegal: boolean;
}

/** A closed projection: P (sorted fluent indexes) and the atoms of the cone of its `next` atoms. */
export interface Closure {
  readonly fluents: readonly number[];
  /** The `does` atoms the cone reads. */
  readonly does: readonly number[];
}

/**
 * The atoms the cone of `roots` reads, walked iteratively; `onTrue` is told each `true` atom's
 * fluent, `onDoes` each `does` atom. Returns false past `budget` atoms.
 */
function walkCone(ix: ConeIndex, roots: readonly number[], seen: Uint8Array, budget: { left: number }, onTrue: (f: number) => void, onDoes: (a: number) => void): boolean {
  const stack = roots.filter((a) => a >= 0 && seen[a] === 0);
  for (const a of stack) seen[a] = 1;
  while (stack.length > 0) {
    const a = stack.pop()!;
    if (--budget.left < 0) return false;
    if (ix.fluentOfAtom[a]! >= 0) onTrue(ix.fluentOfAtom[a]!);
    else if (ix.roleOfDoes[a]! >= 0) onDoes(a);
    for (let k = ix.ruleStart[a]!; k < ix.ruleStart[a + 1]!; k++) {
      const r = ix.view.rules[ix.ruleIds[k]!]!;
      for (const b of r.pos) if (seen[b] === 0) (seen[b] = 1), stack.push(b);
      for (const b of r.neg) if (seen[b] === 0) (seen[b] = 1), stack.push(b);
    }
  }
  return true;
}

/** Rounds of {@link closeProjection}'s extension by the legal rules' fluents. */
const LEGAL_ROUNDS = 4;

/**
 * The closure of `seed`, or undefined past the caps. With `withLegal`, then extended move by
 * move: a move of P's cone whose `legal` atom reads fluents outside P has them added (and P
 * closed again) when that stays within the caps, so that P decides its legality; a move whose
 * extension does not fit is left to be taken as possibly legal.
 */
export function closeProjection(ix: ConeIndex, seed: readonly number[], caps: ClosureCaps): Closure | undefined {
  let p = closeNext(ix, seed, caps);
  if (p === undefined || !caps.withLegal) return p;
  const legalOf = legalAtoms(ix.view);
  for (let round = 0, grew = true; grew && round < LEGAL_ROUNDS; round++) {
    grew = false;
    for (const a of p.does) {
      const inP = new Set(p.fluents);
      const read: number[] = [];
      if (!walkCone(ix, [legalOf.get(a) ?? -1], new Uint8Array(ix.view.atoms), { left: caps.maxAtoms }, (f) => inP.has(f) || read.push(f), () => undefined)) continue;
      if (read.length === 0) continue;
      const q = closeNext(ix, [...p.fluents, ...read], caps);
      if (q !== undefined) (p = q), (grew = true);
    }
  }
  return p;
}

/** The closure of `seed` under the `next` rules' reads, or undefined past the caps. */
function closeNext(ix: ConeIndex, seed: readonly number[], caps: ClosureCaps): Closure | undefined {
  const { view } = ix;
  const inP = new Set<number>();
  const does = new Set<number>();
  const seen = new Uint8Array(view.atoms);
  const budget = { left: caps.maxAtoms };
  const added: number[] = [];
  const addFluent = (f: number): void => void (inP.has(f) || (inP.add(f), added.push(f)));
  seed.forEach(addFluent);
  for (let i = 0; i < added.length; i++) {
    if (inP.size > caps.maxFluents) return undefined;
    if (!walkCone(ix, [view.fluents[added[i]!]!.nextAtom], seen, budget, addFluent, (a) => does.add(a))) return undefined;
  }
  return inP.size > caps.maxFluents ? undefined : { fluents: [...inP].sort((a, b) => a - b), does: [...does].sort((a, b) => a - b) };
}

/** Per `does` atom, its move's `legal` atom (-1: the move is never legal). */
export function legalAtoms(view: MutexView): Map<number, number> {
  return new Map(view.moves.flatMap((ms) => ms.flatMap((m) => (m.does >= 0 ? [[m.does, m.legal] as [number, number]] : []))));
}

/** A compiled cone: local atoms, their rules by local index, strongly connected parts in evaluation order. */
export interface Program {
  /** Local index of each global atom of the cone (Map, the cone is small). */
  readonly local: Map<number, number>;
  readonly size: number;
  /** Per part in evaluation order: its atoms, whether recursive, whether it reads a `does` atom. */
  readonly parts: readonly { readonly atoms: readonly number[]; readonly recursive: boolean; readonly moves: boolean }[];
  /** Per local atom, its rules as [pos, neg] local lists. */
  readonly rules: readonly (readonly { readonly pos: Int32Array; readonly neg: Int32Array }[])[];
  /** Local atoms that are leaves set from the state (fluent index) or the move. */
  readonly leafFluent: Int32Array;
  readonly leafDoes: Int32Array;
}

/** Compiles the cone of `roots`; undefined when a negation stays inside a recursive part (not stratified). */
export function compileCone(ix: ConeIndex, roots: readonly number[]): Program | undefined {
  const seen = new Uint8Array(ix.view.atoms);
  const atoms: number[] = [];
  walkCone(ix, roots, seen, { left: Infinity }, () => undefined, () => undefined);
  for (let a = 0; a < seen.length; a++) if (seen[a] === 1) atoms.push(a);
  const local = new Map(atoms.map((a, i) => [a, i]));
  const toLocal = (xs: readonly number[]): Int32Array => Int32Array.from(xs, (x) => local.get(x)!);
  const rules = atoms.map((a) => {
    const out: { pos: Int32Array; neg: Int32Array }[] = [];
    for (let k = ix.ruleStart[a]!; k < ix.ruleStart[a + 1]!; k++) {
      const r: GroundRule = ix.view.rules[ix.ruleIds[k]!]!;
      out.push({ pos: toLocal(r.pos), neg: toLocal(r.neg) });
    }
    return out;
  });
  const leafFluent = Int32Array.from(atoms, (a) => ix.fluentOfAtom[a]!);
  const leafDoes = Int32Array.from(atoms, (a) => (ix.roleOfDoes[a]! >= 0 ? a : -1));
  const parts = orderParts(rules, leafDoes);
  return parts === undefined ? undefined : { local, size: atoms.length, parts, rules, leafFluent, leafDoes };
}

/** Tarjan's strongly connected components, iteratively, dependencies first. */
function orderParts(rules: readonly (readonly { readonly pos: Int32Array; readonly neg: Int32Array }[])[], leafDoes: Int32Array): Program['parts'] | undefined {
  const n = rules.length;
  const deps = rules.map((rs) => [...new Set(rs.flatMap((r) => [...r.pos, ...r.neg]))]);
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const parts: { atoms: number[]; recursive: boolean; moves: boolean }[] = [];
  const partOf = new Int32Array(n).fill(-1);
  let counter = 0;
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue;
    const work: [number, number][] = [[s, 0]];
    index[s] = low[s] = counter++;
    stack.push(s), (onStack[s] = 1);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      if (i < deps[v]!.length) {
        top[1]++;
        const w = deps[v]![i]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w), (onStack[w] = 1);
          work.push([w, 0]);
        } else if (onStack[w] === 1) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      work.pop();
      if (work.length > 0) low[work[work.length - 1]![0]] = Math.min(low[work[work.length - 1]![0]]!, low[v]!);
      if (low[v] !== index[v]) continue;
      const atoms: number[] = [];
      let w: number;
      do ((w = stack.pop()!), (onStack[w] = 0), atoms.push(w), (partOf[w] = parts.length));
      while (w !== v);
      const recursive = atoms.length > 1 || deps[v]!.includes(v);
      const moves = atoms.some((a) => leafDoes[a]! >= 0 || deps[a]!.some((d) => partOf[d] !== parts.length && parts[partOf[d]!]!.moves));
      parts.push({ atoms, recursive, moves });
    }
  }
  // A negation inside a recursive part: not stratified, not evaluated here.
  const selfNeg = parts.some((p, k) => p.recursive && p.atoms.some((a) => rules[a]!.some((r) => [...r.neg].some((b) => partOf[b] === k))));
  return selfNeg ? undefined : parts;
}
