// The Datalog core: the relation store, the join and the semi-naive fixpoint, checked by hand
// and against a naive evaluator on random programs.
import { describe, expect, it } from 'vitest';
import { Relation } from '../src/datalog/relation.js';
import { type JoinAtom, type JoinCheck, UNBOUND, join } from '../src/datalog/join.js';
import { semiNaive } from '../src/datalog/fixpoint.js';
import { createRandom } from '../src/play/random.js';
import { type Block, type Store, addToStore, advanceRound, createBlock, createStore, storeSize, syncBlock } from '../src/datalog/block.js';
import { UNBOUND as FREE, compileAtom, compileTerm, matchPattern } from '../src/datalog/pattern.js';
import { TermTable } from '../src/datalog/terms.js';
import { NO_POS, type Term, mkAtom, mkConst } from '../src/gdl/ast.js';

const never = (): void => undefined;

function rowsOf(r: Relation): number[][] {
  return Array.from({ length: r.size }, (_, i) => r.tuple(i));
}

function chain(r: Relation, cols: number[], key: number[]): number[] {
  const index = r.index(cols);
  const out: number[] = [];
  for (let row = index.firstOf(key); row >= 0; row = index.nextRow(row)) out.push(row);
  return out;
}

describe('Relation', () => {
  it('keeps a set of tuples in insertion order', () => {
    const r = new Relation(2);
    expect(r.insert([1, 2])).toBe(true);
    expect(r.insert([2, 1])).toBe(true);
    expect(r.insert([1, 2])).toBe(false);
    expect(r.size).toBe(2);
    expect(r.has([2, 1])).toBe(true);
    expect(r.has([2, 2])).toBe(false);
    expect(r.find([2, 1])).toBe(1);
    expect(rowsOf(r)).toEqual([[1, 2], [2, 1]]);
  });

  it('keeps an index built before and after rows are added, chains ascending', () => {
    const r = new Relation(3);
    for (let i = 0; i < 50; i++) r.insert([i % 3, i % 5, i]);
    const before = chain(r, [0], [1]);
    for (let i = 50; i < 100; i++) r.insert([i % 3, i % 5, i]);
    const after = chain(r, [0], [1]);
    expect(before).toEqual(Array.from({ length: 17 }, (_, k) => 3 * k + 1));
    expect(after).toEqual(Array.from({ length: 33 }, (_, k) => 3 * k + 1));
    expect(chain(r, [0, 1], [2, 4])).toEqual(rowsOf(r).flatMap((t, i) => (t[0] === 2 && t[1] === 4 ? [i] : [])));
    expect(chain(r, [1], [7])).toEqual([]);
    expect(r.distinct(0)).toBe(3);
    expect(r.distinct(1)).toBe(5);
  });

  it('grows past many rehashes without losing members', () => {
    const r = new Relation(1);
    for (let i = 0; i < 20000; i++) r.insertValue(i * 7919);
    for (let i = 0; i < 20000; i++) expect(r.insertValue(i * 7919)).toBe(false);
    expect(r.size).toBe(20000);
    expect(r.hasValue(7919 * 19999)).toBe(true);
    expect(r.hasValue(1)).toBe(false);
  });

  it('marks round deltas', () => {
    const r = new Relation(1);
    r.insertValue(1);
    r.markRound();
    r.insertValue(2);
    r.insertValue(3);
    r.markRound();
    expect(r.delta()).toEqual([1, 3]);
    r.markRound();
    expect(r.delta()).toEqual([3, 3]);
  });

  it('has one empty tuple at most at arity 0', () => {
    const r = new Relation(0);
    expect(r.has([])).toBe(false);
    expect(r.insert([])).toBe(true);
    expect(r.insert([])).toBe(false);
    expect(r.size).toBe(1);
  });
});

function all(nVars: number, atoms: JoinAtom[], checks: JoinCheck[] = [], outputs: Set<number> | null = null): string[] {
  const out: string[] = [];
  join(nVars, atoms, checks, outputs, never, (b) => out.push(Array.from(b).join(',')));
  return out.sort();
}

function rel(arity: number, tuples: number[][]): Relation {
  const r = new Relation(arity);
  for (const t of tuples) r.insert(t);
  return r;
}

