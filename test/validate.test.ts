// Validator: each check on small games, the repairs and what they leave, sorting and deep input.
import { describe, expect, it } from 'vitest';
import { parseGdl } from '../src/gdl/parser.js';
import { validateGame } from '../src/normalize/validate.js';
import { type Diagnostic, formatDiagnostic, sortDiagnostics } from '../src/gdl/diagnostics.js';
import { formulaToString } from '../src/gdl/terms.js';
import { normalizeGame } from './support/normalize.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

/** The frame every test game shares, so that only the rules under test can cause problems. */
const FRAME = '(role robot)\n(init p)\n(legal robot go)\n(<= terminal (true p))\n(goal robot 100)\n';

function validate(rules: string, frame = FRAME): { lines: string[]; result: ReturnType<typeof validateGame> } {
  const parsed = parseGdl(frame + rules, 'g.kif', Deadline.never());
  expect(parsed.diagnostics).toEqual([]);
  const result = validateGame(parsed.game, undefined, undefined, Deadline.never());
  // Line numbers below count from the first rule under test.
  const offset = frame.split('\n').length - 1;
  const lines = result.diagnostics.map((d: Diagnostic) => `${d.line - offset}:${d.col} ${d.severity}: ${d.message}`);
  return { lines, result };
}

/** Like {@link validate}, through the pipeline's loadGame: unsafe head variables are bound over domains there. */
function load(rules: string, frame = FRAME): string[] {
  const offset = frame.split('\n').length - 1;
  const line = (d: Diagnostic): string => `${d.line - offset}:${d.col} ${d.severity}: ${d.message}`;
  try {
    return loadGame(frame + rules, 'g.kif', defaultPipelineOptions(), new StageTimer()).warnings.map(line);
  } catch (err) {
    if (err instanceof GdlError) return err.diagnostics.map(line);
    throw err;
  }
}

function bodyOf(result: ReturnType<typeof validateGame>, rel: string): string[] {
  return result.game.rules.filter((r) => r.head.rel === rel).map((r) => r.body.map(formulaToString).join(' '));
}

describe('validateGame: clean games', () => {
  it('accepts a small valid game with no diagnostics', () => {
    expect(validate('(<= (next q) (true p) (does robot go))').lines).toEqual([]);
  });

  it('reads (not (distinct ?x a)) as ?x = a, which binds ?x, with a warning (strict GDL does not bind so)', () => {
    expect(validate('(<= (q ?x) (not (distinct ?x a)))\n(<= (next p) (q a))').lines).toEqual([
      "1:1 warning: variable ?x is bound only by the equality (not (distinct ?x a)), which strict GDL does not count as binding; read as the equality, solved by unification (a Prolog-based player tests it on whatever its call binds, and finds it false for a free variable)",
    ]);
    // A variable that a positive atom binds as well needs no warning.
    expect(validate('(<= (q ?x) (true (c ?x)) (not (distinct ?x a)))\n(<= (next p) (q a))').lines).toEqual([]);
  });

  it('allows an object constant and a function of the same name, and a relation named like a function', () => {
    expect(validate('(init (turn move))\n(<= (next (move 1)) (true p))\n(<= (turn ?x) (true (turn ?x)))\n(<= (next p) (turn move))').lines).toEqual([]);
  });

  it('accepts recursion that keeps to the restriction', () => {
    expect(validate('(succ 0 1)\n(succ 1 2)\n(<= (lt ?x ?y) (succ ?x ?y))\n(<= (lt ?x ?y) (succ ?x ?z) (lt ?z ?y))\n(<= (next p) (lt 0 2))').lines).toEqual([]);
  });
});

