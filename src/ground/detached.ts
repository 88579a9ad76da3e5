/**
 * Negated atoms with detached variables (issue 27: MUZONE_S's `theirte`, lines 198-199):
 *
 *   (<= (theirte ?m ?g chationy ?a ?o) (broggaitio ?m ?g ankint ?a ?o chationy ?y) (greform ?y ?w)
 *       (not (viuseby ?m ?g ankint ?c ?s chationy ?w)) (havers ?c) (havers ?s))
 *
 * `?c ?s` occur only in the negated atom and in static atoms that hold nothing else. The join
 * made, for each of the 1,968 bindings of the other variables, one binding per allowed pair (64),
 * each looking its negated atom up in the term table and the store (most absent); every absent
 * one makes the same ground rule, the negated atom dropped, which the rule buffer then found to be
 * a duplicate: 125,952 bindings and look-ups for 6,000 rules.
 *
 * The same ground rules, read from the other side: for a binding `b` of the other variables,
 * the rows of the negated atom's block with `b`'s values (one index probe) give the allowed tuples
 * `d` whose atom `N(b, d)` is in the store, each a rule with `not N(b, d)` (or none, `p` and `not
 * p`); and when fewer allowed tuples have their atom in the store than are allowed, some `d` has
 * it absent, whose rule is the body without it (always true, dropped), made once. That is every
 * rule the join made, and no other, because the join's bindings are exactly the product of the
 * other variables' bindings and the allowed tuples: the detached variables occur in no other
 * literal (head, kept atom, other negated atom, `distinct`, static test), and the static atoms
 * that hold them hold no other variable, so they constrain the detached variables alone and are
 * dropped from the ground bodies as every static atom is. The output is sorted and deduplicated
 * at assembly, so the order rules are made in does not show; the estimate and every decision that
 * reads it are the whole rule's, unchanged.
 */
import type { Block } from '../datalog/block.js';
import { type JoinAtom, UNBOUND, join } from '../datalog/join.js';
import { Relation } from '../datalog/relation.js';
import type { BodyPlan } from './body-plan.js';
import type { CompiledAtom, JoinRule } from './compile.js';
import type { DetachedRun } from './detached-run.js';

/** A rule's detached negated atom, found from its text and the plan of its body. */
interface Detached {
  /** The atom's position among the plan's negatives. */
  readonly at: number;
  readonly atom: CompiledAtom;
  /** Its variables that no other literal but static atoms over them holds, ascending. */
  readonly vars: readonly number[];
  /** The positive atoms (indices) holding them: static, over them alone. */
  readonly atoms: ReadonlySet<number>;
}

/** The variables of the rule's literals other than negated atom `skip`, static atoms over detached ones aside. */
function boundElsewhere(rule: JoinRule, statics: ReadonlySet<string>, skip: CompiledAtom): Set<number> {
  const out = new Set(rule.head.vars);
  for (const p of rule.positives) if (!statics.has(p.rel)) for (const v of p.vars) out.add(v);
  for (const n of rule.negatives) if (n !== skip) for (const v of n.vars) out.add(v);
  for (const d of rule.distincts) for (const v of d.vars) out.add(v);
  return out;
}

/**
 * The variables of negated atom `atom` that only static atoms over them alone hold besides it:
 * those no other literal holds, less (until none changes) those sharing a static atom with a
 * variable the rest of the rule binds. With them, the static atoms holding them (indices).
 */
function detachedVars(rule: JoinRule, statics: ReadonlySet<string>, atom: CompiledAtom): { vars: number[]; atoms: Set<number> } {
  const elsewhere = boundElsewhere(rule, statics, atom);
  const detached = new Set(atom.vars.filter((v) => !elsewhere.has(v)));
  for (let changed = detached.size > 0; changed;) {
    changed = false;
    for (const p of rule.positives) {
      if (!p.vars.some((v) => detached.has(v)) || p.vars.every((v) => detached.has(v))) continue;
      for (const v of p.vars) detached.delete(v);
      changed = true;
    }
  }
  const atoms = new Set<number>();
  rule.positives.forEach((p, i) => {
    if (p.vars.some((v) => detached.has(v))) atoms.add(i);
  });
  return { vars: [...detached].sort((a, b) => a - b), atoms };
}

