// The README's library example, run as written (its import of 'gdl-grounder' is this checkout's
// src/index.ts): it type-checks with `npm test`, writes the game `gdl-ground ground` writes, and the
// test fails when the README and this copy part.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GDL_EMIT_OPTIONS, contextFromSettings, emitGdl, groundWritten, loadRun } from '../src/index.js';
import { runCli } from './support/cli.js';

const EXAMPLE = [
  "const ctx = contextFromSettings('game.kif', { method: 'prolog', timeoutSeconds: 60 });",
  "const loaded = loadRun(ctx, readFileSync('game.kif', 'utf8'));",
  'const { game } = groundWritten(ctx, loaded, false);',
  'process.stdout.write(emitGdl(game, DEFAULT_GDL_EMIT_OPTIONS, ctx.deadline));',
];

/** The example's lines, on games/tictactoe.kif, returning what it writes. */
function example(): string {
  const ctx = contextFromSettings('game.kif', { method: 'prolog', timeoutSeconds: 60 });
  const loaded = loadRun(ctx, readFileSync('games/tictactoe.kif', 'utf8'));
  const { game } = groundWritten(ctx, loaded, false);
  return emitGdl(game, DEFAULT_GDL_EMIT_OPTIONS, ctx.deadline);
}

describe('the README library example', () => {
  it('is the code this test runs', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain("import { DEFAULT_GDL_EMIT_OPTIONS, contextFromSettings, emitGdl, groundWritten, loadRun } from 'gdl-grounder';");
    expect(readme).toContain(EXAMPLE.join('\n'));
  });

  it('writes the game the command line writes', () => {
    const cli = runCli(['ground', 'games/tictactoe.kif']);
    expect(cli.code).toBe(0);
    expect(example()).toBe(cli.stdout);
  });
});
