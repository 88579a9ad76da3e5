// The engine's own steps (JavaScript tables enumerated lazily, once/1 and \==/2 stepped
// directly) against Tau-Prolog doing everything itself: random facts and random clauses with
// once groups, distincts and function terms (ground in facts, with variables in calls) must
// give the same answers in the same order.
import { Deadline } from '../src/deadline.js';
import { describe, expect, it } from 'vitest';
import { random } from './support/seeded.js';
import { type PrologEngine, type TauTerm, createEngine, makeTerm, makeVar, tauKif } from '../src/engine/tau.js';

const RELATIONS = [
  { name: 'a', arity: 2 },
  { name: 'b', arity: 2 },
  { name: 'c', arity: 1 },
  // Facts of d are function terms; calls of d often are too, with variables inside.
  { name: 'd', arity: 1 },
] as const;
const VARS = ['X', 'Y', 'Z', 'W'];

/** A term: a constant or variable name, or a function term. */
type Arg = string | { readonly f: string; readonly args: readonly Arg[] };

interface Program {
  facts: { name: string; args: Arg[] }[];
  /** Goals of the body, each a call, a distinct, or a once group of calls and distincts. */
  body: Goal[];
}
type Goal = { kind: 'call'; name: string; args: Arg[] } | { kind: 'neq'; left: string; right: string } | { kind: 'once'; goals: Goal[] };

function randomProgram(next: () => number): Program {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const domain = ['p', 'q', 'r', 's', 't'];
  // Now and then a function term f(_) or g(_, _) of what `leaf` gives.
  const fnOr = (leaf: () => string, chance = 0.1): Arg => {
    if (next() >= chance) return leaf();
    return next() < 0.5 ? { f: 'f', args: [leaf()] } : { f: 'g', args: [leaf(), leaf()] };
  };
  const facts: Program['facts'] = [];
  for (const r of RELATIONS) {
    const n = Math.floor(next() * 12);
    for (let i = 0; i < n; i++) facts.push({ name: r.name, args: Array.from({ length: r.arity }, () => fnOr(() => pick(domain), r.name === 'd' ? 1 : 0.1)) });
  }
  // Tables hold sets (the reach stage adds each fact once), so the reference gets no duplicates either.
  const unique = [...new Map(facts.map((f) => [`${f.name}${JSON.stringify(f.args)}`, f])).values()];
  const term = (): string => (next() < 0.75 ? pick(VARS) : pick(domain));
  const call = (): Goal => {
    const r = pick(RELATIONS);
    return { kind: 'call', name: r.name, args: Array.from({ length: r.arity }, () => fnOr(term, r.name === 'd' ? 0.6 : 0.1)) };
  };
  const simple = (): Goal => (next() < 0.75 ? call() : { kind: 'neq', left: pick(VARS), right: term() });
  const body: Goal[] = [call()];
  const length = 1 + Math.floor(next() * 4);
  for (let i = 0; i < length; i++) {
    body.push(next() < 0.3 ? { kind: 'once', goals: [call(), ...(next() < 0.5 ? [simple()] : [])] } : simple());
  }
  return { facts: unique, body };
}

const isVar = (s: Arg): boolean => typeof s === 'string' && VARS.includes(s);

/** Loads the program: facts in JavaScript tables, or as plain Prolog facts. */
function load(p: Program, tables: boolean): PrologEngine {
  const engine = createEngine({ deadline: Deadline.never() }, { directSteps: tables });
  engine.consult(':- set_prolog_flag(unknown, fail).');
  const vars = new Map(VARS.map((v) => [v, makeVar(v)]));
  const arg = (s: Arg): TauTerm => (typeof s !== 'string' ? makeTerm(s.f, s.args.map(arg)) : isVar(s) ? vars.get(s)! : makeTerm(s, []));
  if (tables) for (const r of RELATIONS) engine.defineTable(r.name, r.arity);
  for (const f of p.facts) {
    if (tables) engine.addToTable(f.name, f.args.map(arg));
    else engine.addFacts([makeTerm(f.name, f.args.map(arg))]);
  }
  const goal = (g: Goal): TauTerm => {
    if (g.kind === 'call') return makeTerm(g.name, g.args.map(arg));
    if (g.kind === 'neq') return makeTerm('\\==', [arg(g.left), arg(g.right)]);
    return makeTerm('once', [conj(g.goals.map(goal))]);
  };
  const conj = (gs: TauTerm[]): TauTerm => gs.reduceRight((acc, g) => makeTerm(',', [g, acc]));
  // Variables the body leaves unbound come out as '_' in both engines.
  engine.addClause(makeTerm('q', VARS.map((v) => vars.get(v)!)), conj(p.body.map(goal)));
  return engine;
}

