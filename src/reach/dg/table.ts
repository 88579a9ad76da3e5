/**
 * Hash-consed ground terms: every distinct ground term gets one integer id, so that matching,
 * joins and duplicate checks compare numbers instead of walking terms or building strings.
 */
import { foldTerm } from '../../gdl/fold.js';
import type { Term } from '../../gdl/ast.js';
import { NO_POS } from '../../gdl/ast.js';
import { termToString } from '../../gdl/terms.js';

/** A table of interned ground terms; one per computation, never shared. */
export interface TermTable {
  /** Id of a ground term (interned on first sight); throws on a variable. */
  intern(t: Term): number;
  /** Id of `name(args...)` from the ids of its arguments (a constant when `args` is empty). */
  internNode(name: string, args: readonly number[]): number;
  /** Function name (or constant name) of term `id`. */
  name(id: number): string;
  /** Argument ids of term `id` (empty for a constant). */
  args(id: number): readonly number[];
  /** The term as an AST node (memoized). */
  term(id: number): Term;
  /** KIF text of the term (memoized). */
  text(id: number): string;
}

/** Creates an empty term table. */
export function createTermTable(): TermTable {
  const names: string[] = [];
  const argLists: (readonly number[])[] = [];
  const index = new Map<string, number>();
  const terms: (Term | undefined)[] = [];
  const texts: (string | undefined)[] = [];

  function internNode(name: string, args: readonly number[]): number {
    // The key separates the name from argument ids by a character no symbol contains.
    const key = args.length === 0 ? name : `${name}\u0000${args.join(',')}`;
    let id = index.get(key);
    if (id === undefined) {
      id = names.length;
      names.push(name);
      argLists.push(args);
      index.set(key, id);
    }
    return id;
  }

  function intern(root: Term): number {
    return foldTerm<number>(root, (t, args) => {
      if (t.kind === 'var') throw new Error(`intern: variable ${t.name} in a ground term`);
      return internNode(t.name, args);
    });
  }

  function term(rootId: number): Term {
    const cached = terms[rootId];
    if (cached !== undefined) return cached;
    // Post-order build of the children that are not cached yet.
    const stack: { id: number; expanded: boolean }[] = [{ id: rootId, expanded: false }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const id = frame.id;
      if (terms[id] !== undefined) {
        stack.pop();
        continue;
      }
      const a = argLists[id]!;
      if (a.length === 0) {
        stack.pop();
        terms[id] = { kind: 'const', name: names[id]!, pos: NO_POS };
      } else if (!frame.expanded) {
        frame.expanded = true;
        for (const c of a) if (terms[c] === undefined) stack.push({ id: c, expanded: false });
      } else {
        stack.pop();
        terms[id] = { kind: 'fn', name: names[id]!, args: a.map((c) => terms[c]!), pos: NO_POS };
      }
    }
    return terms[rootId]!;
  }

  function text(id: number): string {
    let s = texts[id];
    if (s === undefined) {
      s = termToString(term(id));
      texts[id] = s;
    }
    return s;
  }

  return {
    intern,
    internNode,
    name: (id) => names[id]!,
    args: (id) => argLists[id]!,
    term,
    text,
  };
}
