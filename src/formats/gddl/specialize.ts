/**
 * The precondition of an effect in one multi-action (slide 48): the `next` formula of the
 * fluent with every `does` atom replaced by true (a move of the combination) or false (any
 * other move), simplified by the formula table's constructors. A formula depends only on the
 * `does` atoms it mentions, so results are cached by (formula, the chosen moves among them):
 * in a turn-taking game each next formula is specialized once per move that touches it.
 * Kept axioms that depend on `does` (`inline`) are replaced by their definitions, specialized
 * the same way (they are not recursive, so this ends).
 */
import { type Formula, type FormulaTable, type Step, postOrder } from '../../axioms/formula.js';
import { atomsOf } from './parts.js';

/** Specializes formulas of `table` to joint moves; one per GDDL model. */
export class Specializer {
  private readonly doesIn = new Map<number, readonly number[]>();
  private readonly cache = new Map<string, Formula>();

  constructor(
    private readonly table: FormulaTable,
    private readonly isDoes: Uint8Array,
    private readonly inline: ReadonlyMap<number, Formula>,
    private readonly step: Step,
  ) {}

  /** The `does` atoms `f` mentions, directly or through inlined axioms, ascending. */
  movesIn(f: Formula): readonly number[] {
    let list = this.doesIn.get(f.id);
    if (list === undefined) {
      const found = new Set<number>();
      const seen = new Set<number>();
      const todo = [f];
      while (todo.length > 0) {
        for (const a of atomsOf(todo.pop()!)) {
          if (this.isDoes[a] === 1) found.add(a);
          const def = this.inline.get(a);
          if (def !== undefined && !seen.has(a)) {
            seen.add(a);
            todo.push(def);
          }
        }
      }
      list = [...found].sort((x, y) => x - y);
      this.doesIn.set(f.id, list);
    }
    return list;
  }

  /** `f` with the `does` atoms in `chosen` true and every other `does` atom false. */
  specialize(f: Formula, chosen: ReadonlySet<number>): Formula {
    const moves = this.movesIn(f);
    if (moves.length === 0) return f;
    const on = moves.filter((a) => chosen.has(a));
    const key = `${f.id}:${on.join(',')}`;
    let out = this.cache.get(key);
    if (out === undefined) {
      out = this.substitute(f, new Set(on));
      this.cache.set(key, out);
    }
    return out;
  }

  /** The substitution itself, children first; a node none of whose children changed is kept. */
  private substitute(root: Formula, on: ReadonlySet<number>): Formula {
    const { table } = this;
    const out = new Map<number, Formula>();
    postOrder([root], (f) => {
      let g: Formula = f;
      if (f.kind === 'atom') {
        const def = this.inline.get(f.atom);
        if (this.isDoes[f.atom] === 1) g = on.has(f.atom) ? table.TRUE : table.FALSE;
        else if (def !== undefined) g = this.specialize(def, on);
      } else if (f.kind === 'not') {
        const a = out.get(f.arg.id)!;
        if (a !== f.arg) g = table.not(a);
      } else if (f.kind === 'and' || f.kind === 'or') {
        const args = f.args.map((a) => out.get(a.id)!);
        if (args.some((a, i) => a !== f.args[i])) g = f.kind === 'and' ? table.and(args) : table.or(args);
      }
      out.set(f.id, g);
    }, this.step);
    return out.get(root.id)!;
  }
}