function answers(engine: PrologEngine): string[] {
  const out: string[] = [];
  engine.solveCall('q', VARS.length, (values) => out.push(values.map((v) => (isGroundText(v) ? tauKif(v).text : '_')).join(' ')));
  return out;
}

function isGroundText(t: TauTerm): boolean {
  try {
    tauKif(t);
    return true;
  } catch {
    return false;
  }
}

describe('engine steps', () => {
  it('enumerates a table of 1,000 facts fully, in insertion order', () => {
    const engine = createEngine({ deadline: Deadline.never() });
    engine.defineTable('n', 2);
    for (let i = 0; i < 1000; i++) engine.addToTable('n', [makeTerm(`k${i % 7}`, []), makeTerm(`v${i}`, [])]);
    engine.addClause(makeTerm('q', [makeVar('K'), makeVar('V')]), makeTerm('n', [makeVar('K'), makeVar('V')]));
    const seen: string[] = [];
    engine.solveCall('q', 2, (v) => seen.push(tauKif(v[1]!).text));
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => `v${i}`));
  });

  it('proves a once group of table calls and tests by its first solution, backtracking inside it', () => {
    // src/engine/once.ts: once((e(X, Y), f(Y, Z), Z \\== c)) must try e's later facts when f or
    // the test fails for the first ones, keep the first solution's bindings, and no other.
    const run = (direct: boolean): string[] => {
      const engine = createEngine({ deadline: Deadline.never() }, { directSteps: direct });
      engine.consult(':- set_prolog_flag(unknown, fail).');
      const c = (x: string): TauTerm => makeTerm(x, []);
      const [X, Y, Z, W] = ['X', 'Y', 'Z', 'W'].map(makeVar) as [TauTerm, TauTerm, TauTerm, TauTerm];
      const facts: [string, string[]][] = [['e', ['a', '1']], ['e', ['a', '2']], ['e', ['a', '3']], ['e', ['b', '3']], ['f', ['2', 'c']], ['f', ['3', 'c']], ['f', ['3', 'd']], ['f', ['3', 'e']], ['g', ['a']], ['g', ['b']]];
      if (direct) for (const [name, arity] of [['e', 2], ['f', 2], ['g', 1]] as const) engine.defineTable(name, arity);
      for (const [name, args] of facts) {
        if (direct) engine.addToTable(name, args.map(c));
        else engine.addFacts([makeTerm(name, args.map(c))]);
      }
      const group = makeTerm(',', [makeTerm('e', [X, Y]), makeTerm(',', [makeTerm('f', [Y, Z]), makeTerm('\\==', [Z, c('c')])])]);
      engine.addClause(makeTerm('q', [X, Y, Z, W]), makeTerm(',', [makeTerm('g', [X]), makeTerm(',', [makeTerm('once', [group]), makeTerm('e', [X, W])])]));
      const out: string[] = [];
      engine.solveCall('q', 4, (v) => out.push(v.map((t) => tauKif(t).text).join(' ')));
      return out;
    };
    expect(run(true)).toEqual(run(false));
    expect(run(true)).toEqual(['a 3 d 1', 'a 3 d 2', 'a 3 d 3', 'b 3 d 3']);
  });

  it('keeps a projection of a table: each distinct tuple once, as the table grows and is cleared', () => {
    const engine = createEngine({ deadline: Deadline.never() });
    engine.defineTable('t', 3);
    const add = (...xs: string[]) => engine.addToTable('t', xs.map((x) => makeTerm(x, [])));
    add('a', '1', 'x');
    add('a', '2', 'x');
    expect(engine.defineProjection('t', [2, 0], 'p')).toBe(true);
    expect(engine.defineProjection('missing', [0], 'q')).toBe(false);
    add('b', '1', 'x');
    add('a', '3', 'y');
    engine.addClause(makeTerm('q', [makeVar('A'), makeVar('B')]), makeTerm('p', [makeVar('A'), makeVar('B')]));
    const seen = (): string[] => {
      const out: string[] = [];
      engine.solveCall('q', 2, (v) => out.push(v.map((x) => tauKif(x).text).join(' ')));
      return out;
    };
    expect(seen()).toEqual(['x a', 'x b', 'y a']);
    engine.clearTable('t');
    expect(seen()).toEqual([]);
    add('c', '1', 'z');
    expect(seen()).toEqual(['z c']);
  });

  it('copies a fact\'s arguments into the table (from an offset): the array may be reused', () => {
    // src/engine/tables.ts: one flat array per table. A table that kept the caller's array (the
    // engine before it) would answer with whatever the buffer holds last.
    const engine = createEngine({ deadline: Deadline.never() });
    engine.defineTable('e', 2);
    const buffer = ['x', 'a', '1'].map((x) => makeTerm(x, []));
    engine.addToTable('e', buffer, 1);
    buffer[1] = makeTerm('b', []);
    buffer[2] = makeTerm('2', []);
    engine.addToTable('e', buffer, 1);
    buffer[1] = makeTerm('c', []);
    engine.addClause(makeTerm('q', [makeVar('A'), makeVar('B')]), makeTerm('e', [makeVar('A'), makeVar('B')]));
    const out: string[] = [];
    engine.solveCall('q', 2, (v) => out.push(v.map((x) => tauKif(x).text).join(' ')));
    expect(out).toEqual(['a 1', 'b 2']);
    expect(engine.tableSize('e')).toBe(2);
    expect(engine.tableData('e').map((t) => tauKif(t).text)).toEqual(['a', '1', 'b', '2']);
    expect(engine.tableSize('missing')).toBe(0);
  });

  it('starts a projection with the tuples of the first facts of another table as seen, kept across clears', () => {
    const engine = createEngine({ deadline: Deadline.never() });
    const add = (t: string, ...xs: string[]) => engine.addToTable(t, xs.map((x) => makeTerm(x, [])));
    engine.defineTable('F', 2);
    engine.defineTable('D', 2);
    add('F', 'a', '1');
    add('F', 'b', '2');
    add('F', 'c', '3');
    add('D', 'c', '3');
    add('D', 'a', '4');
    // F's first two facts were there before the delta: their tuples (a, b) are not new.
    expect(engine.defineProjection('D', [0], 'P', { table: 'F', count: 2 })).toBe(true);
    engine.addClause(makeTerm('q', [makeVar('A')]), makeTerm('P', [makeVar('A')]));
    const seen = (): string[] => {
      const out: string[] = [];
      engine.solveCall('q', 1, (v) => out.push(tauKif(v[0]!).text));
      return out;
    };
    expect(seen()).toEqual(['c']);
    engine.clearTable('D');
    add('D', 'c', '5');
    add('D', 'd', '6');
    expect(seen()).toEqual(['d']);
  });

  it('looks up a call by the ground arguments inside a compound argument, in insertion order', () => {
    // Chess's relaxed legal rules call legal2(P, move(Pc, U, V, X, Y)) with only the destination
    // bound: the inner index (src/engine/tables.ts) must give what a scan gives, in its order,
    // as the table grows, skipping facts with another term in that position.
    const engine = createEngine({ deadline: Deadline.never() });
    engine.defineTable('m', 2);
    const c = (x: string): TauTerm => makeTerm(x, []);
    const facts: string[][] = [];
    const add = (i: number): void => {
      const who = `p${i % 2}`;
      const to = [`x${i % 3}`, `y${i % 5}`];
      const move = i % 7 === 0 ? c('noop') : i % 11 === 0 ? makeTerm('jump', [c(to[0]!), c(to[1]!)]) : makeTerm('move', [c(`k${i}`), c(to[0]!), c(to[1]!)]);
      engine.addToTable('m', [c(who), move]);
      if (i % 7 !== 0 && i % 11 !== 0) facts.push([who, `k${i}`, to[0]!, to[1]!]);
    };
    const [P, K] = [makeVar('P'), makeVar('K')];
    engine.addClause(makeTerm('q', [P, K]), makeTerm('m', [P, makeTerm('move', [K, c('x1'), c('y2')])]));
    engine.addClause(makeTerm('r', [K]), makeTerm('m', [c('p1'), makeTerm('move', [K, c('x2'), makeVar('_')])]));
    const ask = (name: string, arity: number): string[] => {
      const out: string[] = [];
      engine.solveCall(name, arity, (v) => out.push(v.map((x) => tauKif(x).text).join(' ')));
      return out;
    };
    for (let i = 0; i < 60; i++) add(i);
    expect(ask('q', 2)).toEqual(facts.filter((f) => f[2] === 'x1' && f[3] === 'y2').map((f) => `${f[0]} ${f[1]}`));
    for (let i = 60; i < 200; i++) add(i);
    const q = ask('q', 2);
    expect(q).toEqual(facts.filter((f) => f[2] === 'x1' && f[3] === 'y2').map((f) => `${f[0]} ${f[1]}`));
    expect(q.length).toBeGreaterThan(3);
    expect(ask('r', 1)).toEqual(facts.filter((f) => f[0] === 'p1' && f[2] === 'x2').map((f) => f[1]));
  });

  it('picks the answers of a last call from its facts: a repeated variable, values bound before', () => {
    // src/engine/pick.ts: a(X, X) as the last goal keeps only the facts with equal arguments;
    // a(W, Y) with Y bound before reads W from the fact and Y, Z from the bindings before
    // (with Y = p two candidates: pick.ts leaves an entry of one to the walk).
    const facts = [
      ...[['p', 'p'], ['p', 'q'], ['q', 'q'], ['r', 's'], ['s', 'r'], ['t', 'p']].map((args) => ({ name: 'a', args })),
      ...[['p'], ['q']].map((args) => ({ name: 'c', args })),
      ...[['p', 'r'], ['s', 't']].map((args) => ({ name: 'b', args })),
    ];
    const repeated: Program = { facts, body: [{ kind: 'call', name: 'c', args: ['Y'] }, { kind: 'call', name: 'a', args: ['X', 'X'] }] };
    expect(answers(load(repeated, true))).toEqual(answers(load(repeated, false)));
    expect(answers(load(repeated, true))).toEqual(['p p _ _', 'q p _ _', 'p q _ _', 'q q _ _']);
    const before: Program = { facts, body: [{ kind: 'call', name: 'b', args: ['Y', 'Z'] }, { kind: 'call', name: 'a', args: ['W', 'Y'] }] };
    expect(answers(load(before, true))).toEqual(answers(load(before, false)));
    expect(answers(load(before, true))).toEqual(['_ p r p', '_ p r t', '_ s t r']);
  });

  it('agrees with Tau-Prolog\'s own steps on 800 random programs, answer for answer', () => {
    const next = random(20261123);
    let nonEmpty = 0;
    let withFunctions = 0;
    for (let i = 0; i < 800; i++) {
      const p = randomProgram(next);
      const ours = answers(load(p, true));
      const reference = answers(load(p, false));
      expect(ours, JSON.stringify(p)).toEqual(reference);
      if (reference.length > 0) nonEmpty++;
      if (reference.length > 0 && JSON.stringify(p.body).includes('"f":')) withFunctions++;
    }
    // The programs must exercise something: many have answers, some with function terms in calls.
    expect(nonEmpty).toBeGreaterThan(120);
    expect(withFunctions).toBeGreaterThan(30);
  });
});
