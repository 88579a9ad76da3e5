/**
 * The cone a projection search evaluates (docs/mutex.md 2m): the ground rules that compute P's
 * `next` atoms and its decided `legal` atoms from a projected state and a joint move, compiled to
 * local indexes and strongly connected parts in evaluation order. Every step is charged to the
 * pass's meter.
 */
import { type ConeIndex, type Meter, freshWalk, walkCone } from './projection-cone.js';

/** A rule on local atoms. */
interface LocalRule {
  readonly pos: Int32Array;
  readonly neg: Int32Array;
}

/** One strongly connected part: its atoms, whether recursive, whether it reads a `does` atom. */
interface Part {
  readonly atoms: readonly number[];
  readonly recursive: boolean;
  readonly moves: boolean;
}

/** A compiled cone. */
export interface Program {
  /** Local index of each global atom of the cone (Map, the cone is small). */
  readonly local: ReadonlyMap<number, number>;
  readonly size: number;
  readonly parts: readonly Part[];
  /** Per local atom, its rules. */
  readonly rules: readonly (readonly LocalRule[])[];
  /** Per local atom: the fluent whose `true` atom it is, else -1. */
  readonly leafFluent: Int32Array;
}

/** Compiles the cone of `roots` (at most `maxAtoms`); undefined past it, on a cut, or when a negation stays inside a recursive part. */
export function compileCone(ix: ConeIndex, roots: readonly number[], maxAtoms: number, meter: Meter): Program | undefined {
  const atoms: number[] = [];
  const visit = { onTrue: () => true, onDoes: () => true };
  if (!walkCone(ix, roots, freshWalk(ix), { left: maxAtoms }, meter, visit, atoms)) return undefined;
  atoms.sort((a, b) => a - b);
  const local = new Map(atoms.map((a, i) => [a, i]));
  const toLocal = (xs: readonly number[]): Int32Array => Int32Array.from(xs, (x) => local.get(x)!);
  const rules = atoms.map((a) => {
    const out: LocalRule[] = [];
    for (let k = ix.ruleStart[a]!; k < ix.ruleStart[a + 1]!; k++) {
      const r = ix.view.rules[ix.ruleIds[k]!]!;
      out.push({ pos: toLocal(r.pos), neg: toLocal(r.neg) });
    }
    return out;
  });
  const literals = rules.reduce((n, rs) => n + rs.reduce((m, r) => m + 1 + r.pos.length + r.neg.length, 0), 0);
  // Building the rules, then ordering the parts (Tarjan visits each literal a few times).
  if (!meter.spend(4 * (atoms.length + literals))) return undefined;
  const leafFluent = Int32Array.from(atoms, (a) => ix.fluentOfAtom[a]!);
  const leafDoes = Uint8Array.from(atoms, (a) => (ix.roleOfDoes[a]! >= 0 ? 1 : 0));
  const parts = orderParts(rules, leafDoes);
  return parts === undefined ? undefined : { local, size: atoms.length, parts, rules, leafFluent };
}

/** Tarjan's strongly connected components, iteratively, dependencies first; undefined when not stratified. */
function orderParts(rules: readonly (readonly LocalRule[])[], leafDoes: Uint8Array): Part[] | undefined {
  const n = rules.length;
  const deps = rules.map((rs) => [...new Set(rs.flatMap((r) => [...r.pos, ...r.neg]))]);
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const parts: Part[] = [];
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
      const moves = atoms.some((a) => leafDoes[a] === 1 || deps[a]!.some((d) => partOf[d] !== parts.length && parts[partOf[d]!]!.moves));
      parts.push({ atoms, recursive, moves });
    }
  }
  // A negation inside a recursive part: not stratified, not evaluated here.
  const selfNeg = parts.some((p, k) => p.recursive && p.atoms.some((a) => rules[a]!.some((r) => r.neg.some((b) => partOf[b] === k))));
  return selfNeg ? undefined : parts;
}

/**
 * Evaluates the parts that read a move (`moves`) or those that do not, in order, on `vals`.
 * Returns its work: the literals (plus one per rule) of the rules it looked at, each pass of a
 * recursive part's fixpoint counted.
 */
export function evaluate(prog: Program, vals: Uint8Array, moves: boolean): number {
  let work = 0;
  const holds = (r: LocalRule): boolean => {
    work += 1 + r.pos.length + r.neg.length;
    for (let i = 0; i < r.pos.length; i++) if (vals[r.pos[i]!] === 0) return false;
    for (let i = 0; i < r.neg.length; i++) if (vals[r.neg[i]!] === 1) return false;
    return true;
  };
  for (const part of prog.parts) {
    if (part.moves !== moves) continue;
    if (!part.recursive) {
      const a = part.atoms[0]!;
      const rules = prog.rules[a]!;
      // Leaves (a fluent, a move, an atom no rule makes) keep the value set or 0.
      if (rules.length > 0) vals[a] = rules.some(holds) ? 1 : 0;
      continue;
    }
    // Positive recursion (negation only on earlier parts): the least fixpoint, pass by pass.
    for (const a of part.atoms) vals[a] = 0;
    for (let changed = true; changed; ) {
      changed = false;
      for (const a of part.atoms) if (vals[a] === 0 && prog.rules[a]!.some(holds)) (vals[a] = 1), (changed = true);
    }
  }
  return work;
}