describe('join', () => {
  const edge = rel(2, [[1, 2], [2, 3], [3, 1], [2, 4]]);
  const whole = (r: Relation, vars: number[]): JoinAtom => ({ rel: r, vars, lo: 0, hi: r.size });

  it('joins on shared variables: paths of length two', () => {
    expect(all(3, [whole(edge, [0, 1]), whole(edge, [1, 2])])).toEqual(['1,2,3', '1,2,4', '2,3,1', '3,1,2'].sort());
  });

  it('compares a variable repeated within one atom, skips unjoined columns', () => {
    const r = rel(3, [[1, 1, 9], [1, 2, 9], [3, 3, 8]]);
    expect(all(1, [whole(r, [0, 0, UNBOUND])])).toEqual(['1', '3']);
  });

  it('runs tests as soon as their variables are bound and respects row ranges', () => {
    const distinct: JoinCheck = { vars: [0, 2], test: (b) => b[0] !== b[2] };
    expect(all(3, [whole(edge, [0, 1]), whole(edge, [1, 2])], [distinct])).toEqual(['1,2,3', '1,2,4', '2,3,1', '3,1,2'].sort());
    const cycle: JoinCheck = { vars: [0, 2], test: (b) => b[0] === b[2] };
    expect(all(3, [whole(edge, [0, 1]), whole(edge, [1, 2])], [cycle])).toEqual([]);
    expect(all(3, [{ rel: edge, vars: [0, 1], lo: 3, hi: 4 }, whole(edge, [1, 2])])).toEqual([]);
    expect(all(3, [{ rel: edge, vars: [0, 1], lo: 0, hi: 1 }, whole(edge, [1, 2])])).toEqual(['1,2,3', '1,2,4']);
  });

  it('stops at one completion once the outputs are bound (existential cut-off)', () => {
    // Only variable 0 is an output: node 2 has two successors but is reported once.
    const out: number[] = [];
    join(3, [whole(edge, [0, 1]), whole(edge, [1, 2])], [], new Set([0]), never, (b) => out.push(b[0]!));
    expect(out.sort()).toEqual([1, 2, 3]);
  });

  it('reads a semi-naive delta first when walking its index chains would read its older rows', () => {
    // step(X, Y): 10 rows; d(X, J): 100 old rows per X, then a delta of 2 new rows per X (22 >
    // 10, so the greedy order alone takes step first and then walks d's chains of 102 rows).
    const step = rel(2, Array.from({ length: 10 }, (_, i) => [i, i + 1]));
    const tuples: number[][] = [];
    for (let x = 0; x <= 10; x++) for (let j = 0; j < 100; j++) tuples.push([x, j]);
    const lo = tuples.length;
    for (let x = 0; x <= 10; x++) for (let j = 0; j < 2; j++) tuples.push([x, 1000 + j]);
    const d = rel(2, tuples);
    let ticks = 0;
    const out: string[] = [];
    join(3, [whole(step, [0, 1]), { rel: d, vars: [0, 2], lo, hi: d.size }], [], null, () => void ticks++, (b) => out.push(Array.from(b).join(',')));
    expect(out.sort()).toEqual(Array.from({ length: 10 }, (_, x) => [`${x},${x + 1},1000`, `${x},${x + 1},1001`]).flat().sort());
    // Delta first: its 22 rows and one probe of step each; step first read over 1,000 rows.
    expect(ticks).toBeLessThan(100);
  });

  it('reports a limit through the tick', () => {
    const big = rel(1, Array.from({ length: 10000 }, (_, i) => [i]));
    let ticks = 0;
    const stop = (): void => {
      if (++ticks > 100) throw new Error('limit');
    };
    expect(() => join(2, [whole(big, [0]), whole(big, [1])], [], null, stop, () => undefined)).toThrow('limit');
  });
});

/** A random rule: atoms over variables 0..nVars-1; the head's variables occur in the body. */
interface TestRule {
  readonly head: { rel: number; vars: number[] };
  readonly body: { rel: number; vars: number[] }[];
  readonly distinct: [number, number][];
  readonly nVars: number;
}

function randomProgram(seed: number): { arities: number[]; facts: number[][][]; rules: TestRule[] } {
  const rnd = createRandom(seed);
  const int = (n: number): number => rnd.below(n);
  const arities = Array.from({ length: 2 + int(3) }, () => 1 + int(3));
  const facts = arities.map((a) => Array.from({ length: int(8) }, () => Array.from({ length: a }, () => int(5))));
  const rules: TestRule[] = Array.from({ length: 1 + int(5) }, () => {
    const nVars = 1 + int(4);
    const body = Array.from({ length: 1 + int(3) }, () => {
      const r = int(arities.length);
      return { rel: r, vars: Array.from({ length: arities[r]! }, () => int(nVars)) };
    });
    const bound = [...new Set(body.flatMap((a) => a.vars))];
    const h = int(arities.length);
    const head = { rel: h, vars: Array.from({ length: arities[h]! }, () => bound[int(bound.length)]!) };
    const distinct: [number, number][] = int(10) < 3 ? [[bound[int(bound.length)]!, bound[int(bound.length)]!]] : [];
    return { head, body, distinct, nVars };
  });
  return { arities, facts, rules };
}

