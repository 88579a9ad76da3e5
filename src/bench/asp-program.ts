/**
 * `node dist/bench/asp-program.js GAME OUT TIMEOUT`: writes the ASP program of `groundingProgram`
 * (bench/asp.ts) for GAME to OUT, its `true`/`does` over the supersets of `gdl-ground reach`.
 * A process of its own per game (src/bench/scale.ts): the supersets of the largest games take
 * gigabytes, which the benchmark's own process must not keep between games.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadGame, reachGame, resolvePipelineOptions } from '../pipeline/stages.js';
import { StageTimer } from '../timer.js';
import { groundingProgram } from './asp.js';

const [file, out, timeout] = process.argv.slice(2);
const options = resolvePipelineOptions({ timeoutSeconds: Number(timeout) });
const loaded = loadGame(readFileSync(file!, 'utf8'), file!, options, new StageTimer());
const { supersets } = reachGame(loaded.normal, options, new StageTimer());
writeFileSync(out!, groundingProgram(loaded.normal, supersets.fluents, supersets.moves));
