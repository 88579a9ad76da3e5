#!/usr/bin/env node
/**
 * Random playouts per second through the library API (`createSimulator(...).playouts`) beside
 * `gdl-ground play`'s own depth charges (`playGroundGame`: `fastPlayouts` on the fast
 * simulator), on the same ground game, alternating the two so that the machine's load falls on
 * both alike (docs/library.md, "Play it, as a player"):
 *
 *   node scripts/api-playouts.mjs [--seconds S] [--rounds N] GAME.kif...
 *
 * Prints, per game, the playouts per CPU second of each and their ratio (API / play), and, for
 * scale, the playouts per second of a player's loop through the text interface (`legalMoves`,
 * `nextState` with KIF texts, each state a new value), which allocates on every step.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { takeOption } from './options.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const seconds = Number(option('--seconds', '2'));
const rounds = Number(option('--rounds', '3'));
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { createSimulator, groundGame, loadGame } = await load('index.js');
const { playGroundGame, resolvePipelineOptions } = await load('pipeline/stages.js');
const { StageTimer } = await load('timer.js');

const playout = { seconds, seed: 1, maxSteps: 10_000, maxPlayouts: Infinity };

/** Playouts per CPU second of a player's loop: moves chosen among `legalMoves` texts, played with `nextState`. */
function textLoop(sim) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let n = 0;
  let pick = 1;
  while (performance.now() - start < seconds * 1000) {
    let state = sim.initialState();
    for (let depth = 0; depth < 10_000 && !sim.isTerminal(state); depth++) {
      const moves = sim.roles.map((_, r) => sim.legalMoves(state, r));
      if (moves.some((m) => m.length === 0)) break;
      state = sim.nextState(state, moves.map((m) => m[(pick = (pick * 48271) % 2147483647) % m.length]));
    }
    n++;
  }
  const used = process.cpuUsage(cpu);
  return n / ((used.user + used.system) / 1e6);
}
for (const file of args) {
  const loaded = loadGame(readFileSync(file, 'utf8'), { file });
  if (!loaded.ok) throw new Error(`${file}: invalid`);
  const grounding = groundGame(loaded.game);
  const sim = createSimulator(grounding);
  let api = 0;
  let play = 0;
  for (let r = 0; r < rounds; r++) {
    api += sim.playouts({ seconds, seed: 1 }).playoutsPerCpuSecond;
    play += playGroundGame(grounding.game, resolvePipelineOptions(), playout, new StageTimer()).playoutsPerCpuSecond;
  }
  const text = textLoop(sim);
  console.log(`${basename(file)}\tapi ${(api / rounds).toFixed(0)}/s\tplay ${(play / rounds).toFixed(0)}/s\tratio ${(api / play).toFixed(3)}\ttext loop ${text.toFixed(0)}/s`);
}