/** The first negated atom of `plan` (one whose store is complete) with detached variables, if any. */
function findDetached(rule: JoinRule, statics: ReadonlySet<string>, plan: BodyPlan): Detached | undefined {
  for (let at = 0; at < plan.negatives.length; at++) {
    const n = plan.negatives[at]!;
    if (n.kind !== 'stored') continue;
    const atom = rule.negatives.find((a) => a.pattern === n.pattern)!;
    const { vars, atoms } = detachedVars(rule, statics, atom);
    if (vars.length > 0) return { at, atom, vars, atoms };
  }
  return undefined;
}

/** The tuples of `vars` that the join of `atoms` allows (one completion each). */
function allowedTuples(nVars: number, atoms: readonly JoinAtom[], vars: readonly number[], tick: () => void): Relation {
  const allowed = new Relation(vars.length);
  const tuple = new Int32Array(vars.length);
  join(nVars, atoms, [], new Set(vars), tick, (b) => {
    for (let i = 0; i < vars.length; i++) tuple[i] = b[vars[i]!]!;
    allowed.insert(tuple);
  });
  return allowed;
}

/** The run of `rule` with its detached negated atom read by {@link DetachedRun}: the join of the other atoms, and the body plan over it. */
interface DetachedJoin {
  readonly joins: readonly JoinAtom[];
  readonly plan: BodyPlan;
  /** The outputs less the detached variables. */
  readonly outputs: ReadonlySet<number>;
  readonly run: DetachedRun;
}

/**
 * For a run of a rule that is not static and whose rules are not proven distinct: its
 * {@link DetachedJoin} when it has a negated atom with detached variables (see the module
 * comment), else undefined. `joins` are the rule's join atoms (its positives, then any seed),
 * `blockOf` gives an atom's block and the rule variable of each column.
 */
export function detachedJoin(
  rule: JoinRule, statics: ReadonlySet<string>, plan: BodyPlan, joins: readonly JoinAtom[], outputs: ReadonlySet<number>,
  blockOf: (atom: CompiledAtom) => { block: Block; vars: readonly number[] }, tick: () => void,
): DetachedJoin | undefined {
  const det = findDetached(rule, statics, plan);
  if (det === undefined) return undefined;
  const allowed = allowedTuples(rule.nVars, joins.filter((_, i) => det.atoms.has(i)), det.vars, tick);
  const { block, vars } = blockOf(det.atom);
  const detached = new Set(det.vars);
  const keyCols: number[] = [];
  vars.forEach((v, c) => {
    if (v !== UNBOUND && !detached.has(v)) keyCols.push(c);
  });
  const cols = Int32Array.from(det.vars, (v) => vars.indexOf(v));
  // The join's rows renumbered: the detached variables' atoms leave it.
  const position = new Int32Array(joins.length).fill(-1);
  let kept = 0;
  joins.forEach((_, i) => {
    if (!det.atoms.has(i)) position[i] = kept++;
  });
  const run: DetachedRun = {
    block, index: keyCols.length === 0 ? null : block.rows.index(keyCols), keyVars: Int32Array.from(keyCols, (c) => vars[c]!),
    cols, allowed, tuple: new Int32Array(cols.length), neg: new Int32Array(8),
  };
  return {
    joins: joins.filter((_, i) => !det.atoms.has(i)),
    plan: { blocks: plan.blocks, at: plan.at.map((i) => position[i]!), negatives: plan.negatives.filter((_, k) => k !== det.at) },
    outputs: new Set([...outputs].filter((v) => !detached.has(v))),
    run,
  };
}
