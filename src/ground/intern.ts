/**
 * Hash-consing of ground terms: every distinct ground term gets one integer id, so equality of
 * terms is equality of ids and joins can hash plain numbers. Ground atoms are stored the same
 * way (an atom is syntactically a term whose functor is the relation constant), so an atom id
 * is a term id.
 */
import { foldTerm } from '../gdl/fold.js';
import type { Term } from '../gdl/ast.js';
import { NO_POS } from '../gdl/ast.js';

/** An append-only table of ground terms; created per instantiation run, never shared. */
export interface TermTable {
  /** Number of terms interned so far (ids are `0..size()-1`). */
  size(): number;
  /** The id of `name(args...)`, creating it when new. */
  intern(name: string, args: readonly number[]): number;
  /** The id of `name(args...)`, or -1 when no such term was interned. */
  lookup(name: string, args: readonly number[]): number;
  /** Functor (or constant name) of a term. */
  name(id: number): string;
  /** Argument ids of a term (empty for a constant). */
  args(id: number): readonly number[];
  /** Interns a ground AST term; throws on a variable. */
  internTerm(term: Term): number;
  /** The AST term of an id; shared subterms are shared objects. */
  toTerm(id: number): Term;
}

const NO_ARGS: readonly number[] = Object.freeze([]);

/**
 * A trie node: the id of the term whose arguments end here (-1 if none), and the children by
 * next argument id. Lookups walk numbers and allocate nothing, which matters in the join's
 * inner loop.
 */
interface TrieNode {
  id: number;
  readonly next: Map<number, TrieNode>;
}

/** Creates an empty term table. */
export function createTermTable(): TermTable {
  const names: string[] = [];
  const argLists: (readonly number[])[] = [];
  // One trie per functor name; the node reached after k arguments is the term with exactly
  // those k arguments, so `f`, `f(1)` and `f(1, 2)` are three different nodes of one path.
  const roots = new Map<string, TrieNode>();
  const terms: (Term | undefined)[] = [];

  function find(name: string, args: readonly number[], create: boolean): TrieNode | undefined {
    let node = roots.get(name);
    if (node === undefined) {
      if (!create) return undefined;
      node = { id: -1, next: new Map() };
      roots.set(name, node);
    }
    for (const a of args) {
      let child: TrieNode | undefined = node.next.get(a);
      if (child === undefined) {
        if (!create) return undefined;
        child = { id: -1, next: new Map() };
        node.next.set(a, child);
      }
      node = child;
    }
    return node;
  }

  function intern(name: string, args: readonly number[]): number {
    const node = find(name, args, true)!;
    if (node.id >= 0) return node.id;
    node.id = names.length;
    names.push(name);
    argLists.push(args.length === 0 ? NO_ARGS : [...args]);
    return node.id;
  }

  function internTerm(root: Term): number {
    return foldTerm<number>(root, (t, args) => {
      if (t.kind === 'var') throw new Error(`internTerm: variable ${t.name} in a ground term`);
      return intern(t.name, t.kind === 'const' ? NO_ARGS : args);
    });
  }

  function toTerm(root: number): Term {
    // Post-order over ids not yet converted; memoized, so a DAG of shared subterms is built once.
    const stack: number[] = [root];
    while (stack.length > 0) {
      const id = stack[stack.length - 1]!;
      if (terms[id] !== undefined) {
        stack.pop();
        continue;
      }
      const args = argLists[id]!;
      const missing = args.filter((a) => terms[a] === undefined);
      if (missing.length > 0) {
        stack.push(...missing);
        continue;
      }
      stack.pop();
      terms[id] =
        args.length === 0
          ? { kind: 'const', name: names[id]!, pos: NO_POS }
          : { kind: 'fn', name: names[id]!, args: args.map((a) => terms[a]!), pos: NO_POS };
    }
    return terms[root]!;
  }

  return {
    size: () => names.length,
    intern,
    lookup: (name, args) => find(name, args, false)?.id ?? -1,
    name: (id) => names[id]!,
    args: (id) => argLists[id]!,
    internTerm,
    toTerm,
  };
}
