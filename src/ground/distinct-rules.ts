/**
 * Which rules of a component can skip the rule buffer's duplicate test (rule-buffer.ts
 * {@link appendStaged}): those whose ground rules are proven, from the rules' text alone,
 * unequal to each other and to every ground rule another rule could make. The test was a
 * third of amazons' joins (a probe of a table of four million slots per rule, and the
 * table's doublings), and nearly every rule of a game passes it as new.
 *
 * A ground rule is its head and its sets of positive and negative literals (static atoms
 * dropped). A rule `R` run once (no atom of its own component in its body: the semi-naive
 * driver fires it in the first round only) makes distinct ground rules from distinct bindings
 * of its join, hence none twice, when:
 * - every variable of `R` occurs in its head (distinct bindings, distinct heads), or
 * - every variable occurs in the head or in a kept positive atom, and no two kept positive
 *   atoms have a common instance (the set of their instances then gives back the list, and
 *   the list the binding).
 * Another rule `S` with the same head relation makes none of `R`'s when their heads have no
 * common instance, or one of them has a kept positive atom with no common instance with any
 * of the other's (its ground bodies hold an atom the other's never do; a fact has no body).
 * Rules of other relations never make the same ground rule. Rules of earlier calls (a
 * relation whose rules were made before, by a split's or a frame rewrite's own run, or a
 * static component run in pieces) are not looked at: a relation seen before is never
 * skipped, and the skipped rules of a relation are put in the table before a later call with
 * that relation runs ({@link prepareCall}), so that every look-up finds what it found before.
 */
import type { Pattern } from '../datalog/pattern.js';
import type { CompiledAtom, JoinRule } from './compile.js';
import { hashAppended } from './rule-buffer.js';
import type { Context } from './run-context.js';

/**
 * Rules of one head relation in a call beyond which none is examined (the pairs grow as the
 * square; the games whose rules repeat a head hundreds of times have small joins each).
 */
const MAX_SAME_HEAD = 64;

/** Whether patterns `a` and `b` may have a common instance (their variables taken apart): false only where they clash. */
function mayUnify(a: Pattern, b: Pattern): boolean {
  const stack: Pattern[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop()!;
    const x = stack.pop()!;
    if (x.kind === 'var' || y.kind === 'var') continue;
    if (x.kind === 'ground' && y.kind === 'ground') {
      if (x.id !== y.id) return false;
      continue;
    }
    // A ground compound against a pattern: not looked into (taken as possibly equal).
    if (x.kind !== 'fn' || y.kind !== 'fn') continue;
    if (x.sym !== y.sym || x.args.length !== y.args.length) return false;
    for (let i = 0; i < x.args.length; i++) stack.push(x.args[i]!, y.args[i]!);
  }
  return true;
}

/** Whether atoms `a` and `b` may have a common instance. */
function atomsMayUnify(a: CompiledAtom, b: CompiledAtom): boolean {
  return a.rel === b.rel && mayUnify(a.pattern, b.pattern);
}

/** Whether some atom of `a` has no common instance with any atom of `b`. */
function someApart(a: readonly CompiledAtom[], b: readonly CompiledAtom[]): boolean {
  return a.some((p) => b.every((q) => !atomsMayUnify(p, q)));
}

/** Whether `rule` makes each ground rule at most once in one run (the module comment's two cases). */
function injective(rule: JoinRule, kept: readonly CompiledAtom[]): boolean {
  const bound = new Uint8Array(rule.nVars);
  for (const v of rule.head.vars) bound[v] = 1;
  if (bound.every((x) => x === 1)) return true;
  for (const p of kept) for (const v of p.vars) bound[v] = 1;
  if (!bound.every((x) => x === 1)) return false;
  for (let i = 0; i < kept.length; i++) for (let j = i + 1; j < kept.length; j++) if (atomsMayUnify(kept[i]!, kept[j]!)) return false;
  return true;
}

/**
 * The rules of a call (`rules`, of the component `rels`, with `facts` of the relations
 * `factRels`) whose ground rules may skip the duplicate test (the module comment says when).
 */
export function distinctRules(ctx: Context, rules: readonly JoinRule[], rels: ReadonlySet<string>, factRels: ReadonlySet<string>): Set<JoinRule> {
  const out = new Set<JoinRule>();
  const byHead = new Map<string, JoinRule[]>();
  for (const r of rules) {
    const list = byHead.get(r.head.rel);
    if (list === undefined) byHead.set(r.head.rel, [r]);
    else list.push(r);
  }
  const keptOf = new Map<JoinRule, CompiledAtom[]>();
  const kept = (r: JoinRule): CompiledAtom[] => {
    let k = keptOf.get(r);
    if (k === undefined) keptOf.set(r, (k = r.positives.filter((p) => !ctx.statics.has(p.rel))));
    return k;
  };
  for (const [rel, list] of byHead) {
    if (ctx.ruleHeads.has(rel) || ctx.statics.has(rel) || list.length > MAX_SAME_HEAD) continue;
    for (const r of list) {
      if (r.positives.some((p) => rels.has(p.rel)) || !injective(r, kept(r))) continue;
      if (factRels.has(rel) && kept(r).length === 0) continue;
      const apart = (s: JoinRule): boolean => s !== r && (!atomsMayUnify(r.head, s.head) || someApart(kept(r), kept(s)) || someApart(kept(s), kept(r)));
      if (list.every((s) => s === r || apart(s)) && list.filter((s) => s === r).length === 1) out.add(r);
    }
  }
  return out;
}

/**
 * The tag of a relation's rules appended without the table (rule-buffer.ts): its name's symbol
 * (a name used with several arities shares one: their rules are put in the table together).
 */
export function relationTag(ctx: Context, rel: string): number {
  const slash = rel.lastIndexOf('/');
  const name = slash > 0 && ctx.several.has(rel.slice(0, slash)) ? rel.slice(0, slash) : rel;
  return ctx.table.findSymbol(name);
}

/**
 * Before a call over rules and facts of the relations `heads` runs: the rules skipped earlier
 * of its relations seen before go into the table (its look-ups may meet them).
 */
export function prepareCall(ctx: Context, heads: readonly string[]): void {
  const seen = heads.filter((rel) => ctx.ruleHeads.has(rel));
  if (seen.length > 0 && ctx.rules.appended.length > 0) hashAppended(ctx.rules, new Set(seen.map((rel) => relationTag(ctx, rel))));
}

/** After {@link distinctRules} has read them: the call's head relations are seen before by every later call. */
export function markSeen(ctx: Context, heads: readonly string[]): void {
  for (const rel of heads) ctx.ruleHeads.add(rel);
}
