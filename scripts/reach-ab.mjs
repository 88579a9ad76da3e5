#!/usr/bin/env node
/**
 * Processor time of the superset stage of two builds in one process, alternating, for A/B
 * comparisons on a loaded machine (docs/corpus.md, racer28): separate processes, as
 * scripts/reach-cpu.mjs runs them, differ by more than a 5% change from run to run at a load
 * of 15; in one process both builds share the machine's state of the moment, and their code is
 * warm after the first round. Prints one line: the game, then each build's CPU seconds per
 * round (user + system, `reachForGrounding` as `ground` runs it) with its answer count.
 *
 *   node --expose-gc scripts/reach-ab.mjs DIST_A DIST_B GAME [ROUNDS=4]
 *
 * DIST_A and DIST_B are builds' dist/ folders (absolute). The first round of each is cold
 * (compilation); compare the later ones, and run again with the builds swapped.
 */
import { readFileSync } from 'node:fs';

const [a, b, file, roundsArg] = process.argv.slice(2);
if (a === undefined || b === undefined || file === undefined) {
  process.stderr.write('usage: node --expose-gc scripts/reach-ab.mjs DIST_A DIST_B GAME [ROUNDS]\n');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 4);
(await import(`${a}/runtime.js`)).tuneProcess();
const builds = [];
for (const dist of [a, b]) {
  builds.push({ P: await import(`${dist}/pipeline/stages.js`), StageTimer: (await import(`${dist}/timer.js`)).StageTimer });
}
const times = [[], []];
for (let i = 0; i < rounds; i++) {
  builds.forEach(({ P, StageTimer }, k) => {
    const options = P.resolvePipelineOptions({ timeoutSeconds: 300 });
    const game = P.loadGame(readFileSync(file, 'utf8'), file, options, new StageTimer()).normal;
    // Each round starts from a collected heap: the other build's garbage is not charged to it.
    globalThis.gc?.();
    const before = process.cpuUsage();
    const r = P.reachForGrounding(game, options, new StageTimer());
    const used = process.cpuUsage(before);
    times[k].push(`${((used.user + used.system) / 1e6).toFixed(3)}/${r.stats.answers}`);
  });
}
console.log(`${file.split('/').pop()} A ${times[0].join(' ')} | B ${times[1].join(' ')}`);
