/**
 * The deepest term nesting the dependency-graph method accepts in the rules of a game: the same
 * bound as the Prolog method's (`DEFAULT_MAX_TERM_DEPTH`), so that both methods refuse the same
 * games. A position of the argument dependency graph is a path into a term, so a term n levels
 * deep makes n positions with paths up to n long: a term 50,000 deep filled the heap.
 */
import { relationLimitError } from '../gdl/diagnostics.js';
import { termDepth } from '../gdl/terms.js';
import type { NormalGame } from '../normalize/types.js';

/** Throws a limit error at the first rule holding a term nested deeper than `maxDepth`. */
export function refuseDeepTerms(game: NormalGame, maxDepth: number): void {
  for (const r of game.rules) {
    const terms = [...r.head.args, ...r.body.flatMap((l) => (l.kind === 'distinct' ? [l.left, l.right] : l.atom.args))];
    if (terms.some((t) => termDepth(t) > maxDepth)) {
      throw relationLimitError(game.file, r.pos, r.head.rel, `rule for '${r.head.rel}' has a term nested deeper than ${maxDepth} levels`, { kind: 'depth' });
    }
  }
}
