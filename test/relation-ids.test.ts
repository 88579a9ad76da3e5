/**
 * Relations as interned ids: a relation is `{name, arity}` once (RelationTable), argument
 * positions of the dependency graph are structured values, and names in messages come from
 * the parts, never from a `name/arity` text cut apart (a name may be used with two arities).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { StageTimer } from '../src/timer.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { RelationTable, signatureText } from '../src/gdl/relation-table.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import { relationPositions } from '../src/reach/dg/dot.js';
import { findPosition } from '../src/reach/dg/graph.js';
import { dependencyGraph } from '../src/reach/dg/index.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';

const normal = (text: string) => loadGame(text, 'test.kif', defaultPipelineOptions(), new StageTimer()).normal;
const LIMITS = { deadline: Deadline.never(), maxAtoms: 2_000_000 };

describe('RelationTable', () => {
  it('gives one id per name and arity, and reads name, arity and key back from the id', () => {
    const t = new RelationTable();
    const cell3 = t.intern('cell', 3);
    const cell2 = t.intern('cell', 2);
    const slash = t.intern('a/b', 1);
    expect(t.intern('cell', 3)).toBe(cell3);
    expect(cell2).not.toBe(cell3);
    expect([t.name(cell2), t.arity(cell2), t.key(cell2)]).toEqual(['cell', 2, 'cell/2']);
    // A name with a slash keeps its parts: nothing is split at the last '/'.
    expect([t.name(slash), t.arity(slash)]).toEqual(['a/b', 1]);
    expect(t.find('a', 1)).toBeUndefined();
    expect(t.find('cell', 4)).toBeUndefined();
    expect(new Set([cell3, cell2, slash]).size).toBe(3);
    expect(signatureText({ name: 'a/b', arity: 1 })).toBe('a/b/1');
  });
});

describe('argument positions are structured values', () => {
  const { graph } = dependencyGraph(normal(readFileSync('games/arities.kif', 'utf8')), LIMITS);

  it('keeps a name used with two arities apart, as relations and as functions', () => {
    const near2 = findPosition(graph, { kind: 'rel', name: 'near', arity: 2, index: 1 })!;
    const near3 = findPosition(graph, { kind: 'rel', name: 'near', arity: 3, index: 1 })!;
    expect(graph.byId[near2]!.text).toBe('near/2[1]');
    expect(graph.byId[near3]!.text).toBe('near/3[1]');
    expect(graph.byId[near2]!.symbol).not.toBe(graph.byId[near3]!.symbol);
    expect(graph.relations.key(graph.byId[near3]!.symbol)).toBe('near/3');
    expect(findPosition(graph, { kind: 'rel', name: 'near', arity: 3, index: 4 })).toBeUndefined();
    const fnCell2 = findPosition(graph, { kind: 'fn', name: 'cell', arity: 2, index: 2 })!;
    expect(graph.byId[fnCell2]).toMatchObject({ kind: 'fn', name: 'cell', arity: 2, index: 2, text: 'fn:cell/2[2]' });
    const initFunctors = [...graph.functors.get(findPosition(graph, { kind: 'rel', name: 'init', arity: 1, index: 1 })!)!];
    expect(initFunctors.map((f) => graph.functions.key(f)).sort()).toEqual(['cell/3', 'step/1']);
  });

  it('finds the positions of --relation by name (every arity) or by name/arity (one)', () => {
    const texts = (r: string) => relationPositions(graph, r)?.map((p) => graph.byId[p]!.text);
    expect(texts('near')).toEqual(['near/2[1]', 'near/2[2]', 'near/3[1]', 'near/3[2]', 'near/3[3]']);
    expect(texts('near/3')).toEqual(['near/3[1]', 'near/3[2]', 'near/3[3]']);
    expect(texts('near/4')).toBeUndefined();
  });
});

describe('limit messages name the relation from its parts', () => {
  it('names a relation used with two arities by its name, and blames the rule of the arity that grew', () => {
    const game = normal(`
(role r)
(init (c 0))
(p 1)
(num 0) (num 1) (num 2) (num 3) (num 4) (num 5) (num 6) (num 7)
(<= (p ?x ?y) (num ?x) (num ?y))
(legal r noop)
(<= (next (c ?x)) (true (c ?x)) (p ?x) (p ?x ?x))
(<= terminal (true (c 1)))
(goal r 100)
`);
    let err: unknown;
    try {
      computeSupersetsProlog(game, { deadline: Deadline.never(), maxAtoms: 40 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GdlError);
    const d = (err as GdlError).diagnostics[0]!;
    expect(d.message).toMatch(/^relation 'p' grew to \d+ instances/);
    expect(d.line).toBe(6);
  });
});
