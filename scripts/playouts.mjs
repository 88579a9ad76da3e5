#!/usr/bin/env node
/**
 * Random playouts per second of the ground simulator on a few games, for comparing builds:
 *
 *   node scripts/playouts.mjs [--dist DIR] [--seconds S] GAME.kif...
 *
 * Grounds each game with the default pipeline options of the build in DIR (default: this
 * worktree's dist/), then plays seeded random matches for S seconds (default 5) and prints the
 * playouts per second. Only `initialState`, `info` and `successor` are used, so builds with
 * different state and move types can be compared side by side.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { takeOption } from './options.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(option('--dist', join(root, 'dist')));
const seconds = Number(option('--seconds', '5'));
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { runGrounding, defaultPipelineOptions } = await load('pipeline/stages.js');
const { StageTimer } = await load('timer.js');
// The ground simulator is no part of the library API: read from its module, in every build.
const { createGroundSimulator } = await load('play/ground-sim.js');

/** Seeded generator (mulberry32), so both builds play the same kind of matches. */
function random(seed) {
  let s = seed >>> 0;
  return (bound) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * bound);
  };
}

for (const file of args) {
  const { ground } = runGrounding(readFileSync(file, 'utf8'), file, defaultPipelineOptions(), new StageTimer());
  const sim = createGroundSimulator(ground, defaultPipelineOptions().deadline);
  const pick = random(1);
  let playouts = 0;
  let steps = 0;
  const start = performance.now();
  const until = start + seconds * 1000;
  while (performance.now() < until) {
    let state = sim.initialState();
    for (let step = 0; step < 500; step++) {
      const info = sim.info(state);
      if (info.terminal || info.legal.some((ms) => ms.length === 0)) break;
      state = sim.successor(state, info.legal.map((ms) => ms[pick(ms.length)]));
      steps++;
    }
    playouts++;
  }
  const secs = (performance.now() - start) / 1000;
  const rate = (playouts / secs).toFixed(1);
  console.log(`${basename(file)}\t${rate} playouts/s\t${(steps / playouts).toFixed(1)} steps/playout\t${playouts} playouts in ${secs.toFixed(1)} s`);
}