/** The least model by naive iteration and brute-force enumeration of every body. */
function naiveModel(p: ReturnType<typeof randomProgram>): Set<string>[] {
  const model = p.facts.map((ts) => new Set(ts.map((t) => t.join(','))));
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of p.rules) {
      const tuples = r.body.map((a) => [...model[a.rel]!].map((t) => t.split(',').map(Number)));
      const b: number[] = new Array(r.nVars).fill(-1);
      const found: string[] = [];
      const walk = (i: number): void => {
        if (i === r.body.length) {
          if (r.distinct.every(([x, y]) => b[x] !== b[y])) found.push(r.head.vars.map((v) => b[v]).join(','));
          return;
        }
        for (const t of tuples[i]!) {
          const saved = [...b];
          if (r.body[i]!.vars.every((v, c) => (b[v] === -1 ? ((b[v] = t[c]!), true) : b[v] === t[c]))) walk(i + 1);
          b.splice(0, b.length, ...saved);
        }
      };
      walk(0);
      for (const f of found) if (!model[r.head.rel]!.has(f)) (model[r.head.rel]!.add(f), (changed = true));
    }
  }
  return model;
}

/** The least model with the core: one recursive component, semi-naive over Relation deltas. */
function coreModel(p: ReturnType<typeof randomProgram>, cutOff: boolean): Set<string>[] {
  const rels = p.arities.map((a, i) => rel(a, p.facts[i]!));
  for (const r of rels) r.markRound();
  const pending: [number, number[]][] = [];
  semiNaive<TestRule>({
    rules: p.rules,
    recursiveAtoms: (rule) => rule.body.map((_, i) => i),
    fire: (rule, delta) => {
      const atoms = rule.body.map((a, i): JoinAtom => {
        const r = rels[a.rel]!;
        const [lo, hi] = i === delta ? r.delta() : [0, r.size];
        return { rel: r, vars: a.vars, lo, hi };
      });
      const checks = rule.distinct.map(([x, y]): JoinCheck => ({ vars: [x, y], test: (b) => b[x] !== b[y] }));
      join(rule.nVars, atoms, checks, cutOff ? new Set(rule.head.vars) : null, never, (b) => {
        pending.push([rule.head.rel, rule.head.vars.map((v) => b[v]!)]);
      });
    },
    commit: () => {
      let fresh = false;
      for (const [r, t] of pending.splice(0)) fresh = rels[r]!.insert(t) || fresh;
      for (const r of rels) r.markRound();
      return fresh;
    },
  });
  return rels.map((r) => new Set(rowsOf(r).map((t) => t.join(','))));
}

describe('semi-naive fixpoint', () => {
  it('computes a transitive closure', () => {
    const p = { arities: [2, 2], facts: [[[1, 2], [2, 3], [3, 4], [4, 1]], []], rules: [
      { head: { rel: 1, vars: [0, 1] }, body: [{ rel: 0, vars: [0, 1] }], distinct: [], nVars: 2 },
      { head: { rel: 1, vars: [0, 2] }, body: [{ rel: 1, vars: [0, 1] }, { rel: 0, vars: [1, 2] }], distinct: [], nVars: 3 },
    ] as TestRule[] };
    expect(coreModel(p, false)[1]!.size).toBe(16);
  });

  it('agrees with a naive evaluator on 300 random programs, with and without the cut-off', () => {
    let nonTrivial = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const p = randomProgram(seed);
      const expected = naiveModel(p).map((s) => [...s].sort());
      expect(coreModel(p, false).map((s) => [...s].sort()), `seed ${seed}`).toEqual(expected);
      expect(coreModel(p, true).map((s) => [...s].sort()), `seed ${seed} (cut-off)`).toEqual(expected);
      if (expected.some((s, i) => s.length > p.facts[i]!.length)) nonTrivial++;
    }
    // The generator must produce programs that derive something, or the test proves nothing.
    expect(nonTrivial).toBeGreaterThan(100);
  });
});

