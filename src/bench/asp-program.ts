/**
 * `node dist/bench/asp-program.js GAME OUT TIMEOUT [RELAXED]`: writes the ASP program of `groundingProgram`
 * (bench/asp.ts) for GAME to OUT, its `true`/`does` over the fluents and moves that `ground`
 * instantiates over (`reachForGrounding`: the Prolog method restricted to what true, does, legal
 * and next depend on; the same fluents and moves as `gdl-ground reach`, without deriving every
 * axiom, which on gt_two_thirds_6p took minutes and never let the program be written).
 * With RELAXED, also the relaxed game's program (`relaxedProgram`), whose least model gringo
 * computes for the benchmark as the superset stage: gringo must not get for free the supersets we
 * pay for. A process of its own per game (src/bench/scale.ts): the supersets of the largest games take
 * gigabytes, which the benchmark's own process must not keep between games.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadGame, reachForGrounding, resolvePipelineOptions } from '../pipeline/stages.js';
import { StageTimer } from '../timer.js';
import { groundingProgram, relaxedProgram } from './asp.js';

const [file, out, timeout, relaxed] = process.argv.slice(2);

/** Writes the program(s); a game whose supersets cannot be computed is a message, not a stack trace. */
function writePrograms(): void {
  const options = resolvePipelineOptions({ timeoutSeconds: Number(timeout) });
  const loaded = loadGame(readFileSync(file!, 'utf8'), file!, options, new StageTimer());
  const { supersets } = reachForGrounding(loaded.normal, options, new StageTimer());
  writeFileSync(out!, groundingProgram(loaded.normal, supersets.fluents, supersets.moves));
  if (relaxed !== undefined) writeFileSync(relaxed, relaxedProgram(loaded.normal));
}

try {
  writePrograms();
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