describe('validateGame: errors', () => {
  it('warns once per further arity of a relation or function (distinct symbols), and refuses keyword arities', () => {
    expect(validate('(adj 1)\n(adj 1 2)\n(adj 3 4)\n(init (f 1))\n(init (f 1 2))\n(<= (next (true p)) (true p))\n(legal robot go now)').lines).toEqual([
      "2:1 warning: relation 'adj' is used with 2 arguments here but with 1 argument at 6:1; read as distinct relations adj/1 and adj/2",
      "5:7 warning: function 'f' is used with 2 arguments here but with 1 argument at 9:7; read as distinct functions f/1 and f/2",
      "6:11 error: keyword 'true' is used as a function inside a term",
      "7:1 error: 'legal' takes 2 arguments, not 3",
    ]);
  });

  it('keys relations by name and arity: p/1 static beside a recursive p/2 breaks no restriction', () => {
    const game = '(p 1)\n(s 1 2)\n(<= (p ?x ?y) (s ?x ?y))\n(<= (p ?x ?z) (p ?x ?y) (s ?y ?z))\n(<= (p ?x) (true (c ?x)) (p 1 ?x))\n(<= (next p) (p 1 2) (p 1))';
    expect(validate(game).lines).toEqual([
      "3:5 warning: relation 'p' is used with 2 arguments here but with 1 argument at 6:1; read as distinct relations p/1 and p/2",
    ]);
  });

  it('warns about connectives beyond strict GDL: and, not of a compound formula, or of compound formulas', () => {
    const and = "1:1 warning: 'and' in a rule body is not strict GDL (a body is already a conjunction); read as a conjunction";
    const cases: [string, string][] = [
      ['(and (true p) (not (or (true q) (true r))))', "'not' of a compound formula is not strict GDL (it negates an atom or a distinct); read by De Morgan's laws: (not (or (true q) (true r)))"],
      ['(or (true p) (and (true q) (true r)))', "'or' of a compound formula is not strict GDL (it joins literals); read in disjunctive normal form: (or (true p) (and (true q) (true r)))"],
    ];
    for (const [body, second] of cases) expect(validate(`(<= (next q) ${body})`).lines).toEqual([and, `1:1 warning: ${second}`]);
  });

  it('judges safety per disjunct of the DNF and reports at the rule', () => {
    expect(validate('(<= (next (c ?y))\n  (true (c ?y)) (not (true (c ?x))) (distinct ?x 1))').lines).toEqual([
      "1:1 error: unsafe rule for 'next': variable ?x of (distinct ?x 1) is bound by no positive literal",
      "1:1 error: unsafe rule for 'next': variable ?x of (not (true (c ?x))) is bound by no positive literal",
    ]);
    expect(validate('(<= (next p)\n  (or (true (c ?x)) (true p)) (not (true (c ?x))))').lines).toEqual([
      "1:1 error: unsafe rule for 'next': variable ?x of (not (true (c ?x))) is bound by no positive literal (in one disjunct of its body)",
    ]);
  });

  it('defers an unbound head variable to the domain repair: bound over its finite domain, refused over an infinite one', () => {
    // The validator alone finds nothing; loading binds ?x over the domain of c's argument.
    expect(validate('(<= (next (c ?x))\n  (or (true (c ?x)) (true p)))\n(init (c 1))\n(init (c 2))').lines).toEqual([]);
    expect(load('(<= (next (c ?x))\n  (or (true (c ?x)) (true p)))\n(init (c 1))\n(init (c 2))')).toEqual([
      "1:1 warning: unsafe rule for 'next': variable ?x of the head is bound by no positive literal; repaired by binding it over the 2 values the dependency graph gives its position (argument 1 of function c/1; relation 'domain_1')",
    ]);
    expect(load('(init (c 0))\n(<= (next (c (s ?x))) (true (c ?x)))\n(<= (next (c ?y)) (true p))')).toEqual([
      "3:1 error: unsafe rule for 'next': variable ?y of the head is bound by no positive literal, and the domain of its position (argument 1 of function c/1) is infinite, so it cannot be bound over it",
    ]);
  });

  it('reports unbound variables of negative literals and of distinct beside the head', () => {
    expect(validate('(<= (next p) (not (true (c ?x))) (distinct ?x a))\n(<= (next (c ?y)) (true (c ?x)) (distinct ?x ?y))').lines).toEqual([
      "1:1 error: unsafe rule for 'next': variable ?x of (distinct ?x a) is bound by no positive literal",
      "1:1 error: unsafe rule for 'next': variable ?x of (not (true (c ?x))) is bound by no positive literal",
    ]);
    // Alone, the negative literal over a free variable reads "no such ?x at all" (repair 5).
    const { lines, result } = validate('(<= (next p) (true q) (not (true (c ?x))))');
    expect(lines).toEqual([
      "1:1 warning: unsafe rule for 'next': variable ?x of (not (true (c ?x))) is bound by no positive literal; repaired by reading it as Prolog-based players do, \"no such ?x at all\": (not some_true) with (<= some_true (true (c ?x)))",
    ]);
    expect(bodyOf(result, 'next')).toContain('(true q) (not some_true)');
    expect(bodyOf(result, 'some_true')).toEqual(['(true (c ?x))']);
    // ?y of the head (and so of the distinct) is bound over its domain instead: empty here.
    expect(load('(<= (next (c ?y)) (true (c ?x)) (distinct ?x ?y))')).toEqual([
      "1:1 warning: unsafe rule for 'next': variable ?y of the head is bound by no positive literal; repaired by binding it over the 0 values the dependency graph gives its position (argument 1 of function c/1; relation 'domain_1')",
    ]);
  });

  it('finds negation through recursion, but not where constants separate the instances', () => {
    const { lines } = validate('(<= (q ?x) (true (c ?x)) (not (q ?x)))\n(<= (r 1) (true p))\n(<= (r 2) (not (r 1)))\n(<= (next p) (q 1) (r 2))');
    expect(lines).toEqual([
      "1:1 error: negation through recursion (the rules are not stratified): 'q' depends negatively on itself, through (not (q ?x))",
      "3:1 warning: 'r' depends negatively on itself through (not (r 1)), but no instance depends on itself: accepted as stratified once the relations are split by their constant arguments",
    ]);
  });

  it('enforces the recursion restriction', () => {
    const { lines } = validate('(n 0)\n(<= (n ?y) (n (s ?y)))\n(<= (next p) (n 0))');
    expect(lines).toEqual([
      "2:1 error: recursion restriction violated in a rule for 'n': argument (s ?y) of the recursive literal (n (s ?y)) is not ground, not an argument of the head, and not an argument of a non-recursive positive literal",
    ]);
  });

  it('places keywords: true/does in heads, next/init in bodies, rules for role', () => {
    const { lines } = validate('(<= (true q) (true p))\n(does robot go)\n(<= (next q) (next p))\n(<= (next q) (init p))\n(<= (role ?x) (true (c ?x)))');
    expect(lines).toEqual([
      "1:5 error: 'true' cannot stand in the head of a rule or as a fact",
      "2:1 error: 'does' cannot stand in the head of a rule or as a fact",
      "3:14 error: 'next' cannot stand in the body of a rule",
      "4:14 error: 'init' cannot stand in the body of a rule",
      "5:1 error: roles must be given as facts, not by rules: 'role' cannot be the head of a rule",
    ]);
  });

  it('finds does feeding goal transitively and init depending on the state', () => {
    const { lines } = validate('(<= a (does robot go))\n(<= b a)\n(<= (goal robot 0) b)\n(<= (init q) (true p))\n(<= (next p) b)');
    expect(lines).toEqual([
      "3:1 error: 'goal' must not depend on 'does' (the moves of the current step), but it does: does -> a -> b -> goal",
      "4:1 error: 'init' must not depend on the state of the game, but it does: true -> init",
    ]);
  });

  it('requires roles, legal, goal and terminal, and reports an empty game once', () => {
    expect(validate('(init p)', '').lines).toEqual([
      "1:1 error: no end: the game has no rules or facts for 'terminal'",
      "1:1 error: no goals: the game has no rules or facts for 'goal'",
      "1:1 error: no legal moves: the game has no rules or facts for 'legal'",
      "1:1 error: no roles: the game has no (role ...) facts",
    ]);
    expect(validateGame(parseGdl('; nothing', 'e.kif', Deadline.never()).game, undefined, undefined, Deadline.never()).diagnostics.map(formatDiagnostic)).toEqual([
      'e.kif:1:1: error: empty game: the file holds no rules or facts',
    ]);
  });

  it('reports all problems at once, sorted by position', () => {
    const { result } = validate('(<= (next (c ?y)) (true p) (not (q ?y)))\n(adj 1)\n(adj 1 2)\n(<= (true q) (true p))\n(<= (p ?x) (not (p ?x)) (true (c ?x)))\n(<= (q ?z) (not (c ?w)) (true (c ?z)))');
    expect(result.diagnostics.length).toBe(5);
    expect(result.diagnostics.filter((d) => d.severity === 'error').length).toBe(2);
    expect(result.diagnostics).toEqual(sortDiagnostics(result.diagnostics));
  });
});

