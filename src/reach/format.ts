/**
 * The supersets as text: GDL sentences, one a line, sorted by code point — `(base F)` for
 * each fluent, `(input R M)` for each move, and each axiom instance as itself.
 */
import { atomToString, compareCodePoints, termToString } from '../gdl/terms.js';
import type { Supersets } from './types.js';

/** The sentences of each superset, each list sorted by code point. */
interface SupersetSentences {
  readonly fluents: readonly string[];
  readonly moves: readonly string[];
  readonly axioms: readonly string[];
}

const sorted = (xs: string[]): string[] => xs.sort(compareCodePoints);

/** The three supersets as GDL sentences: `(base F)`, `(input R M)` and the axiom atoms. */
export function supersetSentences(s: Supersets): SupersetSentences {
  return {
    fluents: sorted(s.fluents.map((f) => `(base ${termToString(f)})`)),
    moves: sorted(s.moves.map((m) => `(input ${termToString(m.role)} ${termToString(m.action)})`)),
    axioms: sorted(s.axioms.map(atomToString)),
  };
}

/** All sentences, one a line, sorted by code point, each line ending in a newline. */
export function formatSupersets(s: Supersets): string {
  const { fluents, moves, axioms } = supersetSentences(s);
  const lines = sorted([...fluents, ...moves, ...axioms]);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
