/**
 * The rows of a static relation that can match a literal, found through an index instead of a
 * walk over every row (docs/mutex.md, "Proofs that finish inside the budget", det16). The
 * exactly-one tableau (lifted-alo.ts) matches each `next` rule's static literals against the
 * facts once per node of its search, for every member of every group: on mineClearingSmall
 * (11,358 fluents) that walk was most of the stage, and the budget cut it at a point that moved
 * with the machine's load. The index keeps the rows' order, so the matches come in the same
 * order as from the full walk (the tableau keeps the first 16).
 */
import type { Term } from '../gdl/ast.js';
import type { StaticFacts } from './lifted-core.js';

/** Rows of a relation (`name/arity`) that may match arguments `now` (bound as far as they are); a superset of the matching rows, in row order. */
export type FactRows = (rel: string, now: readonly Term[]) => readonly (readonly Term[])[];

const NONE: readonly (readonly Term[])[] = [];

/**
 * An index of `facts` built on demand, per relation and argument place: the first place of `now`
 * that holds a constant picks the rows with that constant there. Its tables live in the closure,
 * one per proof (no state outlives it).
 */
export function factRows(facts: StaticFacts): FactRows {
  const tables = new Map<string, Map<string, (readonly Term[])[]>>();
  const table = (rel: string, rows: readonly (readonly Term[])[], k: number): Map<string, (readonly Term[])[]> => {
    const id = `${rel}#${k}`;
    let t = tables.get(id);
    if (t !== undefined) return t;
    t = new Map();
    for (const row of rows) {
      const a = row[k]!;
      // Facts are ground: a compound in this place never matches a constant, so it is left out.
      if (a.kind !== 'const') continue;
      const list = t.get(a.name);
      if (list === undefined) t.set(a.name, [row]);
      else list.push(row);
    }
    tables.set(id, t);
    return t;
  };
  return (rel, now) => {
    const rows = facts.get(rel) ?? NONE;
    const k = now.findIndex((a) => a.kind === 'const');
    if (k < 0 || rows.length < 8) return rows;
    return table(rel, rows, k).get((now[k] as { readonly name: string }).name) ?? NONE;
  };
}