describe('validateGame: repairs', () => {
  it('binds an unbound role variable of goal with (role ?r), with a warning', () => {
    const { lines, result } = validate('(<= (goal ?r 0) (true q))', FRAME.replace('(goal robot 100)\n', ''));
    expect(lines).toEqual(["1:1 warning: unsafe rule for 'goal': role variable ?r is bound by no positive literal; repaired by adding (role ?r) to the body"]);
    expect(bodyOf(result, 'goal')).toEqual(['(role ?r) (true q)']);
  });

  it('reads a variable that only distinct mentions as a fresh constant', () => {
    const { lines, result } = validate('(init free_z)\n(<= (next q) (true p) (distinct ?z a))\n(<= (next r) (true p) (distinct ?z ?z))');
    expect(lines).toEqual([
      "2:1 warning: unsafe rule for 'next': variable ?z occurs only in 'distinct'; repaired by replacing it with the fresh constant 'free_z_2', which equals nothing else, as in the syntactic comparison of Prolog-based players",
      "3:1 warning: unsafe rule for 'next': variable ?z occurs only in 'distinct'; repaired by replacing it with the fresh constant 'free_z_3', which equals nothing else, as in the syntactic comparison of Prolog-based players",
    ]);
    // (distinct free a) always holds, (distinct free free) never: the normalizer folds both.
    const normal = normalizeGame(result.game).rules.filter((r) => r.head.rel === 'next').map((r) => r.body.length);
    expect(normal).toEqual([1]);
  });

  it('inlines a relation whose rules only test distinct of unbound head variables', () => {
    const { lines, result } = validate('(<= (dc ?x ?y ?m ?n) (distinct ?y ?n))\n(<= (dc ?x ?y ?m ?n) (distinct ?x ?m))\n(<= (next (c ?a ?b)) (true (c ?a ?b)) (true (d ?m ?n)) (dc ?a ?b ?m ?n))');
    expect(lines).toEqual([
      "1:1 warning: unsafe rule for 'dc': its head variables are bound by no positive literal, and its body holds only 'distinct'; repaired by inlining 'dc' into the rules that use it",
      "2:1 warning: unsafe rule for 'dc': its head variables are bound by no positive literal, and its body holds only 'distinct'; repaired by inlining 'dc' into the rules that use it",
    ]);
    expect(bodyOf(result, 'dc')).toEqual([]);
    expect(bodyOf(result, 'next')).toEqual(['(true (c ?a ?b)) (true (d ?m ?n)) (or (and (distinct ?b ?n)) (and (distinct ?a ?m)))']);
  });

  it('binds a head variable outside a role position over its domain, not over the roles', () => {
    expect(load('(<= (legal robot (m ?x)) (true p))\n(<= (legal robot (m 3)) (true q))\n(<= (next (c ?x)) (does robot (m ?x)))')).toEqual([
      "1:1 warning: unsafe rule for 'legal': variable ?x of the head is bound by no positive literal; repaired by binding it over the 1 value the dependency graph gives its position (argument 1 of function m/1; relation 'domain_1')",
    ]);
  });
});

describe('validateGame: input size', () => {
  it('handles terms nested 100000 deep without exhausting the stack', () => {
    const n = 100_000;
    const deep = `${'(s '.repeat(n)}?x${')'.repeat(n)}`;
    const { lines } = validate(`(<= (next (c ${deep})) (true (c ?x)))\n(<= (next (c ?y)) (true (c ${deep})) (not (true (c ?y))))`);
    expect(lines).toEqual([]);
  });
});

describe('validateGame: repairs never hide errors', () => {
  it('keeps a variable that is unsafe in a negative literal of another disjunct an error', () => {
    const { lines } = validate('(<= (next q) (true p) (or (distinct ?z a) (not (true (c ?z)))))');
    expect(lines).toEqual(["1:1 error: unsafe rule for 'next': variable ?z of (not (true (c ?z))) is bound by no positive literal (in one disjunct of its body)"]);
  });
});
