// What a run keeps for its outputs, and where its peak memory was reached (issue 27): the
// ground run holds the game written and removal's counts, not the supersets and the game
// before unused-instance removal (they were held through emission and, in the library, for
// the grounding's life); `--stats` shows each stage's high-water mark and the stage that
// reached the run's peak.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groundWritten, loadRun } from '../src/pipeline/recipes/index.js';
import { groundWrittenWhole } from '../src/pipeline/recipes/game.js';
import { runContext } from '../src/pipeline/context.js';
import { defaultPipelineOptions } from '../src/pipeline/stages.js';
import { type StageRecord, StageTimer, formatStages } from '../src/timer.js';

const GAME = join(__dirname, '..', 'games', 'tictactoe.kif');

describe('the ground run', () => {
  it('keeps only the game written and what removal dropped; the whole run keeps the rest for the batch', () => {
    const ctx = runContext('tictactoe.kif', defaultPipelineOptions(), new StageTimer());
    const loaded = loadRun(ctx, readFileSync(GAME, 'utf8'));
    const run = groundWritten(ctx, loaded, false);
    expect(Object.keys(run).sort()).toEqual(['game', 'unused']);
    expect(Object.keys(groundWritten(ctx, loaded, true))).toEqual(['game']);
    const whole = groundWrittenWhole(ctx, loaded, false);
    expect(Object.keys(whole).sort()).toEqual(['full', 'game', 'reach', 'unused']);
    expect(whole.game.rules.length).toBe(run.game.rules.length);
  });
});

describe('--stats memory', () => {
  const MiB = 2 ** 20;
  const record = (stage: string, rss: number, maxRss: number): StageRecord => ({ stage, ms: 1, counts: {}, rss: rss * MiB, maxRss: maxRss * MiB });

  it('marks the stages that raised the high-water mark and names the last as where the peak was reached', () => {
    const text = formatStages([record('parse', 60, 61), record('instantiate', 500, 540), record('prune', 450, 560), record('emit', 400, 560)], 500 * MiB);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^parse .* \[rss 60 MiB, peak 61 MiB\]$/);
    expect(lines[1]).toMatch(/\[rss 500 MiB, peak 540 MiB \+479\]$/);
    expect(lines[2]).toMatch(/\[rss 450 MiB, peak 560 MiB \+20\]$/);
    expect(lines[3]).toMatch(/\[rss 400 MiB, peak 560 MiB\]$/);
    expect(text).toMatch(/^peak memory +500\.0 MiB$/m);
    expect(text).toMatch(/^high water +560\.0 MiB {2}reached in prune$/m);
  });

  it('records the process high-water mark after each stage (Node reports it)', () => {
    const timer = new StageTimer();
    timer.run('a', () => new Uint8Array(1 << 20).fill(1).length);
    const [a] = timer.list();
    expect(a!.maxRss).toBeGreaterThanOrEqual(a!.rss);
  });
});
