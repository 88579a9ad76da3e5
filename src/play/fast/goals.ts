/**
 * Goals computed only when asked (docs/play.md, "Specialized nets"), as ggplib's goal-less
 * machines do: the rules whose heads no legal, next, terminal or sees atom depends on serve the
 * goals alone. They leave the propagated net, so a playout, which asks for no goal, does not
 * keep them up to date (reversi's piece counts, say); `info` evaluates them from the net's
 * values when it is asked, in topological order, a cyclic component by iteration to its least
 * fixpoint (its atoms read each other only positively: the ground game is stratified).
 */
import { stronglyConnectedComponents } from '../../gdl/scc.js';
import { keywordSymbols } from '../../ground/atoms.js';
import type { GroundGame, GroundRule } from '../../ground/types.js';
import { SEES } from '../../gdl/keywords.js';

/** The rules split: those the net propagates, and the goal part evaluated on demand. */
export interface GoalSplit {
  readonly kept: GroundRule[];
  /** Goal-part rules grouped by component in topological order: `rules[start[c] .. start[c+1]-1]`, `cyclic[c]` 1 on a cycle. */
  readonly rules: readonly GroundRule[];
  readonly start: Int32Array;
  readonly cyclic: Uint8Array;
}

/** Per atom, 1 when a legal, next, terminal or sees atom depends on it (or it is one). */
function needed(game: GroundGame, rules: readonly GroundRule[]): Uint8Array {
  const k = keywordSymbols(game.terms);
  const sees = game.terms.findSymbol(SEES);
  const byHead: number[][] = Array.from({ length: game.atoms.length }, () => []);
  rules.forEach((r, i) => byHead[r.head]!.push(i));
  const mark = new Uint8Array(game.atoms.length);
  const todo: number[] = [];
  game.atoms.forEach((a, i) => {
    if (a.rel === k.legal || a.rel === k.next || a.rel === k.terminal || a.rel === sees) (mark[i] = 1), todo.push(i);
  });
  while (todo.length > 0) {
    for (const i of byHead[todo.pop()!]!) {
      const r = rules[i]!;
      for (const b of [...r.pos, ...r.neg]) if (mark[b] === 0) (mark[b] = 1), todo.push(b);
    }
  }
  return mark;
}

/** Splits `rules` (of `game`) into the propagated ones and the goal part; undefined when there is no goal part. */
export function splitGoals(game: GroundGame, rules: readonly GroundRule[]): GoalSplit | undefined {
  const mark = needed(game, rules);
  const kept = rules.filter((r) => mark[r.head] === 1);
  if (kept.length === rules.length) return undefined;
  const part = rules.filter((r) => mark[r.head] === 0);
  const succ = new Map<number, number[]>();
  for (const r of part) {
    for (const b of [...r.pos, ...r.neg]) {
      if (mark[b] !== 0) continue;
      const list = succ.get(b);
      if (list === undefined) succ.set(b, [r.head]);
      else list.push(r.head);
    }
  }
  const heads = [...new Set(part.map((r) => r.head))];
  const index = new Map(heads.map((h, i) => [h, i]));
  // Tarjan lists a component after everything it feeds; bodies must come first.
  const comps = stronglyConnectedComponents(heads.length, (v) => (succ.get(heads[v]!) ?? []).map((h) => index.get(h)!)).reverse();
  const compOf = new Int32Array(heads.length);
  comps.forEach((c, i) => c.forEach((v) => (compOf[v] = i)));
  const cyclic = new Uint8Array(comps.length);
  part.forEach((r) => {
    const c = compOf[index.get(r.head)!]!;
    if ([...r.pos, ...r.neg].some((b) => mark[b] === 0 && index.has(b) && compOf[index.get(b)!] === c)) cyclic[c] = 1;
  });
  const ordered = [...part].sort((a, b) => compOf[index.get(a.head)!]! - compOf[index.get(b.head)!]!);
  const start = new Int32Array(comps.length + 1);
  for (const r of ordered) start[compOf[index.get(r.head)!]! + 1]!++;
  for (let c = 0; c < comps.length; c++) start[c + 1]! += start[c]!;
  return { kept, rules: ordered, start, cyclic };
}

/** Whether every literal of `r` holds in `val`. */
function holds(r: GroundRule, val: Uint8Array): boolean {
  for (const p of r.pos) if (val[p] === 0) return false;
  for (const q of r.neg) if (val[q] === 1) return false;
  return true;
}

/**
 * The values of the goal part given the net's values `netVal` (where its atoms are false): a
 * copy of `netVal` with the goal part's atoms set.
 */
export function evaluateGoals(split: GoalSplit, netVal: Uint8Array): Uint8Array {
  const val = netVal.slice();
  const { rules, start, cyclic } = split;
  for (let c = 0; c + 1 < start.length; c++) {
    // An acyclic component is settled by one pass over its rules; a cyclic one by passes until nothing is derived.
    for (let again = true; again; ) {
      again = false;
      for (let i = start[c]!; i < start[c + 1]!; i++) {
        const r = rules[i]!;
        if (val[r.head] === 0 && holds(r, val)) (val[r.head] = 1), (again = cyclic[c] === 1);
      }
    }
  }
  return val;
}
