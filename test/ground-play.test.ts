// The ground game against the original on real games: a naive bottom-up evaluator of the
// (normalized) original game, written here and sharing nothing with instantiation, plays
// seeded random matches; in every visited state the ground game must agree on the legal
// moves, terminal, goals and, after each joint move, the successor state.
import { describe, expect, it } from 'vitest';
import type { Atom, Term } from '../src/gdl/ast.js';
import { relationGraph } from '../src/gdl/relations.js';
import { atomToString, substitute, substituteAtom, termToString } from '../src/gdl/terms.js';
import type { GroundGame, GroundRule } from '../src/ground/types.js';
import { asRule, type NormalGame, type NormalRule } from '../src/normalize/types.js';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';

/** Small, varied games: statics, recursion, negation, distinct, simultaneous moves, 1-4 roles. */
const GAMES = [
  'ggp-repository-base/ticTacToe.kif',
  'ggp-repository-base/connectFour.kif',
  'ggp-repository-base/blocker.kif',
  'ggp-repository-base/blocksWorld.kif',
  'ggp-repository-base/chomp.kif',
  'ggp-repository-base/coins.kif',
  'ggp-repository-base/eightPuzzle.kif',
  'ggp-repository-base/3pffa.kif',
  'ggp-repository-base/connectFourSimultaneous.kif',
  'ggp-repository-base/buttons.kif',
  // Recursive relations that depend on the state (liberties, sums, a goal negating a goal).
  'ggp-repository-base/atariGoVariant_7x7.kif',
  'ggp-repository-base/factoringMutuallyAssuredDestruction.kif',
  'ggp-repository-base/futoshiki4.kif',
  'ggp-repository-base/cubicup_3player.kif',
];

// ---- naive evaluator of the original game -------------------------------------------------

/** One-way matching of a pattern against a ground term, extending `b`; false on a clash. */
function match(pattern: Term, ground: Term, b: Map<string, Term>): boolean {
  const stack: [Term, Term][] = [[pattern, ground]];
  while (stack.length > 0) {
    const [p, g] = stack.pop()!;
    if (p.kind === 'var') {
      const bound = b.get(p.name);
      if (bound === undefined) b.set(p.name, g);
      else if (termToString(bound) !== termToString(g)) return false;
    } else if (p.kind !== g.kind || p.name !== g.name) {
      return false;
    } else if (p.kind === 'fn' && g.kind === 'fn') {
      if (p.args.length !== g.args.length) return false;
      p.args.forEach((a, i) => stack.push([a, g.args[i]!]));
    }
  }
  return true;
}

type Facts = Map<string, Map<string, Atom>>;

function addFact(facts: Facts, a: Atom): boolean {
  if (!facts.has(a.rel)) facts.set(a.rel, new Map());
  const m = facts.get(a.rel)!;
  const key = atomToString(a);
  if (m.has(key)) return false;
  m.set(key, a);
  return true;
}

function holds(facts: Facts, a: Atom): boolean {
  return facts.get(a.rel)?.has(atomToString(a)) ?? false;
}

/** Every binding of the rule body over `facts` (nested loops over the positive literals). */
function bindings(rule: NormalRule, facts: Facts): Map<string, Term>[] {
  let partial: Map<string, Term>[] = [new Map()];
  for (const l of rule.body) {
    if (l.kind !== 'pos') continue;
    const next: Map<string, Term>[] = [];
    for (const b of partial) {
      for (const f of facts.get(l.atom.rel)?.values() ?? []) {
        const nb = new Map(b);
        if (f.args.length === l.atom.args.length && l.atom.args.every((a, i) => match(a, f.args[i]!, nb))) next.push(nb);
      }
    }
    partial = next;
  }
  return partial.filter((b) =>
    rule.body.every((l) => {
      if (l.kind === 'pos') return true;
      if (l.kind === 'neg') return !holds(facts, substituteAtom(l.atom, b));
      return termToString(substitute(l.left, b)) !== termToString(substitute(l.right, b));
    }),
  );
}

/** The model of the original game with the given `true` and `does` facts, stratum by stratum. */
function originalModel(game: NormalGame, trueTexts: readonly Term[], does: readonly Atom[]): Facts {
  const facts: Facts = new Map();
  for (const t of trueTexts) addFact(facts, { kind: 'atom', rel: 'true', args: [t], pos: { line: 0, col: 0 } });
  for (const d of does) addFact(facts, d);
  const graph = relationGraph(game.rules.map(asRule));
  const order = [...new Set(graph.component.values())].sort((a, b) => b - a);
  for (const c of order) {
    const rules = game.rules.filter((r) => graph.component.get(r.head.rel) === c);
    // Negation inside a component (`goal 100 <= not goal 0`) is stratified atom by atom in real
    // games: saturate the rules without it first, then all of them.
    const inner = (r: NormalRule): boolean => r.body.some((l) => l.kind === 'neg' && graph.component.get(l.atom.rel) === c);
    for (const batch of [rules.filter((r) => !inner(r)), rules]) {
      let changed = true;
      while (changed) {
        changed = false;
        for (const r of batch) for (const b of bindings(r, facts)) if (addFact(facts, substituteAtom(r.head, b))) changed = true;
      }
    }
  }
  return facts;
}

