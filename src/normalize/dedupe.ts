/**
 * The set of distinct normalized rules, for removing duplicates while the normal game is
 * assembled. Rules are told apart by structure (relation, terms, literal kinds): the same
 * equality as comparing their KIF text, since symbols hold no space or parenthesis and
 * variables are the names that start with `?`. Hashing the structure builds no text: files of
 * facts have millions of rules, and a text key per rule was most of the time of assembling.
 */
import type { Atom, Term } from '../gdl/ast.js';
import { termEquals } from '../gdl/terms.js';
import type { Literal, NormalRule } from './types.js';

/** Adds rules; `add` says whether the rule was new. */
interface RuleSet {
  add(rule: NormalRule): boolean;
}

/** One step of FNV-1a over 32-bit words. */
function mix(h: number, x: number): number {
  return Math.imul(h ^ x, 16777619);
}

const SEED = 2166136261;

/** `h` with the characters of `s` mixed in. */
function stringHash(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = mix(h, s.charCodeAt(i));
  return mix(h, s.length);
}

function atomEquals(a: Atom, b: Atom): boolean {
  if (a.rel !== b.rel || a.args.length !== b.args.length) return false;
  for (let i = 0; i < a.args.length; i++) if (!termEquals(a.args[i]!, b.args[i]!)) return false;
  return true;
}

function literalEquals(a: Literal, b: Literal): boolean {
  if (a.kind === 'distinct' || b.kind === 'distinct') {
    return a.kind === 'distinct' && b.kind === 'distinct' && termEquals(a.left, b.left) && termEquals(a.right, b.right);
  }
  return a.kind === b.kind && atomEquals(a.atom, b.atom);
}

function rulesEqual(a: NormalRule, b: NormalRule): boolean {
  if (a.body.length !== b.body.length || !atomEquals(a.head, b.head)) return false;
  for (let i = 0; i < a.body.length; i++) if (!literalEquals(a.body[i]!, b.body[i]!)) return false;
  return true;
}

/** A new, empty set of rules. */
export function createRuleSet(): RuleSet {
  const buckets = new Map<number, NormalRule[]>();
  const stack: Term[] = [];
  const termHash = (root: Term, seed: number): number => {
    let h = seed;
    stack.push(root);
    while (stack.length > 0) {
      const t = stack.pop()!;
      // The characters themselves: cheaper than a table of names' hashes, which on a file of
      // millions of facts holds millions of names and misses the cache on every look-up.
      h = stringHash(mix(h, t.kind === 'var' ? 1 : t.kind === 'const' ? 2 : 3), t.name);
      if (t.kind === 'fn') {
        h = mix(h, t.args.length);
        for (let i = t.args.length - 1; i >= 0; i--) stack.push(t.args[i]!);
      }
    }
    return h;
  };
  const atomHash = (a: Atom, seed: number): number => {
    let h = mix(stringHash(seed, a.rel), a.args.length);
    for (const t of a.args) h = termHash(t, h);
    return h;
  };
  const ruleHash = (r: NormalRule): number => {
    let h = mix(atomHash(r.head, SEED), r.body.length);
    for (const l of r.body) {
      if (l.kind === 'distinct') h = termHash(l.right, termHash(l.left, mix(h, 4)));
      else h = atomHash(l.atom, mix(h, l.kind === 'pos' ? 5 : 6));
    }
    return h;
  };
  return {
    add(rule) {
      const h = ruleHash(rule);
      const bucket = buckets.get(h);
      if (bucket === undefined) {
        buckets.set(h, [rule]);
        return true;
      }
      if (bucket.some((r) => rulesEqual(r, rule))) return false;
      bucket.push(rule);
      return true;
    },
  };
}
