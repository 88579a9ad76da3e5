/**
 * "Some fluent per key" facts proven before the lifted induction (docs/mutex.md, 2e): for a
 * hypothesis (relation f, input positions I) with few keys, in every reachable state every key k
 * of f's ground fluents has some fluent f(k, ...) true. hexPie gives each role a marker,
 * `(usingMarker ?r ?m)`, and its stone is placed with `(does ?r (place ?x ?y)) (true
 * (usingMarker ?r ?m))`: the implication "a square of a chain has a stone" (2d) needs to know
 * that the placing role has a marker. Each fact is an exactly-one claim of 2b proven on its own
 * (no "at most one" assumed, only the static relations' functional dependencies), so it is an
 * invariant by itself; the branches of 2b and 2d then carry `(true f(k, ?fresh))` for each key.
 */
import type { Deadline } from '../deadline.js';
import { NO_POS, type Term } from '../gdl/ast.js';
import type { NormalGame } from '../normalize/types.js';
import type { Hypothesis } from './candidates.js';
import type { Assumed, StaticFacts } from './lifted-core.js';
import { key } from './lifted-terms.js';
import { proveLiftedAlo } from './lifted-alo.js';
import type { Existence } from './implications.js';
import type { MutexView } from './view.js';

/** Most keys a hypothesis may have to be tried (each key is an atom in every branch that reads the facts). */
const MAX_KEYS = 4;
/** Most atoms all proven facts add to a branch, and most members one hypothesis's proof may take. */
const MAX_ATOMS = 8;
const MAX_MEMBERS = 32;

/**
 * The facts proven among the hypotheses whose relation's ground fluents (every one the grounding
 * found, a superset of the reachable ones: `fluents`) fall in one to {@link MAX_KEYS} keys, each
 * with a fluent in the initial state (the base case). The groups are every ground fluent of the
 * key, so the proof's "some member holds now" covers every state. Cheap: a few small tableaux.
 */
export function provenExistence(
  normal: NormalGame, view: MutexView, hyps: readonly Hypothesis[], fluents: StaticFacts, statics: Assumed, deadline: Deadline,
): Existence[] {
  const init = new Set(view.init.map((f) => `${view.fluents[f]!.relation} ${view.fluents[f]!.args.join(' ')}`));
  const empty = new Map<string, Term>();
  const tasks = hyps.flatMap((h) => {
    const rows = fluents.get(h.relation) ?? [];
    if (h.input.length === 0 || rows.length > MAX_MEMBERS) return [];
    const byKey = new Map<string, (readonly Term[])[]>();
    for (const row of rows) {
      const k = h.input.map((p) => key(row[p]!, empty)).join(' ');
      byKey.set(k, [...(byKey.get(k) ?? []), row]);
    }
    const groups = [...byKey.values()];
    const name = h.relation.slice(0, h.relation.lastIndexOf('/'));
    const initially = (row: readonly Term[]): boolean => init.has(`${h.relation} ${row.map((t) => key(t, empty)).join(' ')}`);
    if (groups.length > MAX_KEYS || !groups.every((g) => g.some(initially))) return [];
    return [{ hypothesis: h, name, groups: groups.map((g) => g.map((row): Term => ({ kind: 'fn', name, args: row, pos: NO_POS }))) }];
  });
  if (tasks.length === 0) return [];
  const proven = proveLiftedAlo(normal, tasks, statics, deadline);
  const out: Existence[] = [];
  let atoms = 0;
  tasks.forEach((t, i) => {
    if (proven[i] !== true || atoms + t.groups.length > MAX_ATOMS) return;
    atoms += t.groups.length;
    const keys = t.groups.map((g) => t.hypothesis.input.map((p) => (g[0] as { args: readonly Term[] }).args[p]!));
    out.push({ name: t.name, arity: (t.groups[0]![0] as { args: readonly Term[] }).args.length, input: t.hypothesis.input, keys });
  });
  return out;
}