describe('blocks', () => {
  const v = (name: string): Term => ({ kind: 'var', name, pos: NO_POS });

  // p(a, 0..n-1) and p(b, 0..n-1) in one store; the block of p(a, ?x) keeps no column.
  function setup(n: number): { table: TermTable; store: Store; add: (c: string, i: number) => void; block: Block } {
    const table = new TermTable();
    const store = createStore('p/2');
    const add = (c: string, i: number): void => {
      addToStore(store, table.compound('p', [table.constant(c), table.constant(String(i))]));
    };
    for (let i = 0; i < n; i++) (add('b', i), add('a', i));
    const pattern = compileAtom(mkAtom('p', [mkConst('a'), v('?x')]), new Map(), table);
    return { table, store, add, block: createBlock(store, pattern, 1, [], false) };
  }

  // Rows and the size of the delta after the block catches up and ends a round.
  const round = (table: TermTable, block: Block): number[] => {
    advanceRound([block], table);
    const [lo, hi] = block.rows.delta();
    return [block.rows.size, hi - lo];
  };

  it('a block without columns holds one empty row once some entry matches, and keeps it', () => {
    const { table, add, block } = setup(50);
    expect(round(table, block)).toEqual([1, 1]);
    expect(block.rows.arity).toBe(0);
    add('a', 99);
    // Still the one row, not new in the last round: no delta for the next one.
    expect(round(table, block)).toEqual([1, 0]);
  });

  it('a block without columns keeps looking while nothing matches', () => {
    const { table, store, add, block } = setup(0);
    add('b', 1);
    expect(round(table, block)).toEqual([0, 0]);
    add('a', 2);
    expect(round(table, block)).toEqual([1, 1]);
    expect(block.consumed).toBe(storeSize(store));
  });

  it('a block with a column still gets a row per distinct value', () => {
    const { table, store } = setup(30);
    const pattern = compileAtom(mkAtom('p', [mkConst('a'), v('?x')]), new Map(), table);
    const block = createBlock(store, pattern, 1, [0], false);
    syncBlock(block, table);
    expect(block.rows.size).toBe(30);
  });
});

describe('matchPattern on nested patterns', () => {
  const v = (name: string): Term => ({ kind: 'var', name, pos: NO_POS });
  const fn = (name: string, ...args: Term[]): Term => ({ kind: 'fn', name, args, pos: NO_POS });

  // (does ?r (play ?x 3 ?x (q ?y))): a ground argument, a repeated variable, two levels of nesting.
  it('binds every variable of a match and refuses each kind of mismatch', () => {
    const table = new TermTable();
    const vars = new Map<string, number>();
    const p = compileAtom(mkAtom('does', [v('?r'), fn('play', v('?x'), mkConst('3'), v('?x'), fn('q', v('?y')))]), vars, table);
    const c = (name: string): number => table.constant(name);
    const q = (y: string): number => table.compound('q', [c(y)]);
    const does = (r: string, play: number): number => table.compound('does', [c(r), play]);
    const play = (...args: number[]): number => table.compound('play', args);
    const match = (id: number, preset: number[] = []): number[] | null => {
      const vals = new Int32Array(vars.size).fill(FREE);
      preset.forEach((x, i) => (vals[i] = x));
      return matchPattern(p, id, table, vals) ? Array.from(vals) : null;
    };
    expect(match(does('white', play(c('1'), c('3'), c('1'), q('7'))))).toEqual([c('white'), c('1'), c('7')]);
    // The same term again, each variable already bound to its value: still a match.
    expect(match(does('white', play(c('1'), c('3'), c('1'), q('7'))), [c('white'), c('1'), c('7')])).toEqual([c('white'), c('1'), c('7')]);
    expect(match(does('white', play(c('1'), c('3'), c('1'), q('7'))), [c('black')])).toBeNull();
    expect(match(does('white', play(c('1'), c('4'), c('1'), q('7'))))).toBeNull();
    expect(match(does('white', play(c('1'), c('3'), c('2'), q('7'))))).toBeNull();
    expect(match(does('white', play(c('1'), c('3'), c('1'), table.compound('r', [c('7')]))))).toBeNull();
    expect(match(does('white', play(c('1'), c('3'), c('1'), table.compound('q', [c('7'), c('8')]))))).toBeNull();
    expect(match(does('white', play(c('1'), c('3'), c('1'))))).toBeNull();
    expect(match(does('white', c('noop')))).toBeNull();
    expect(match(table.compound('legal', [c('white'), play(c('1'), c('3'), c('1'), q('7'))]))).toBeNull();
  });

  it('matches ground patterns and bare variables', () => {
    const table = new TermTable();
    const vars = new Map<string, number>();
    const ground = compileTerm(fn('f', mkConst('a'), fn('g', mkConst('b'))), vars, table);
    const id = table.compound('f', [table.constant('a'), table.compound('g', [table.constant('b')])]);
    expect(matchPattern(ground, id, table, new Int32Array(0))).toBe(true);
    expect(matchPattern(ground, table.constant('a'), table, new Int32Array(0))).toBe(false);
    const bare = compileTerm(v('?z'), vars, table);
    const vals = new Int32Array(1).fill(FREE);
    expect(matchPattern(bare, id, table, vals)).toBe(true);
    expect(vals[0]).toBe(id);
    expect(matchPattern(bare, table.constant('a'), table, vals)).toBe(false);
  });
});
