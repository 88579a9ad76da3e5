/**
 * A game with formula bodies (axioms removed) as GDL text: roles, `base` and `input`
 * declarations, the initial state, then its rules `(<= head f1 ... fn)` where each fi is a
 * ground atom, `(not f)`, `(or f ...)` or `(and f ...)` — valid GDL that this project's parser
 * and other GGP tools read. Deterministic byte for byte. Past the run's deadline (checked per
 * rule and every few thousand nodes) it throws a limit `GdlError`.
 */
import { argText } from '../../axioms/atoms.js';
import { atomText } from '../../ground/atoms.js';
import { type Formula, type Step, postOrder } from '../../axioms/formula.js';
import type { FormulaGame } from '../../axioms/types.js';
import { deadlineError } from '../../gdl/diagnostics.js';
import { NO_POS } from '../../gdl/ast.js';
import { Deadline } from '../../deadline.js';
import { type GdlEmitOptions, DEFAULT_GDL_EMIT_OPTIONS } from './write.js';

/**
 * KIF text of the formulas reachable from `roots`, by node id; built children first, without
 * recursion (formulas can be deep), each shared subformula once.
 */
function formulaTexts(game: FormulaGame, roots: readonly Formula[], step: Step): Map<number, string> {
  const text = new Map<number, string>();
  postOrder(roots, (f) => {
    let s: string;
    if (f.kind === 'atom') s = atomText(game, f.atom);
    // Constants only survive simplification at the top of a body; GDL has no literal for
    // them, so true is written as an always-true test and false as its negation.
    else if (f.kind === 'true') s = '(distinct 0 1)';
    else if (f.kind === 'false') s = '(not (distinct 0 1))';
    else if (f.kind === 'not') s = `(not ${text.get(f.arg.id)!})`;
    else s = `(${f.kind} ${f.args.map((a) => text.get(a.id)!).join(' ')})`;
    text.set(f.id, s);
  }, step);
  return text;
}

/** The lines of the GDL output, without line ends. */
function emitFormulaGdlLines(game: FormulaGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline): string[] {
  const step: Step = () => {
    if (deadline.tick()) throw deadlineError(deadline, game.file, NO_POS, 'writing the game without axioms');
  };
  const lines = ['; ground game without axioms, written by gdl-grounder'];
  for (const role of game.roles) lines.push(`(role ${game.terms.text(role)})`);
  if (options.baseInput) {
    const { fluents, moves } = game.vocabulary;
    const text = (t: number): string => game.terms.text(t);
    for (const f of fluents) lines.push(`(base ${text(f.term)})`);
    for (const m of moves) lines.push(`(input ${text(m.role)} ${text(m.action)})`);
  }
  for (const id of game.init) lines.push(`(init ${argText(game, id, 0)})`);
  for (const r of game.rules) {
    if (deadline.passed()) throw deadlineError(deadline, game.file, NO_POS, 'writing the game without axioms');
    const head = atomText(game, r.head);
    if (r.body.length === 0) {
      lines.push(head);
      continue;
    }
    const text = formulaTexts(game, r.body, step);
    lines.push(`(<= ${head} ${r.body.map((f) => text.get(f.id)!).join(' ')})`);
  }
  return lines;
}

/** The game as GDL text, deterministic byte for byte; every line ends with `\n`. */
export function emitFormulaGdl(game: FormulaGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline): string {
  return `${emitFormulaGdlLines(game, options, deadline).join('\n')}\n`;
}
