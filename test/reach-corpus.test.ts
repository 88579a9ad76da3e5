// Algorithm 9.2 on real games: the Prolog method must give exactly the least model of the
// relaxed game. The reference here is a deliberately naive evaluator written independently of
// src/reach (its own relaxation, matching and fixpoint; no Prolog), run on a fixed, varied
// subset of small corpus games; the clingo cross-check (test/clingo*.test.ts) covers more.
import { TEST_REACH_LIMITS } from './support/context.js';
import { describe, expect, it } from 'vitest';
import type { Atom, Term } from '../src/gdl/ast.js';
import { KEYWORDS } from '../src/gdl/ast.js';
import { atomToString, substitute, termToString } from '../src/gdl/terms.js';
import type { NormalGame } from '../src/normalize/types.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import { supersetSentences } from '../src/reach/format.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';

/** Small games of every folder, chosen for variety (recursion, or, distinct, counters, many roles). */
const GAMES = [
  'ggp-base-test/3puzzle.kif',
  'ggp-base-test/connectFour.kif',
  'ggp-base-test/exercise_2_1.kif',
  'ggp-base-test/test_case_2a.kif',
  'ggp-base-test/test_case_2c.kif',
  'ggp-base-test/test_case_5a.kif',
  'ggp-base-test/test_case_5b.kif',
  'ggp-base-test/test_case_5c.kif',
  'ggp-base-test/test_case_5d.kif',
  'ggp-base-test/test_case_5e.kif',
  'ggp-base-test/test_clean_not_distinct.kif',
  'ggp-base-test/test_distinct_beginning_rule.kif',
  'ggp-repository-base/aipsrovers01.kif',
  'ggp-repository-base/buttons.kif',
  'ggp-repository-base/coins.kif',
  'ggp-repository-base/hanoi.kif',
  'ggp-repository-base/nim1.kif',
  'ggp-repository-base/roshambo2.kif',
  'ggp-repository-base/ticTacToe.kif',
  'ggp-repository-base/tictactoe_3player.kif',
  'ggp-repository-base/ruleDepthLinear.kif',
  'ggp-repository-base/3pConnectFour.kif',
  'ggp-repository-base/blocks.kif',
  'ggp-repository-base/maze.kif',
  'ggp-repository-base/bunk_t.kif',
  'ggp-repository-base/breakthroughSmallHoles.kif',
];

type Binding = Map<string, Term>;

/** Extends `b` so that `pattern` equals the ground term `t`, or null. */
function match(pattern: Term, t: Term, b: Binding): Binding | null {
  const out = new Map(b);
  const stack: [Term, Term][] = [[pattern, t]];
  while (stack.length > 0) {
    const [p, g] = stack.pop()!;
    if (p.kind === 'var') {
      const bound = out.get(p.name);
      if (bound === undefined) out.set(p.name, g);
      else if (termToString(bound) !== termToString(g)) return null;
    } else if (p.kind !== g.kind || p.name !== g.name) return null;
    else if (p.kind === 'fn' && g.kind === 'fn') {
      if (p.args.length !== g.args.length) return null;
      p.args.forEach((a, i) => stack.push([a, g.args[i]!]));
    }
  }
  return out;
}

/** The least model of the relaxed game, by naive iteration of every rule over every fact. */
function naiveLeastModel(game: NormalGame): { fluents: string[]; moves: string[]; axioms: string[] } {
  const dropped = new Set(['goal', 'terminal', 'base', 'input']);
  const rules = game.rules.filter((r) => !dropped.has(r.head.rel));
  const facts = new Map<string, Map<string, Atom>>();
  const add = (a: Atom): boolean => {
    const key = `${a.rel}/${a.args.length}`;
    if (!facts.has(key)) facts.set(key, new Map());
    const text = atomToString(a);
    if (facts.get(key)!.has(text)) return false;
    facts.get(key)!.set(text, a);
    // true from init and next, does from legal.
    if (a.rel === 'init' || a.rel === 'next') add({ ...a, rel: 'true' });
    if (a.rel === 'legal') add({ ...a, rel: 'does' });
    return true;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of rules) {
      let bindings: Binding[] = [new Map()];
      for (const l of r.body) {
        if (l.kind !== 'pos') continue;
        const pool = [...(facts.get(`${l.atom.rel}/${l.atom.args.length}`)?.values() ?? [])];
        bindings = bindings.flatMap((b) =>
          pool.map((f) => l.atom.args.reduce<Binding | null>((acc, a, i) => (acc === null ? null : match(a, f.args[i]!, acc)), b)).filter((x): x is Binding => x !== null),
        );
      }
      for (const b of bindings) {
        const ok = r.body.every((l) => l.kind !== 'distinct' || termToString(substitute(l.left, b)) !== termToString(substitute(l.right, b)));
        if (ok && add({ ...r.head, args: r.head.args.map((a) => substitute(a, b)) })) changed = true;
      }
    }
  }
  const texts = (key: string, f: (a: Atom) => string): string[] => [...(facts.get(key)?.values() ?? [])].map(f);
  const axioms = [...facts.entries()].filter(([k]) => !KEYWORDS.has(k.slice(0, k.lastIndexOf('/')))).flatMap(([, m]) => [...m.keys()]);
  return {
    fluents: texts('true/1', (a) => `(base ${termToString(a.args[0]!)})`).sort(),
    moves: texts('does/2', (a) => `(input ${termToString(a.args[0]!)} ${termToString(a.args[1]!)})`).sort(),
    axioms: axioms.sort(),
  };
}

describe.skipIf(!HAVE_CORPUS)('Prolog supersets equal the least model of the relaxed game', () => {
  it.each(GAMES)('%s', (game) => {
    const { normal } = loadGame(readGame(game), game, defaultPipelineOptions(), new StageTimer());
    const got = supersetSentences(computeSupersetsProlog(normal, TEST_REACH_LIMITS).supersets);
    const want = naiveLeastModel(normal);
    // Compared as sorted sets; the output's own code-point order is checked separately below.
    expect([...got.fluents].sort()).toEqual(want.fluents);
    expect([...got.moves].sort()).toEqual(want.moves);
    expect([...got.axioms].sort()).toEqual(want.axioms);
    expect(got.fluents.length + got.moves.length).toBeGreaterThan(0);
  });
});

// The engine steps its own predicates (tables, once, \==) directly; Tau-Prolog stepping every
// goal itself must reach the same supersets, and the same number of answers.
const PLAIN_STEPS = ['ggp-repository-base/nim1.kif', 'ggp-repository-base/3pConnectFour.kif', 'ggp-base-test/test_case_5d.kif', 'ggp-repository-base/hanoi.kif'];

describe.skipIf(!HAVE_CORPUS)('direct steps change nothing but speed', () => {
  it.each(PLAIN_STEPS)('%s', (game) => {
    const { normal } = loadGame(readGame(game), game, defaultPipelineOptions(), new StageTimer());
    const direct = computeSupersetsProlog(normal, TEST_REACH_LIMITS);
    const plain = computeSupersetsProlog(normal, TEST_REACH_LIMITS, { directSteps: false });
    expect(supersetSentences(direct.supersets)).toEqual(supersetSentences(plain.supersets));
    expect(direct.stats.answers).toBe(plain.stats.answers);
  });
});
