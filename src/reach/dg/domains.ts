/**
 * resolveDependencies (Algorithm 9.3, line 11): the domain of every argument position, found by
 * following edges to constants and function symbols through cycles (strongly connected
 * components share one domain). Counting and enumerating the ground terms of a domain is
 * separate, so that a size is always known before anything is enumerated.
 */
import { stronglyConnectedComponents } from '../../gdl/scc.js';
import { compareCodePoints } from '../../gdl/terms.js';
import { type ArgGraph, functionArguments } from './graph.js';
import type { Guard } from './guard.js';
import type { TermTable } from '../../datalog/terms.js';

/** The resolved domains of a graph; positions are the graph's position numbers. */
export interface Domains {
  /** Object constants in the domain of a position, sorted. */
  constants(pos: number): readonly string[];
  /** Function symbols (ids of the graph's `functions`) in the domain of a position, sorted by text. */
  functors(pos: number): readonly number[];
  /** Number of ground terms in the domain (Infinity when function symbols nest without end). */
  count(pos: number): number;
  /** Ids of the ground terms of the domain; fails through `guard` when there are too many. */
  terms(pos: number, table: TermTable, guard: Guard, maxTerms: number): readonly number[];
}

const EMPTY: readonly never[] = [];

/** Unions each position's own constants and functors with those of every position it reaches. */
function closeDomains(graph: ArgGraph): { consts: Map<number, string[]>; fns: Map<number, number[]> } {
  const ids = graph.positions.map((p) => p.id);
  const index = new Map(ids.map((id, i) => [id, i]));
  const succ = ids.map((id) => [...(graph.edges.get(id) ?? [])].map((t) => index.get(t)!));
  const consts = new Map<number, string[]>();
  const fns = new Map<number, number[]>();
  const compOf = new Int32Array(ids.length);
  const compConsts: Set<string>[] = [];
  const compFns: Set<number>[] = [];
  const byText = (a: number, b: number): number => compareCodePoints(graph.functions.key(a), graph.functions.key(b));
  // Components come successors first, so every target outside a component is already done.
  stronglyConnectedComponents(ids.length, (v) => succ[v]!).forEach((comp, c) => {
    const cs = new Set<string>();
    const fs = new Set<number>();
    for (const v of comp) compOf[v] = c;
    for (const v of comp) {
      for (const x of graph.constants.get(ids[v]!) ?? []) cs.add(x);
      for (const x of graph.functors.get(ids[v]!) ?? []) fs.add(x);
      for (const w of succ[v]!) {
        const cw = compOf[w]!;
        if (cw === c || compConsts[cw] === undefined) continue;
        for (const x of compConsts[cw]!) cs.add(x);
        for (const x of compFns[cw]!) fs.add(x);
      }
    }
    compConsts[c] = cs;
    compFns[c] = fs;
    const sortedC = [...cs].sort(compareCodePoints);
    const sortedF = [...fs].sort(byText);
    for (const v of comp) {
      consts.set(ids[v]!, sortedC);
      fns.set(ids[v]!, sortedF);
    }
  });
  return { consts, fns };
}

/**
 * Term counts per function symbol: 0 when it has no finite term, Infinity when it can nest
 * inside itself (its domain is then infinite), else the product of its argument domain sizes.
 */
