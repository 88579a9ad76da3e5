/**
 * The pair checks' split over which member of a whole relation holds (docs/mutex.md, section 2g),
 * for the relations lifted-joint.ts assumes exactly-one in its induction: some member is true in
 * every state the induction assumes, so one case per member, `(true m)` added, is complete.
 */
import type { Term } from '../gdl/ast.js';
import type { Literal } from '../normalize/types.js';
import type { Subst } from './lifted-terms.js';

/** Most cases a pair's bodies are split into over the members of the relations assumed exactly-one. */
const MAX_MEMBER_CASES = 16;

/** `(true m)`. */
const trueOf = (m: Term): Literal => ({ kind: 'pos', atom: { kind: 'atom', rel: 'true', args: [m], pos: m.pos } });

/**
 * Whether every case of the split over which member of each group holds closes by `check`
 * (false when there is no group to split over). Each group is a whole relation some member of
 * which holds in every state the induction assumes (section 2g), so the split is complete.
 */
export function memberCasesClose(
  body: readonly Literal[], s: Subst, groups: readonly (readonly Term[])[], check: (body: readonly Literal[], s: Subst) => boolean,
): boolean {
  let cases: Literal[][] = [[]];
  for (const g of groups) if (cases.length * g.length <= MAX_MEMBER_CASES) cases = cases.flatMap((c) => g.map((m) => [...c, trueOf(m)]));
  if (cases.length === 1) return false;
  return cases.every((c) => check([...body, ...c], new Map(s)));
}
