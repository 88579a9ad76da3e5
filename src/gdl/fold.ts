/**
 * One iterative post-order fold over trees, shared by every conversion of terms (GDL terms,
 * Tau-Prolog terms, rule patterns). Real games nest terms thousands deep, so no recursion.
 */

import type { Term } from './ast.js';

/**
 * Folds the tree below `root`: `children(n)` lists the children of an inner node (or returns
 * null for a leaf), and `combine(n, results)` builds a node's result from its children's
 * results, in order (empty for a leaf).
 */
export function foldTree<N, R>(root: N, children: (n: N) => readonly N[] | null, combine: (n: N, results: R[]) => R): R {
  const done: R[] = [];
  const stack: { node: N; kids: readonly N[] | null; expanded: boolean }[] = [{ node: root, kids: children(root), expanded: false }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const kids = frame.kids;
    if (kids === null || kids.length === 0) {
      stack.pop();
      done.push(combine(frame.node, []));
    } else if (!frame.expanded) {
      frame.expanded = true;
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i]!, kids: children(kids[i]!), expanded: false });
    } else {
      stack.pop();
      done.push(combine(frame.node, done.splice(done.length - kids.length, kids.length)));
    }
  }
  return done[0]!;
}

/** Folds a GDL term: `combine` sees constants and variables with no results, function terms with their arguments'. */
export function foldTerm<R>(root: Term, combine: (t: Term, args: R[]) => R): R {
  return foldTree<Term, R>(root, (t) => (t.kind === 'fn' ? t.args : null), combine);
}
