/**
 * `next` rules whose fluent is a variable, read as one rule per static fact that binds it
 * (docs/mutex.md, 2i). crissrace restarts its second game with `(<= (next ?x) (init2 ?x)
 * reseted)`: the lifted proof gave up on every hypothesis for that one rule. A static relation
 * means the same in every state, so the rule's body holds under θ only when θ(?x) is one of
 * `init2`'s facts: the rules instantiated over those facts have exactly the ground instances
 * with a true body that the rule has, and the proof over them is the proof over the game.
 */
import { type Term, mkAtom, mkFn } from '../gdl/ast.js';
import type { Literal, NormalRule } from '../normalize/types.js';
import type { StaticFacts } from './lifted-core.js';
import { type Subst, unify, walk } from './lifted-terms.js';

/** Most rules one `next` rule with a variable fluent is read as. */
const MAX_INSTANCES = 2000;

/** `t` with the bindings of `s` applied throughout. */
function resolve(t: Term, s: Subst): Term {
  const u = walk(t, s);
  return u.kind === 'fn' ? mkFn(u.name, u.args.map((a) => resolve(a, s)), u.pos) : u;
}

/** The rule with the bindings of `s` applied. */
function instance(r: NormalRule, s: Subst): NormalRule {
  const lit = (l: Literal): Literal => (l.kind === 'distinct' ? { ...l, left: resolve(l.left, s), right: resolve(l.right, s) } : { ...l, atom: mkAtom(l.atom.rel, l.atom.args.map((a) => resolve(a, s)), l.atom.pos) });
  return { ...r, head: mkAtom(r.head.rel, r.head.args.map((a) => resolve(a, s)), r.head.pos), body: r.body.map(lit) };
}

/**
 * The `next` rules with each rule whose fluent is a variable replaced by its instances over the
 * facts of the first positive static atom of its body that has the variable as an argument (and
 * whose fluent then is a compound term or a constant); undefined when a rule has no such atom
 * or too many instances.
 */
export function expandedNexts(nexts: readonly NormalRule[], facts: StaticFacts): NormalRule[] | undefined {
  const out: NormalRule[] = [];
  for (const r of nexts) {
    const f = r.head.args[0]!;
    if (f.kind !== 'var') {
      out.push(r);
      continue;
    }
    const binder = r.body.find((l) => l.kind === 'pos' && facts.has(`${l.atom.rel}/${l.atom.args.length}`) && l.atom.args.some((a) => a.kind === 'var' && a.name === f.name));
    if (binder === undefined || binder.kind !== 'pos') return undefined;
    const rows = facts.get(`${binder.atom.rel}/${binder.atom.args.length}`)!;
    if (rows.length > MAX_INSTANCES) return undefined;
    for (const row of rows) {
      const s: Subst = new Map();
      if (!binder.atom.args.every((a, j) => unify(a, row[j]!, s))) continue;
      const head = walk(f, s);
      if (head.kind === 'var') return undefined;
      out.push(instance(r, s));
    }
  }
  return out;
}