function functorCounts(graph: ArgGraph, consts: Map<number, string[]>, fns: Map<number, number[]>): Map<number, number> {
  const all = [...new Set([...fns.values()].flat())].sort((a, b) => compareCodePoints(graph.functions.key(a), graph.functions.key(b)));
  const args = new Map(all.map((f) => [f, functionArguments(graph, f)]));
  // Inhabited: every argument domain holds a constant or an inhabited symbol (a least fixpoint).
  const inhabited = new Set<number>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of all) {
      if (inhabited.has(f)) continue;
      const ok = args.get(f)!.every((p) => (consts.get(p) ?? EMPTY).length > 0 || (fns.get(p) ?? EMPTY).some((g) => inhabited.has(g)));
      if (ok) {
        inhabited.add(f);
        changed = true;
      }
    }
  }
  const live = all.filter((f) => inhabited.has(f));
  const index = new Map(live.map((f, i) => [f, i]));
  const succ = live.map((f) => [...new Set(args.get(f)!.flatMap((p) => (fns.get(p) ?? EMPTY).filter((g) => inhabited.has(g))))].map((g) => index.get(g)!));
  const counts = new Map<number, number>(all.map((f) => [f, 0]));
  const posCount = (p: number): number => (consts.get(p) ?? EMPTY).length + (fns.get(p) ?? EMPTY).reduce((s, g) => s + counts.get(g)!, 0);
  for (const comp of stronglyConnectedComponents(live.length, (v) => succ[v]!)) {
    const cyclic = comp.length > 1 || succ[comp[0]!]!.includes(comp[0]!);
    for (const v of comp) {
      const f = live[v]!;
      counts.set(f, cyclic ? Infinity : args.get(f)!.reduce((prod, p) => prod * posCount(p), 1));
    }
  }
  return counts;
}

/** Resolves the domains of every position of `graph`. */
export function resolveDomains(graph: ArgGraph): Domains {
  const { consts, fns } = closeDomains(graph);
  const counts = functorCounts(graph, consts, fns);
  const fnTerms = new Map<number, readonly number[]>();
  const posTerms = new Map<number, readonly number[]>();
  const count = (pos: number): number =>
    (consts.get(pos) ?? EMPTY).length + (fns.get(pos) ?? EMPTY).reduce((s, f) => s + (counts.get(f) ?? 0), 0);

  function terms(pos: number, table: TermTable, guard: Guard, maxTerms: number): readonly number[] {
    const cached = posTerms.get(pos);
    if (cached !== undefined) return cached;
    const n = count(pos);
    if (n > maxTerms) guard.fail(`the domain of argument ${graph.byId[pos]!.text} has ${n === Infinity ? 'infinitely many' : n} terms`, { kind: 'terms' });
    // Function symbols are finished innermost first; the stack only ever holds finite ones.
    const stack = [...(fns.get(pos) ?? EMPTY)].filter((f) => counts.get(f)! > 0);
    while (stack.length > 0) {
      const f = stack[stack.length - 1]!;
      if (fnTerms.has(f)) {
        stack.pop();
        continue;
      }
      const argPos = functionArguments(graph, f);
      const missing = argPos.flatMap((p) => (fns.get(p) ?? EMPTY).filter((g) => counts.get(g)! > 0 && !fnTerms.has(g)));
      if (missing.length > 0) {
        stack.push(...missing);
        continue;
      }
      stack.pop();
      const argTerms = argPos.map((p) => [
        ...(consts.get(p) ?? EMPTY).map((c) => table.compound(c, [])),
        ...(fns.get(p) ?? EMPTY).flatMap((g) => fnTerms.get(g) ?? []),
      ]);
      const out: number[] = [];
      const name = graph.functions.name(f);
      // Odometer over the argument domains: the product, one tuple at a time.
      const digits = argTerms.map(() => 0);
      if (argTerms.every((a) => a.length > 0)) {
        for (;;) {
          guard.tick();
          out.push(table.compound(name, digits.map((d, i) => argTerms[i]![d]!)));
          let i = digits.length - 1;
          while (i >= 0 && ++digits[i]! === argTerms[i]!.length) digits[i--] = 0;
          if (i < 0) break;
        }
      }
      fnTerms.set(f, out);
    }
    const result = [
      ...(consts.get(pos) ?? EMPTY).map((c) => table.compound(c, [])),
      ...(fns.get(pos) ?? EMPTY).flatMap((f) => fnTerms.get(f) ?? []),
    ];
    posTerms.set(pos, result);
    return result;
  }

  return {
    constants: (pos) => consts.get(pos) ?? EMPTY,
    functors: (pos) => fns.get(pos) ?? EMPTY,
    count,
    terms,
  };
}
