// The validator on every game of the corpus: each outcome is deliberate and listed here.
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, hasErrors } from '../src/gdl/diagnostics.js';
import { parseGdl } from '../src/gdl/parser.js';
import { validateGame } from '../src/normalize/validate.js';
import { normalizeGame } from './support/normalize.js';
import { HAVE_CORPUS, listGames, readGame } from './corpus.js';
import { Deadline } from '../src/deadline.js';

/** Games rejected, with the error that rejects them. */
const REJECTED: Record<string, RegExp> = {
  // terminal <- not sheep_moving <- ... <- alive <- killed <- does: terminal depends on the moves.
  'libgdl/fire_sheep.kif': /^287:3: error: 'terminal' must not depend on 'does'/,
  // Uses next/2 as an ordinary relation in bodies, and move with 4 and 6 arguments.
  'libgdl/kono.kif': /^253:7: error: 'next' cannot stand in the body of a rule$/,
};

/** Games accepted with warnings, and what every warning of each is about. */
const WARNED: Record<string, RegExp> = {
  // GGP-Base's invalid test games ("the arities differ"): read as distinct symbols by name and arity.
  'ggp-base-test/test_invalid_function_arities_differ.kif': /^8:15: warning: function 'a' is used with 2 arguments here but with 1 argument at 7:15; read as distinct functions a\/1 and a\/2$/,
  'ggp-base-test/test_invalid_sentence_arities_differ.kif': /^13:1: warning: relation 'foo' is used with 2 arguments here but with 1 argument at 12:1; read as distinct relations foo\/1 and foo\/2$/,
  'ggp-repository-base/ticTacToeClassic.kif': /^(75|76):1: warning: unsafe rule for 'distinctcell'.*inlining|^(96|100|103):1: warning: unsafe rule for 'goal': role variable/,
  'ggp-repository-base/speedChess.kif': /^234:5: warning: relation 'coords' has no rules or facts/,
};
// (goal robot 100) <= (not (goal robot 0)): stratified once goal is split by its value.
for (const g of ['futoshiki4', 'futoshiki5', 'futoshiki6', 'hexPie', 'hidato19', 'hidato37', 'majorities', 'nineBoardTicTacToePie',
  'queens06ug', 'queens08lg', 'queens08ug', 'queens12ug', 'queens16ug', 'queens31lg']) {
  WARNED[`ggp-repository-base/${g}.kif`] = /^\d+:\d+: warning: 'goal' depends negatively on itself through \(not \(goal \S+ \d+\)\), but no instance depends on itself/;
}

describe.skipIf(!HAVE_CORPUS)('validator on the corpus', () => {
  const games = listGames();
  const outcome = new Map<string, { lines: string[]; error: boolean }>();
  const revalidated = new Map<string, string[]>();
  for (const rel of games) {
    const parsed = parseGdl(readGame(rel), rel, Deadline.never());
    const validated = validateGame(parsed.game, undefined, undefined, Deadline.never());
    // Positions are relative to the file; the file name is the same on every line.
    const lines = validated.diagnostics.map((d) => formatDiagnostic(d).slice(rel.length + 1));
    outcome.set(rel, { lines, error: hasErrors(parsed.diagnostics) || hasErrors(validated.diagnostics) });
    if (!hasErrors(validated.diagnostics)) {
      normalizeGame(validated.game);
      // The repaired game needs no further repair and has no errors.
      const again = validateGame(validated.game, undefined, undefined, Deadline.never()).diagnostics.filter((d) => d.severity === 'error' || d.message.includes('repaired'));
      revalidated.set(rel, again.map(formatDiagnostic));
    }
  }

  it('reads the whole corpus', () => {
    expect(games.length).toBeGreaterThan(370);
  });

  it('rejects exactly the listed games, each with its error', () => {
    const rejected = [...outcome].filter(([, o]) => o.error).map(([g]) => g);
    expect(rejected).toEqual(Object.keys(REJECTED).sort());
    for (const [g, re] of Object.entries(REJECTED)) expect(outcome.get(g)!.lines.some((l) => re.test(l)), g).toBe(true);
  });

  it('warns on exactly the listed games, each warning of the listed kind', () => {
    const warned = [...outcome].filter(([, o]) => !o.error && o.lines.length > 0).map(([g]) => g);
    expect(warned).toEqual(Object.keys(WARNED).sort());
    for (const [g, re] of Object.entries(WARNED)) for (const l of outcome.get(g)!.lines) expect(l, g).toMatch(re);
  });

  it('leaves repaired games that validate cleanly', () => {
    expect([...revalidated.values()].flat()).toEqual([]);
    expect(revalidated.size).toBe(games.length - Object.keys(REJECTED).length);
  });

  it('gives every diagnostic a real position', () => {
    for (const [g, o] of outcome) for (const l of o.lines) expect(l, g).toMatch(/^[1-9]\d*:[1-9]\d*: (error|warning): \S/);
  });
});
