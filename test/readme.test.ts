// The README's library example, run as written (its import of 'gdl-grounder' is this checkout's
// src/index.ts): it type-checks with `npm test`, writes the game `gdl-ground ground` writes, and the
// test fails when the README and this copy part.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emitGame, formatDiagnostic, groundGame, loadGame } from '../src/index.js';
import { runCli } from './support/cli.js';

const EXAMPLE = [
  "const loaded = loadGame(readFileSync('game.kif', 'utf8'), { file: 'game.kif', method: 'prolog', timeoutSeconds: 60 });",
  "if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join('\\n'));",
  'const grounding = groundGame(loaded.game);',
  "process.stdout.write(emitGame(grounding, 'gdl').files[0]!.text);",
];

/** The example's lines, on games/tictactoe.kif, returning what it writes. */
function example(): string {
  const loaded = loadGame(readFileSync('games/tictactoe.kif', 'utf8'), { file: 'game.kif', method: 'prolog', timeoutSeconds: 60 });
  if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join('\n'));
  const grounding = groundGame(loaded.game);
  return emitGame(grounding, 'gdl').files[0]!.text;
}

describe('the README library example', () => {
  it('is the code this test runs', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain("import { emitGame, formatDiagnostic, groundGame, loadGame } from 'gdl-grounder';");
    expect(readme).toContain(EXAMPLE.join('\n'));
    expect(readme).toContain('docs/library.md');
  });

  it('writes the game the command line writes', () => {
    const cli = runCli(['ground', 'games/tictactoe.kif']);
    expect(cli.code).toBe(0);
    expect(example()).toBe(cli.stdout);
  });
});
