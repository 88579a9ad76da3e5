/**
 * The argument domains' sizes of a game's dependency graph (Definitions 9.3-9.4, src/reach/dg/),
 * as products per relation, function symbol or position: what the superset stage's estimates
 * (growth.ts, foresight.ts) and the choice of demanded relations (demand-choice.ts) weigh.
 */
import type { NormalRule } from '../normalize/types.js';
import { RelationTable } from '../gdl/relation-table.js';
import { BRIDGE_RULES } from './relaxation.js';
import { buildArgGraph, functionArguments, relationArguments } from './dg/graph.js';
import { resolveDomains } from './dg/domains.js';
import type { DomainSizes } from './run.js';

/** The domain sizes of `rules` (the bridge rules added); `tick` is called per rule while the graph is built. */
export function domainSizesOf(rules: readonly NormalRule[], tick: () => void): DomainSizes {
  const rels = new RelationTable();
  const graph = buildArgGraph([...rules, ...BRIDGE_RULES], rels, tick);
  const domains = resolveDomains(graph);
  const count = (pos: number | undefined): number => (pos === undefined ? 0 : domains.count(pos));
  const product = (positions: readonly (number | undefined)[]): number => positions.reduce((p: number, pos) => p * count(pos), 1);
  return {
    relation: (rel, arity) => {
      const id = rels.find(rel, arity);
      return id === undefined ? 0 : product(relationArguments(graph, id));
    },
    position: (rel, arity, index) => {
      const id = rels.find(rel, arity);
      return id === undefined ? 0 : count(relationArguments(graph, id)[index]);
    },
    functor: (name, n) => {
      if (n === 0) return 1;
      const id = graph.functions.find(name, n);
      return id === undefined ? 0 : product(functionArguments(graph, id));
    },
  };
}
