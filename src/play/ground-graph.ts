/**
 * The atom graph of a ground game in flat typed arrays, read from its compact rules
 * (ground/compact.ts): per head its rules, per atom the heads that read it, which atoms depend
 * on a `does` atom, and the strongly connected components. The ground simulator's compilation
 * (ground-plan.ts) built these as an array per atom from the rule objects: on amazonsTorus
 * (1.9 M rules, 1.2 M atoms) that was 5 of the mutex stage's 10 processor seconds of sampling,
 * most of it making and collecting millions of small arrays and objects (docs/mutex.md,
 * torus22). The lists hold the same entries in the same order as those arrays did, so the
 * compiled rules are the same.
 */
import { atomCount, atomTerms, compactRules, type CompactRules, prefixSums } from '../ground/compact.js';
import { keywordSymbols } from '../ground/atoms.js';
import type { GroundGame } from '../ground/types.js';

/** A ground game's atom graph: per head its rules, per atom its successors (heads of rules reading it). */
export interface AtomGraph {
  readonly atoms: number;
  readonly rules: CompactRules;
  /** Rules with head a, ascending: `byHead[byHeadStart[a] .. byHeadStart[a+1]-1]`. */
  readonly byHeadStart: Int32Array;
  readonly byHead: Int32Array;
  /** Heads of the rules reading atom a (positively or not), a rule's head once per literal, in rule order: `succ[succStart[a] .. succStart[a+1]-1]`. */
  readonly succStart: Int32Array;
  readonly succ: Int32Array;
  /** 1 for the `(does R M)` atoms. */
  readonly isDoes: Uint8Array;
}

/** The atom graph of `game`, read from its compact rules; `tick` looks at the clock now and then. */
export function atomGraph(game: GroundGame, tick: () => void): AtomGraph {
  const rules = compactRules(game);
  const n = atomCount(game);
  const { heads, starts, lits } = rules;
  const byHeadStart = new Int32Array(n + 1);
  const succStart = new Int32Array(n + 1);
  for (let r = 0; r < rules.count; r++) byHeadStart[heads[r]! + 1]!++;
  for (let i = 0; i < lits.length; i++) succStart[lits[i]! + 1]!++;
  prefixSums(byHeadStart);
  prefixSums(succStart);
  const byHead = new Int32Array(rules.count);
  const succ = new Int32Array(lits.length);
  const headFill = byHeadStart.slice(0, n);
  const succFill = succStart.slice(0, n);
  // In rule order, positive literals before negative ones: the order the per-atom arrays had.
  for (let r = 0; r < rules.count; r++) {
    tick();
    const h = heads[r]!;
    byHead[headFill[h]!++] = r;
    for (let i = starts[r]!; i < starts[r + 1]!; i++) succ[succFill[lits[i]!]!++] = h;
  }
  return { atoms: n, rules, byHeadStart, byHead, succStart, succ, isDoes: doesAtoms(game) };
}

/** 1 for the `(does R M)` atoms of `game`, read from the atoms' term ids (no atom objects). */
function doesAtoms(game: GroundGame): Uint8Array {
  const does = keywordSymbols(game.terms).does;
  const terms = atomTerms(game);
  const out = new Uint8Array(terms.length);
  for (let a = 0; a < terms.length; a++) if (game.terms.functor(terms[a]!) === does) out[a] = 1;
  return out;
}

/**
 * Atoms that depend on a `does` atom, found forwards from every `does` atom:
 *   onDoes(d) <= d is a does atom      onDoes(h) <= onDoes(b), h <= ... b ...
 */
export function dependOnDoesGraph(g: AtomGraph): Uint8Array {
  const onDoes = g.isDoes.slice();
  const todo: number[] = [];
  for (let a = 0; a < g.atoms; a++) if (onDoes[a] === 1) todo.push(a);
  while (todo.length > 0) {
    const b = todo.pop()!;
    for (let i = g.succStart[b]!; i < g.succStart[b + 1]!; i++) {
      const h = g.succ[i]!;
      if (onDoes[h] === 0) (onDoes[h] = 1), todo.push(h);
    }
  }
  return onDoes;
}

/** Strongly connected components as one list: component t is `atoms[start[t] .. start[t+1]-1]`. */
interface Components {
  readonly count: number;
  readonly start: Int32Array;
  readonly atoms: Int32Array;
}

/**
 * Tarjan's strongly connected components of the atom graph, iterative, in the order and with
 * the members in the order of gdl/scc.ts's `stronglyConnectedComponents` (a component after
 * everything it feeds), over the flat successor lists without an array per frame or component.
 */
export function atomComponents(g: AtomGraph, tick: () => void): Components {
  const n = g.atoms;
  const { succStart, succ } = g;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  // A frame: a node and the position of its next successor to look at.
  const frameNode = new Int32Array(n);
  const frameNext = new Int32Array(n);
  const start: number[] = [0];
  const atoms = new Int32Array(n);
  let top = 0;
  let done = 0;
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    tick();
    let frames = 1;
    frameNode[0] = root;
    frameNext[0] = succStart[root]!;
    index[root] = low[root] = counter++;
    stack[top++] = root;
    onStack[root] = 1;
    while (frames > 0) {
      const v = frameNode[frames - 1]!;
      const i = frameNext[frames - 1]!;
      if (i < succStart[v + 1]!) {
        frameNext[frames - 1] = i + 1;
        const w = succ[i]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack[top++] = w;
          onStack[w] = 1;
          frameNode[frames] = w;
          frameNext[frames++] = succStart[w]!;
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      frames--;
      if (frames > 0) low[frameNode[frames - 1]!] = Math.min(low[frameNode[frames - 1]!]!, low[v]!);
      if (low[v] !== index[v]) continue;
      let w: number;
      do {
        w = stack[--top]!;
        onStack[w] = 0;
        atoms[done++] = w;
      } while (w !== v);
      start.push(done);
    }
  }
  return { count: start.length - 1, start: Int32Array.from(start), atoms };
}

/** Whether atom a has an edge to itself. */
export function selfLoop(g: AtomGraph, a: number): boolean {
  for (let i = g.succStart[a]!; i < g.succStart[a + 1]!; i++) if (g.succ[i] === a) return true;
  return false;
}
