// Helpers and checks shared by the tests of rewrites during instantiation (rule splitting, frame rules):
// the rewritten game plays like the original, reads back, and does not depend on the order
// of the sentences.
import { expect } from 'vitest';
import { parseGdl } from '../../src/gdl/parser.js';
import { atomToString, formulaToString } from '../../src/gdl/terms.js';
import { normalizeGame } from './normalize.js';
import { asRule, type NormalRule } from '../../src/normalize/types.js';
import type { GroundGame } from '../../src/ground/types.js';
import type { PipelineOptions } from '../../src/pipeline/options.js';
import { emitGround, loadGroundFile, runGrounding } from '../../src/pipeline/stages.js';
import { verifyGrounding } from '../../src/pipeline/stages-play.js';
import { shuffleSentences } from '../../scripts/fuzz-mutate.mjs';
import { StageTimer } from '../../src/timer.js';
import { defaultPipelineOptions } from '../../src/pipeline/options.js';
import { Deadline } from '../../src/deadline.js';

/**
 * Grounds `text` under `options` and checks the result: `verify` against the original over
 * `playouts` playouts, the written GDL read back as a valid game, and the same bytes from
 * the sentences shuffled. Returns the ground game and its GDL for further checks.
 */
export function groundAndCheck(text: string, file: string, options: PipelineOptions, playouts: { playouts: number; seed: number; maxSteps: number }): { ground: GroundGame; gdl: string } {
  const { loaded, ground } = runGrounding(text, file, options, new StageTimer());
  const gdl = emitGround(ground, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions());
  expect(verifyGrounding(loaded.normal, ground, options, playouts).kind).toBe('same');
  // The written game, auxiliary relations included, reads back as a valid game.
  expect(loadGroundFile(gdl, `${file}.ground`, options, new StageTimer()).normal.rules.length).toBeGreaterThan(0);
  // Auxiliary names do not depend on the order of the sentences.
  const shuffled = runGrounding(shuffleSentences(text, 2), file, options, new StageTimer()).ground;
  expect(emitGround(shuffled, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions())).toBe(gdl);
  return { ground, gdl };
}

/** The first rule of `text`, normalized. */
export function ruleOf(text: string): NormalRule {
  return normalizeGame(parseGdl(text, 't.kif', Deadline.never()).game).rules[0]!;
}

/** A normalized rule as text: `head <= literal ...`. */
export function show(r: NormalRule): string {
  const plain = asRule(r);
  return `${atomToString(plain.head)} <= ${plain.body.map(formulaToString).join(' ')}`;
}

/** The GDL of `text` grounded under `options`, and the ground game. */
export function groundGdl(text: string, file: string, options: PipelineOptions): { ground: GroundGame; gdl: string } {
  const ground = runGrounding(text, file, options, new StageTimer()).ground;
  return { ground, gdl: emitGround(ground, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions()) };
}

/** Checks that `text` grounds to the same GDL, without auxiliary relations, under `a` and `b`. */
export function expectSameGdl(text: string, file: string, a: PipelineOptions, b: PipelineOptions): void {
  const gdl = groundGdl(text, file, a).gdl;
  expect(gdl).toBe(groundGdl(text, file, b).gdl);
  expect(gdl).not.toContain('split-');
}
