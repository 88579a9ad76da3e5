// Instantiation on small hand-made games with hand-written supersets: statics, negation,
// recursion, distinct, simplification, limits, determinism and deep terms.
import { TEST_INSTANTIATE_LIMITS } from './support/context.js';
import { Deadline } from '../src/deadline.js';
import { describe, expect, it } from 'vitest';
import type { Atom } from '../src/gdl/ast.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { parseGdl } from '../src/gdl/parser.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { instantiateGame } from '../src/ground/instantiate.js';
import type { GroundGame } from '../src/ground/types.js';
import { atomText } from '../src/ground/atoms.js';
import { normalizeGame } from './support/normalize.js';
import type { Supersets } from '../src/reach/types.js';

function sentences(texts: readonly string[]): Atom[] {
  const r = parseGdl(texts.join('\n'), undefined, Deadline.never());
  expect(r.diagnostics).toEqual([]);
  return r.game.rules.map((x) => x.head);
}

/** Supersets from GDL text: fluents as terms, moves as `(r m)`, axioms as atoms. */
function supersets(fluents: string[], moves: string[], axioms: string[] = []): Supersets {
  const f = sentences(fluents.map((t) => `(f ${t})`)).map((a) => a.args[0]!);
  const m = sentences(moves.map((t) => `(m ${t.slice(1, -1)})`)).map((a) => ({ role: a.args[0]!, action: a.args[1]! }));
  return { fluents: f, moves: m, axioms: sentences(axioms) };
}

function ground(text: string, sets: Supersets, limits = TEST_INSTANTIATE_LIMITS): GroundGame {
  const parsed = parseGdl(text, 't.kif', Deadline.never());
  expect(parsed.diagnostics).toEqual([]);
  return instantiateGame(normalizeGame(parsed.game), sets, limits);
}

/** The rule lines of the GDL output (everything after the declarations). */
function ruleLines(g: GroundGame): string[] {
  return emitGdl(g, { baseInput: false }, Deadline.never())
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith(';') && !l.startsWith('(role ') && !l.startsWith('(init '));
}

const STEPS = `
(role r)
(succ 1 2) (succ 2 3) (succ 3 4)
(<= (less ?x ?y) (succ ?x ?y))
(<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))
(num 1) (num 2) (num 3) (num 4)
(blocked 3)
(<= (free ?x) (num ?x) (not (blocked ?x)))
(init (pos 1))
(<= (legal r (go ?y)) (true (pos ?x)) (less ?x ?y) (free ?y))
(<= (next (pos ?y)) (does r (go ?y)))
(<= terminal (true (pos 4)))
(<= (goal r 100) (true (pos 4)))
(<= (goal r 0) (not (true (pos 4))))
`;

