/**
 * The relaxed game of section 9.1.2, shared by both superset methods (Algorithm 9.2 on
 * Tau-Prolog and the dependency-graph method): which rules it keeps, and the bridge rules that
 * feed `true` and `does` from `init`, `next` and `legal`:
 *
 *   true(F)    <= init(F)
 *   true(F)    <= next(F)
 *   does(R, M) <= legal(R, M)
 */
import type { Atom, Term } from '../gdl/ast.js';
import { NO_POS, mkAtom } from '../gdl/ast.js';
import type { Signature } from '../gdl/relation-table.js';
import type { Literal, NormalRule } from '../normalize/types.js';

/** One bridge rule `to(X..) <= from(X..)` between two relations of the same arity. */
interface Bridge {
  readonly from: Signature;
  readonly to: Signature;
}

const sig = (name: string, arity: number): Signature => ({ name, arity });

/** The bridge rules. */
export const BRIDGES: readonly Bridge[] = [
  { from: sig('init', 1), to: sig('true', 1) },
  { from: sig('next', 1), to: sig('true', 1) },
  { from: sig('legal', 2), to: sig('does', 2) },
];

const v = (name: string): Term => ({ kind: 'var', name, pos: NO_POS });

function bridgeRule(b: Bridge): NormalRule {
  const args = Array.from({ length: b.from.arity }, (_, i) => v(`?x${i}`));
  return { head: mkAtom(b.to.name, args), body: [{ kind: 'pos', atom: mkAtom(b.from.name, args) }], pos: NO_POS };
}

/** The bridge rules as normalized rules. */
export const BRIDGE_RULES: readonly NormalRule[] = BRIDGES.map(bridgeRule);

/** Relations whose rules the relaxed game leaves out (Algorithm 9.2 does not need them). */
const LEFT_OUT: ReadonlySet<string> = new Set(['goal', 'terminal', 'base', 'input']);

/**
 * The rules the supersets depend on: all but goal, terminal, base and input rules, unless a
 * kept rule uses one of these positively (leaving it out would then lose instances); the
 * relations so needed are closed under their own rules' bodies.
 */
export function neededRules<R extends { readonly head: Atom; readonly body: readonly Literal[] }>(rules: readonly R[]): R[] {
  const needed = new Set<string>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of rules) {
      if (LEFT_OUT.has(r.head.rel) && !needed.has(r.head.rel)) continue;
      for (const l of r.body) {
        if (l.kind === 'pos' && LEFT_OUT.has(l.atom.rel) && !needed.has(l.atom.rel)) {
          needed.add(l.atom.rel);
          changed = true;
        }
      }
    }
  }
  return rules.filter((r) => !LEFT_OUT.has(r.head.rel) || needed.has(r.head.rel));
}
