// The fuzzer's child process (scripts/fuzz.mjs forks it): runs many mutations through the
// library, as the command line would, and reports each run. The parent restarts it when it
// dies (a V8 heap abort, a signal) and saves the mutation it was running.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mutate } from './fuzz-mutate.mjs';
import { classify, loadLib, runMutant } from './fuzz-run.mjs';

const lib = await loadLib();

const sources = new Map();
function source(gamesDir, game) {
  if (!sources.has(game)) sources.set(game, readFileSync(join(gamesDir, game), 'utf8'));
  return sources.get(game);
}

process.on('message', (job) => {
  if (job.type === 'stop') {
    process.disconnect();
    return;
  }
  const { index, game, seed, gamesDir, limits } = job;
  process.send({ type: 'start', index });
  const { bytes, applied } = mutate(source(gamesDir, game), seed, index);
  const file = `mutant-${seed}-${index}.kif`;
  let runs;
  try {
    runs = runMutant(lib, lib.io.decodeGame(bytes), file, limits);
  } catch (err) {
    runs = [classify(lib, 'fuzz', '-', 0, err, file, limits)];
  }
  process.send({ type: 'done', index, game, applied, bytes: bytes.length, runs });
});
process.send({ type: 'ready' });
