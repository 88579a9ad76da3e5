/**
 * A game with formula bodies (axioms removed) as GDL text: roles, `base` and `input`
 * declarations, the initial state, then its rules `(<= head f1 ... fn)` where each fi is a
 * ground atom, `(not f)`, `(or f ...)` or `(and f ...)` — valid GDL that this project's parser
 * and other GGP tools read. Deterministic byte for byte. Past the run's deadline (checked per
 * rule and per formula node written) it throws a limit `GdlError`.
 *
 * Written as UTF-8 bytes in chunks (issue 27), as the ground game is (write.ts): each atom's text
 * once in one byte array, each rule's line written node by node into a reused buffer; before, a
 * string per subformula of every rule, the lines kept as strings and joined into one text.
 */
import type { Formula } from '../../axioms/formula.js';
import type { FormulaGame } from '../../axioms/types.js';
import { deadlineError } from '../../gdl/diagnostics.js';
import { NO_POS } from '../../gdl/ast.js';
import { Deadline } from '../../deadline.js';
import { ByteLines, type TermBytes } from './bytes.js';
import { type GdlEmitOptions, DEFAULT_GDL_EMIT_OPTIONS, atomAndHeaderBytes, headerBytes } from './write.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const RULE_OPEN = encode('(<= ');
const NOT_OPEN = encode('(not ');
const AND_OPEN = encode('(and');
const OR_OPEN = encode('(or');
// Constants only survive simplification at the top of a body; GDL has no literal for them, so
// true is written as an always-true test and false as its negation.
const TRUE_TEXT = encode('(distinct 0 1)');
const FALSE_TEXT = encode('(not (distinct 0 1))');
const SPACE = 0x20;
const CLOSE = 0x29;
const NEWLINE = 0x0a;
const COMMENT = '; ground game without axioms, written by gdl-grounder';

/** Appends the bytes of `src` in full. */
function put(out: ByteLines, src: Uint8Array, from = 0, to = src.length): void {
  out.copy(src, from, to);
}

/**
 * Appends formula `root`'s KIF text, without recursion (formulas can be deep): a shared
 * subformula is written at each of its places, as its text was repeated before. `step` is
 * called per node.
 */
function formulaBytes(out: ByteLines, atoms: TermBytes, root: Formula, step: () => void): void {
  const { bytes, start, end } = atoms;
  // Open `not`, `and`, `or` nodes with the index of their next argument.
  const open: Formula[] = [];
  const next: number[] = [];
  let f: Formula | undefined = root;
  for (;;) {
    if (f !== undefined) {
      step();
      if (f.kind === 'atom') put(out, bytes, start[f.atom]!, end[f.atom]!);
      else if (f.kind === 'true') put(out, TRUE_TEXT);
      else if (f.kind === 'false') put(out, FALSE_TEXT);
      else {
        put(out, f.kind === 'not' ? NOT_OPEN : f.kind === 'and' ? AND_OPEN : OR_OPEN);
        open.push(f);
        next.push(0);
      }
      f = undefined;
    }
    if (open.length === 0) return;
    const top = open[open.length - 1]!;
    const k = next[next.length - 1]!++;
    if (top.kind === 'not') {
      if (k === 0) f = top.arg;
    } else if (top.kind === 'and' || top.kind === 'or') {
      if (k < top.args.length) {
        out.byte(SPACE);
        f = top.args[k];
      }
    }
    if (f === undefined) {
      out.byte(CLOSE);
      open.pop();
      next.pop();
    }
  }
}

/** Bytes per chunk, as the ground game's writer's. */
const CHUNK_BYTES = 1 << 16;

/**
 * The game as GDL text in UTF-8 chunks of whole lines, each a view of one reused buffer valid
 * until the next is asked for (a consumer that keeps chunks copies them); every line ends with
 * `\n`; the pipeline writes them as they come (emitGroundStream), tests decode them (decodeChunks).
 */
export function* emitFormulaGdlBytes(game: FormulaGame, options: GdlEmitOptions = DEFAULT_GDL_EMIT_OPTIONS, deadline: Deadline, chunk = CHUNK_BYTES): Generator<Uint8Array> {
  const step = (): void => {
    if (deadline.tick()) throw deadlineError(deadline, game.file, NO_POS, 'writing the game without axioms');
  };
  const out = new ByteLines(chunk + (chunk >> 2));
  const { texts, first } = atomAndHeaderBytes(game, options);
  yield* headerBytes(game, options, out, texts, first, chunk, COMMENT);
  const { bytes, start, end } = texts;
  for (const r of game.rules) {
    if (deadline.passed()) throw deadlineError(deadline, game.file, NO_POS, 'writing the game without axioms');
    if (r.body.length === 0) put(out, bytes, start[r.head]!, end[r.head]!);
    else {
      put(out, RULE_OPEN);
      put(out, bytes, start[r.head]!, end[r.head]!);
      for (const f of r.body) {
        out.byte(SPACE);
        formulaBytes(out, texts, f, step);
      }
      out.byte(CLOSE);
    }
    out.byte(NEWLINE);
    if (out.length >= chunk) yield out.take();
  }
  if (out.length > 0) yield out.take();
}
