/**
 * Copy atoms merged, a net optimization pass of the fast simulator (docs/play.md, "Specialized
 * nets"): a head h whose only rule is `h <= b`, one positive literal on an axiom atom b, holds
 * in exactly the states where b holds. So b is renamed h everywhere: b's rules derive h, the
 * rules reading b read h, and the rule `h <= b` goes. speedChess's `(legal white m) <=
 * (legalMove white m)` in the net of white's turn (the control literal fixed true): every change
 * of a legal move was two atoms settled and a counter and a support updated between them; now
 * it is one atom. Nothing else reads b afterwards, so it never changes (false, unread).
 *
 * Why it keeps the game: h ≡ b in every state (h's only rule), so a rule reading b reads the same
 * value from h, and b's rules give h exactly the support they gave b, which was h's. Only an axiom
 * (no keyword relation) is renamed: the simulator's inputs (`true`, `does`) and outputs (`legal`,
 * `next`, `goal`, `terminal`, `sees`) keep their atoms. No chains: an atom renamed is never the
 * target of a renaming, and a target is never renamed, so one pass leaves every rule consistent.
 * A `next` atom is no target: renamed into `(next alarm)`, games/frame-atoms.kif's `missed`
 * (read by other next rules) would make those rules read a next atom, a shape frames.ts does not
 * take out of the net, and three of its framed fluents would stay in the net.
 */
import { KEYWORDS } from '../../gdl/keywords.js';
import type { GroundGame, GroundRule } from '../../ground/types.js';

/** The rules of `rules` (rules of `game`'s atoms) with every copy atom merged into its head, as described above. */
export function mergeCopies(game: GroundGame, rules: readonly GroundRule[]): GroundRule[] {
  const n = game.atoms.length;
  const ruleCount = new Int32Array(n);
  for (const r of rules) ruleCount[r.head]!++;
  const axiom = new Uint8Array(n);
  const next = new Uint8Array(n);
  game.atoms.forEach((a, i) => {
    const name = game.terms.symbolName(a.rel);
    if (!KEYWORDS.has(name)) axiom[i] = 1;
    if (name === 'next') next[i] = 1;
  });
  const into = new Int32Array(n).fill(-1);
  const target = new Uint8Array(n);
  for (const r of rules) {
    const h = r.head;
    if (ruleCount[h] !== 1 || r.pos.length !== 1 || r.neg.length !== 0 || next[h] === 1) continue;
    const b = r.pos[0]!;
    if (b === h || axiom[b] !== 1 || ruleCount[b] === 0 || into[b] >= 0 || target[b] === 1 || into[h] >= 0) continue;
    into[b] = h;
    target[h] = 1;
  }
  const map = (a: number): number => (into[a]! >= 0 ? into[a]! : a);
  const out: GroundRule[] = [];
  for (const r of rules) {
    if (r.pos.length === 1 && r.neg.length === 0 && into[r.pos[0]!] === r.head) continue;
    out.push({ head: map(r.head), pos: r.pos.map(map), neg: r.neg.map(map) });
  }
  return out;
}
