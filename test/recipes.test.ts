/**
 * One run, one game: every recipe that works on a grounding made now (ground, verify, mutex,
 * play, --format gddl, --format rddl, the batch job) works on exactly the ground game `ground`
 * writes, unused instances removed. The games below all have unused instances (`ground
 * --keep-unused` writes more), so a recipe that skipped their removal would emit other bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type GroundGame, emitGround } from '../src/pipeline/stages.js';
import { type RunContext, loadRun, mutexRecipe, playRecipe, verifyRecipe } from '../src/pipeline/recipes/index.js';
import { batchRecipe, groundRecipe } from '../src/pipeline/recipes/ground.js';
import { gddlRecipe } from '../src/pipeline/recipes/gddl.js';
import { rddlRecipe } from '../src/pipeline/recipes/rddl.js';
import { DEFAULT_AXIOM_OPTIONS } from '../src/pipeline/stages.js';
import { DEFAULT_GDDL_OPTIONS } from '../src/pipeline/formats.js';
import { EXAMPLES_DIR, GAMES_DIR, HAVE_CORPUS } from './corpus.js';
import { testContext } from './support/context.js';

/** The games, whether they have unused instances, and whether they have one role (RDDL). */
const GAMES: readonly { file: string; unused: boolean; single: boolean }[] = [
  { file: join(EXAMPLES_DIR, 'tictactoe.kif'), unused: true, single: false },
  { file: join(EXAMPLES_DIR, 'buttons.kif'), unused: false, single: true },
  { file: join(EXAMPLES_DIR, 'rddl-chain.kif'), unused: true, single: true },
  // A corpus game with unused instances; with CI=true an absent corpus fails the test.
  ...(HAVE_CORPUS || process.env.CI === 'true' ? [{ file: join(GAMES_DIR, 'ggp-repository-base/ticTacToe.kif'), unused: true, single: false }] : []),
];

const MUTEX = { playouts: 5, seed: 1, maxSteps: 50 };
const gdl = (ctx: RunContext, game: GroundGame): string => emitGround(game, 'gdl', { baseInput: true }, ctx.timer, ctx.options);

/** What `ground GAME` writes, and the ground GDL text of the game each other recipe worked on. */
function texts(file: string): { written: string; keptAll: string; others: Record<string, string> } {
  const text = readFileSync(file, 'utf8');
  const run = <T>(f: (ctx: RunContext) => T): [RunContext, T] => {
    const ctx = testContext(file);
    return [ctx, f(ctx)];
  };
  const loadAnd = <T>(f: (ctx: RunContext, loaded: ReturnType<typeof loadRun>) => T) => run((ctx) => f(ctx, loadRun(ctx, text)));
  const chunks = (keepUnused: boolean): string => {
    const [, out] = loadAnd((ctx, l) => groundRecipe(ctx, l, { keepUnused, format: 'gdl', gdl: { baseInput: true } }));
    if (out.kind !== 'chunks') throw new Error('ground without --remove-axioms streams');
    const parts: string[] = [];
    const decoder = new TextDecoder();
    out.emit((c) => parts.push(typeof c === 'string' ? c : decoder.decode(c)));
    return parts.join('');
  };
  const others: Record<string, string> = {};
  const [vc, v] = loadAnd((ctx, l) => verifyRecipe(ctx, l, { kind: 'grounding', keepUnused: false, mutex: true }, { playouts: 2, seed: 1, maxSteps: 30 }));
  expect(v.result.kind).toBe('same');
  others.verify = gdl(vc, v.run!.game);
  const [mc, m] = loadAnd((ctx, l) => mutexRecipe(ctx, l, MUTEX));
  others.mutex = gdl(mc, m.run.game);
  const [pc, p] = loadAnd((ctx, l) => playRecipe(ctx, l, 'ground', { seconds: 5, seed: 1, maxSteps: 30, maxPlayouts: 2 }));
  others.play = gdl(pc, p.ground!.run!.game);
  const [gc, g] = loadAnd((ctx, l) => gddlRecipe(ctx, l, { keepUnused: false, gddl: DEFAULT_GDDL_OPTIONS, axioms: DEFAULT_AXIOM_OPTIONS, mutex: MUTEX }));
  others.gddl = gdl(gc, g.run.game);
  const [bc, b] = loadAnd((ctx, l) => batchRecipe(ctx, l, 'gdl', 'game'));
  others.batch = gdl(bc, b.run.game);
  if (g.run.game.roles.length === 1) {
    const [rc, r] = loadAnd((ctx, l) => rddlRecipe(ctx, l, { keepUnused: false, axioms: DEFAULT_AXIOM_OPTIONS, base: 'game', rddl: {} }));
    others.rddl = gdl(rc, r.run.game);
  }
  return { written: chunks(false), keptAll: chunks(true), others };
}

describe('every recipe works on the game ground writes', () => {
  for (const { file, unused, single } of GAMES) {
    it(file.split('/').slice(-2).join('/'), () => {
      const { written, keptAll, others } = texts(file);
      // With unused instances, a recipe that skipped their removal would emit other bytes.
      if (unused) expect(keptAll).not.toBe(written);
      else expect(keptAll).toBe(written);
      expect(Object.keys(others).sort()).toEqual(['batch', 'gddl', 'mutex', 'play', 'verify', ...(single ? ['rddl'] : [])].sort());
      for (const [recipe, text] of Object.entries(others)) expect({ recipe, text }).toEqual({ recipe, text: written });
    }, 120_000);
  }
});