// ---- evaluator of the ground game ---------------------------------------------------------

/** The atoms of the ground game that hold, given the texts of the true and does atoms. */
function groundModel(g: GroundGame, trueSet: ReadonlySet<string>): Set<string> {
  const holdsNow = new Set<string>(trueSet);
  const text = g.atoms.map((a) => g.terms.text(a.term));
  const rel = g.atoms.map((a) => g.terms.symbolName(a.rel));
  const graph = relationGraph(
    g.rules.map((r) => ({
      head: { kind: 'atom' as const, rel: rel[r.head]!, args: [], pos: { line: 0, col: 0 } },
      body: [...r.pos, ...r.neg].map((id) => ({ kind: 'atom' as const, rel: rel[id]!, args: [], pos: { line: 0, col: 0 } })),
      pos: { line: 0, col: 0 },
    })),
  );
  const order = [...new Set(graph.component.values())].sort((a, b) => b - a);
  for (const c of order) {
    const rules = g.rules.filter((r) => graph.component.get(rel[r.head]!) === c);
    const inner = (r: GroundRule): boolean => r.neg.some((i) => graph.component.get(rel[i]!) === c);
    for (const batch of [rules.filter((r) => !inner(r)), rules]) {
      let changed = true;
      while (changed) {
        changed = false;
        for (const r of batch) {
          const head = text[r.head]!;
          if (holdsNow.has(head)) continue;
          if (r.pos.every((i) => holdsNow.has(text[i]!)) && r.neg.every((i) => !holdsNow.has(text[i]!))) {
            holdsNow.add(head);
            changed = true;
          }
        }
      }
    }
  }
  return holdsNow;
}

// ---- the match ----------------------------------------------------------------------------

function texts(facts: Facts, rel: string): string[] {
  return [...(facts.get(rel)?.keys() ?? [])].sort();
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Plays one match; returns the number of states compared. */
function playAndCompare(game: NormalGame, g: GroundGame, seed: number, maxSteps: number): number {
  const rnd = seeded(seed);
  let state: Term[] = [...(originalModel(game, [], []).get('init')?.values() ?? [])].map((a) => a.args[0]!);
  const initTexts = g.init.map((i) => g.terms.text(g.atoms[i]!.term)).sort();
  expect(initTexts).toEqual(state.map((t) => `(true ${termToString(t)})`).sort());
  for (let step = 0; step <= maxSteps; step++) {
    const orig = originalModel(game, state, []);
    const trueSet = new Set(state.map((t) => `(true ${termToString(t)})`));
    const gm = groundModel(g, trueSet);
    const pick = (rel: string): string[] => [...gm].filter((t) => t === rel || t.startsWith(`(${rel} `)).sort();
    expect(pick('legal')).toEqual(texts(orig, 'legal'));
    expect(pick('goal')).toEqual(texts(orig, 'goal'));
    expect(pick('terminal')).toEqual(texts(orig, 'terminal'));
    if (holds(orig, { kind: 'atom', rel: 'terminal', args: [], pos: { line: 0, col: 0 } }) || step === maxSteps) return step + 1;
    const legal = [...(orig.get('legal')?.values() ?? [])];
    const roles = [...(orig.get('role')?.values() ?? [])].map((a) => termToString(a.args[0]!));
    const does: Atom[] = [];
    for (const r of roles) {
      const mine = legal.filter((a) => termToString(a.args[0]!) === r);
      if (mine.length === 0) return step + 1; // no legal move: the game is stuck, nothing to compare
      const m = mine[Math.floor(rnd() * mine.length)]!;
      does.push({ kind: 'atom', rel: 'does', args: m.args, pos: m.pos });
    }
    const after = originalModel(game, state, does);
    const gAfter = groundModel(g, new Set([...trueSet, ...does.map(atomToString)]));
    const nextOrig = texts(after, 'next');
    expect([...gAfter].filter((t) => t.startsWith('(next ')).sort()).toEqual(nextOrig);
    state = [...(after.get('next')?.values() ?? [])].map((a) => a.args[0]!);
  }
  return maxSteps;
}

describe.skipIf(!HAVE_CORPUS)('ground game plays like the original', () => {
  for (const file of GAMES) {
    it(file, () => {
      const text = readGame(file);
      const { loaded, ground } = runGrounding(text, file, defaultPipelineOptions(), new StageTimer());
      let states = 0;
      for (let seed = 1; seed <= 3; seed++) states += playAndCompare(loaded.normal, ground, seed, 12);
      expect(states).toBeGreaterThan(3);
    });
  }
});
