/**
 * Stratification, on the relation dependency graph of src/gdl/relations.ts (a body relation q
 * and the head relation p of a rule are "in a cycle" when they lie in the same strongly
 * connected component). It is judged on the rules as written; the recursion restriction, which
 * is judged on normal form, is src/normalize/restriction.ts.
 */
import type { Atom, Rule } from './ast.js';
import { type Diagnostic, diag } from './diagnostics.js';
import { type RelationGraph, forEachBodyAtom, relationGraph } from './relations.js';
import { stronglyConnectedComponents } from './scc.js';
import { atomToString } from './terms.js';

/** An atom abstracted to its relation and constant arguments: `goal(*,100)`. */
function pattern(atom: Atom): string[] {
  return [atom.rel, ...atom.args.map((a) => (a.kind === 'const' ? a.name : '*'))];
}

function patternsMeet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length || a[0] !== b[0]) return false;
  for (let i = 1; i < a.length; i++) if (a[i] !== '*' && b[i] !== '*' && a[i] !== b[i]) return false;
  return true;
}

/**
 * Stratification refined by constant arguments: the nodes are the head patterns of the rules,
 * and a body literal depends on every head pattern it can match. A negative edge inside a
 * component of this graph is true negation through recursion; one that only the coarser
 * relation graph shows (`(<= (goal r 100) (not (goal r 0)))`) is stratified once the relation
 * is split by its constant arguments, which changes no model. Returns the negative literals
 * that lie on a refined cycle.
 */
function refinedCycles(all: readonly Rule[]): Set<Atom> {
  // Facts feed nothing, so they lie on no cycle; leaving them out keeps the graph small.
  const rules = all.filter((r) => r.body.length > 0);
  // The head patterns, each once; the text key only finds a pattern again, it is never split.
  const patterns: string[][] = [];
  const index = new Map<string, number>();
  const headNode = rules.map((r) => {
    const p = pattern(r.head);
    const key = p.join(' ');
    if (!index.has(key)) {
      index.set(key, patterns.length);
      patterns.push(p);
    }
    return index.get(key)!;
  });
  const byRel = new Map<string, number[]>();
  patterns.forEach((p, i) => {
    const rel = p[0]!;
    const list = byRel.get(rel);
    if (list === undefined) byRel.set(rel, [i]);
    else list.push(i);
  });
  const matches = (atom: Atom): number[] => {
    const p = pattern(atom);
    return (byRel.get(atom.rel) ?? []).filter((i) => patternsMeet(patterns[i]!, p));
  };
  const succ: number[][] = patterns.map(() => []);
  rules.forEach((r, ri) => {
    for (const b of r.body) forEachBodyAtom(b, false, (atom) => { for (const m of matches(atom)) succ[m]!.push(headNode[ri]!); });
  });
  const comp = new Int32Array(patterns.length);
  stronglyConnectedComponents(patterns.length, (v) => succ[v]!).forEach((c, ci) => { for (const v of c) comp[v] = ci; });
  const out = new Set<Atom>();
  rules.forEach((r, ri) => {
    for (const b of r.body) {
      forEachBodyAtom(b, false, (atom, negative) => {
        if (negative && matches(atom).some((m) => comp[m] === comp[headNode[ri]!])) out.add(atom);
      });
    }
  });
  return out;
}

/**
 * Stratification: no cycle of the dependency graph contains a negative edge, i.e.
 *   error  <-  rule p <= ... not q(...) ...,  component(q) = component(p)
 * unless the refined graph of {@link refinedCycles} breaks the cycle (then a warning).
 */
function stratification(rules: readonly Rule[], graph: RelationGraph, file: string, out: Diagnostic[]): void {
  const { component, key } = graph;
  let refined: Set<Atom> | undefined;
  for (const rule of rules) {
    const seen = new Set<string>();
    for (const b of rule.body) {
      forEachBodyAtom(b, false, (atom, negative) => {
        if (!negative || component.get(key(atom)) !== component.get(key(rule.head))) return;
        refined ??= refinedCycles(rules);
        const real = refined.has(atom);
        const text = atomToString(atom);
        if (seen.has(text)) return;
        seen.add(text);
        const how = key(atom) === key(rule.head) ? 'on itself' : `on '${atom.rel}', which depends on '${rule.head.rel}'`;
        if (real) {
          out.push(diag('error', file, rule.pos, `negation through recursion (the rules are not stratified): '${rule.head.rel}' depends negatively ${how}, through (not ${text})`));
        } else {
          out.push(diag('warning', file, rule.pos, `'${rule.head.rel}' depends negatively ${how} through (not ${text}), but no instance depends on itself: accepted as stratified once the relations are split by their constant arguments`));
        }
      });
    }
  }
}

/** Checks stratification; returns the errors (and the warnings for refined cycles) found. */
export function checkStratification(rules: readonly Rule[], file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  stratification(rules, relationGraph(rules), file, out);
  return out;
}