describe('instantiateGame', () => {
  it('evaluates recursive static relations with negation and removes them from bodies', () => {
    const g = ground(STEPS, supersets(['(pos 1)', '(pos 2)', '(pos 3)', '(pos 4)'], ['(r (go 2))', '(r (go 3))', '(r (go 4))']));
    expect(g.roles.map((t) => g.terms.text(t))).toEqual(['r']);
    expect(g.init.map((i) => atomText(g, i))).toEqual(['(true (pos 1))']);
    expect(ruleLines(g)).toEqual([
      '(<= (goal r 0) (not (true (pos 4))))',
      '(<= (goal r 100) (true (pos 4)))',
      '(<= (legal r (go 2)) (true (pos 1)))',
      '(<= (legal r (go 4)) (true (pos 1)))',
      '(<= (legal r (go 4)) (true (pos 2)))',
      '(<= (legal r (go 4)) (true (pos 3)))',
      '(<= (next (pos 2)) (does r (go 2)))',
      '(<= (next (pos 3)) (does r (go 3)))',
      '(<= (next (pos 4)) (does r (go 4)))',
      '(<= terminal (true (pos 4)))',
    ]);
  });

  it('drops a negated atom outside its superset and a positive one kills the rule', () => {
    // Only (pos 1) and (pos 2) are reachable: (pos 4) is outside, so `not (true (pos 4))` is true.
    const g = ground(STEPS, supersets(['(pos 1)', '(pos 2)'], ['(r (go 2))']));
    expect(ruleLines(g)).toEqual([
      '(goal r 0)',
      '(<= (legal r (go 2)) (true (pos 1)))',
      '(<= (next (pos 2)) (does r (go 2)))',
    ]);
  });

  it('instantiates recursive dynamic axioms semi-naively and keeps them', () => {
    const text = `
      (role r) (edge a b) (edge b c) (edge c a) (edge c d)
      (<= (reached ?x) (true (at ?x)))
      (<= (reached ?y) (reached ?x) (edge ?x ?y))
      (<= terminal (reached d))
      (<= (legal r (stay ?x)) (true (at ?x)) (not (reached z)))
      (<= (next (at ?x)) (does r (stay ?x)))
      (<= (goal r 100) (reached d))`;
    const g = ground(text, supersets(['(at a)'], ['(r (stay a))'], ['(reached a)', '(reached b)', '(reached c)', '(reached d)']));
    expect(ruleLines(g)).toEqual([
      '(<= (goal r 100) (reached d))',
      '(<= (legal r (stay a)) (true (at a)))',
      '(<= (next (at a)) (does r (stay a)))',
      '(<= (reached a) (reached c))',
      '(<= (reached a) (true (at a)))',
      '(<= (reached b) (reached a))',
      '(<= (reached c) (reached b))',
      '(<= (reached d) (reached c))',
      '(<= terminal (reached d))',
    ]);
  });

  it('evaluates distinct, kills rules whose negated static atom holds, and keeps dynamic negation', () => {
    const text = `
      (role a) (role b) (bad b)
      (<= (legal ?r (hit ?o)) (role ?r) (role ?o) (distinct ?r ?o) (not (bad ?r)) (not (true (dead ?r))))
      (<= (next (dead ?o)) (does ?r (hit ?o)))
      (<= (next (dead ?x)) (true (dead ?x)))
      (<= terminal (true (dead ?x)))
      (<= (goal ?r 0) (role ?r))`;
    const g = ground(text, supersets(['(dead b)'], ['(a (hit b))']));
    expect(g.roles.map((t) => g.terms.text(t))).toEqual(['a', 'b']);
    expect(ruleLines(g)).toEqual([
      '(goal a 0)',
      '(goal b 0)',
      '(legal a (hit b))',
      '(<= (next (dead b)) (does a (hit b)))',
      '(<= (next (dead b)) (true (dead b)))',
      '(<= terminal (true (dead b)))',
    ]);
    // With (dead a) reachable, the negated fluent stays in the legal rule of a.
    const g2 = ground(text, supersets(['(dead a)', '(dead b)'], ['(a (hit b))']));
    expect(ruleLines(g2)).toContain('(<= (legal a (hit b)) (not (true (dead a))))');
  });

  it('drops a ground rule that needs both p and not p', () => {
    const text = `(role r) (<= (q ?x) (true (p ?x)) (not (true (p ?x)))) (<= terminal (q 1)) (<= terminal (true (p 2)))`;
    const g = ground(text, supersets(['(p 1)', '(p 2)'], [], ['(q 1)', '(q 2)']));
    expect(ruleLines(g)).toEqual(['(<= terminal (true (p 2)))']);
  });

  it('resolves negation inside a component (goal 100 <= not goal 0) once the component is complete', () => {
    const text = `(role r)
      (<= (goal r 0) (true (cell ?c blank)))
      (<= (goal r 100) (not (goal r 0)))
      (<= (goal r 50) (not (goal r 7)))
      (<= terminal (goal r 100))`;
    const g = ground(text, supersets(['(cell 1 blank)', '(cell 1 x)'], []));
    expect(ruleLines(g)).toEqual([
      '(<= (goal r 0) (true (cell 1 blank)))',
      '(<= (goal r 100) (not (goal r 0)))',
      '(goal r 50)',
      '(<= terminal (goal r 100))',
    ]);
  });

  it('keeps a static component that negates itself (and what uses it) as ground rules', () => {
    const text = `(role r) (n 1) (n 2) (odd 1)
      (<= (small ?x) (n ?x) (odd ?x))
      (<= (big ?x) (n ?x) (not (small ?x)))
      (<= (small ?x) (big ?x) (odd ?x))
      (<= (legal r (pick ?x)) (big ?x))`;
    const g = ground(text, supersets([], ['(r (pick 1))', '(r (pick 2))'], ['(small 1)', '(big 1)', '(big 2)']));
    // (small 2) is never derived, so its negation is dropped; (small 1) is, so it stays.
    expect(ruleLines(g)).toEqual([
      '(<= (big 1) (not (small 1)))',
      '(big 2)',
      '(<= (legal r (pick 1)) (big 1))',
      '(<= (legal r (pick 2)) (big 2))',
      '(small 1)',
      '(<= (small 1) (big 1))',
    ]);
  });

  it('rejects an unsafe rule with its position', () => {
    const text = '(role r)\n(<= (legal r (go ?x)) (not (true (p ?x))))';
    let err: unknown;
    try {
      ground(text, supersets([], []));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GdlError);
    expect((err as GdlError).code).toBe('invalid');
    expect((err as GdlError).diagnostics[0]).toMatchObject({ file: 't.kif', line: 2, col: 1 });
  });

  it('stops with a limit error naming the rule when there are too many ground rules', () => {
    const text = '(role r) (n 1) (n 2) (n 3)\n(<= (legal r (go ?x ?y)) (n ?x) (n ?y) (true (on ?x)))';
    const moves = ['1', '2', '3'].flatMap((x) => ['1', '2', '3'].map((y) => `(r (go ${x} ${y}))`));
    const sets = supersets(['(on 1)', '(on 2)', '(on 3)'], moves);
    expect(ground(text, sets).rules.length).toBe(9);
    let err: unknown;
    try {
      ground(text, sets, { ...TEST_INSTANTIATE_LIMITS, maxRules: 4 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GdlError);
    expect((err as GdlError).code).toBe('limit');
    expect((err as GdlError).diagnostics[0]).toMatchObject({ line: 2, col: 1 });
    expect((err as GdlError).message).toMatch(/exceeded 4 ground rules/);
  });

  it('counts the rules and literals of a run without its duplicates, at the limit exactly (rules staged in batches)', () => {
    // Nine bindings, six distinct rules ((on 1) and (on 2) read twice are one body): 15 literals.
    const text = '(role r)\n(<= (legal r go) (true (on ?x)) (true (on ?y)))';
    const sets = supersets(['(on 1)', '(on 2)', '(on 3)'], ['(r go)']);
    expect(ground(text, sets, { ...TEST_INSTANTIATE_LIMITS, maxRules: 6, maxLiterals: 15 }).rules.length).toBe(6);
    const fail = (limits: Partial<typeof TEST_INSTANTIATE_LIMITS>): string => {
      try {
        ground(text, sets, { ...TEST_INSTANTIATE_LIMITS, ...limits });
      } catch (e) {
        return (e as GdlError).message;
      }
      return 'no error';
    };
    expect(fail({ maxRules: 5 })).toMatch(/exceeded 5 ground rules/);
    expect(fail({ maxLiterals: 14 })).toMatch(/exceeded 14 ground literals/);
  });

  it('stops with a limit error when the deadline has passed during a large join', () => {
    const nums = Array.from({ length: 30 }, (_, i) => `(n ${i})`).join(' ');
    const text = `(role r) ${nums}\n(<= (score ?x ?y ?z) (n ?x) (n ?y) (n ?z) (true (on ?w)))`;
    const sets = supersets(['(on 1)'], []);
    expect(() => ground(text, sets, { ...TEST_INSTANTIATE_LIMITS, deadline: new Deadline(Date.now() - 1) })).toThrowError(/time limit/);
    expect(ground(text, sets).rules.length).toBe(30 ** 3);
  });

  it('enumerates variables of static atoms only until one completion is found', () => {
    // ?y and ?z occur only in static atoms: one ground rule per ?x, found without 30^2 repeats.
    const nums = Array.from({ length: 30 }, (_, i) => `(n ${i})`).join(' ');
    const text = `(role r) ${nums}\n(<= (score ?x) (n ?x) (n ?y) (n ?z) (true (on ?x)) (distinct ?y ?z))`;
    const sets = supersets(['(on 1)', '(on 2)'], []);
    expect(ruleLines(ground(text, sets))).toEqual(['(<= (score 1) (true (on 1)))', '(<= (score 2) (true (on 2)))']);
  });

  it('gives the same ground game whatever the order of the rules', () => {
    const lines = STEPS.trim().split('\n');
    const sets = supersets(['(pos 4)', '(pos 3)', '(pos 1)', '(pos 2)'], ['(r (go 4))', '(r (go 2))', '(r (go 3))']);
    const a = emitGdl(ground(lines.join('\n'), sets), undefined, Deadline.never());
    const b = emitGdl(ground([lines[0]!, ...lines.slice(1).reverse()].join('\n'), sets), undefined, Deadline.never());
    expect(b).toBe(a);
  });

  it('handles fluents nested thousands deep without exhausting the stack', () => {
    const depth = 20_000;
    const deep = `${'(s '.repeat(depth)}0${')'.repeat(depth)}`;
    const text = `(role r) (init (c ${deep})) (<= (next (c (s ?x))) (true (c ?x)) (does r tick)) (<= (legal r tick) (true (c ?x)))`;
    const fluent = (d: number): string => `(c ${'(s '.repeat(d)}0${')'.repeat(d)})`;
    const g = ground(text, supersets([fluent(depth), fluent(depth + 1)], ['(r tick)']));
    // One legal rule per fluent; one next rule (the successor of the deeper fluent is not a fluent).
    expect(g.rules.length).toBe(3);
    const out = emitGdl(g, undefined, Deadline.never());
    expect(out).toContain(`(<= (next ${fluent(depth + 1)}) (does r tick) (true ${fluent(depth)}))`);
    expect(parseGdl(out, undefined, Deadline.never()).diagnostics).toEqual([]);
  });
});
