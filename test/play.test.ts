// The fast simulator (src/play/fast/) held against the simulator of `verify` (ground-sim.ts) and
// against the Prolog reasoner on the original game: same legal moves, terminal, goals and
// successors over seeded random playouts; its allocation-free depth charges checked state by
// state; seeds that replay the same playouts; and the shape of `gdl-ground play --json`.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GroundGame } from '../src/ground/types.js';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { createFastSimulator } from '../src/play/fast/simulator.js';
import { type GroundState, createGroundSimulator } from '../src/play/ground-sim.js';
import { fastPlayouts, simulatorPlayouts } from '../src/play/playouts.js';
import { createRandom } from '../src/play/random.js';
import { createReasoner } from '../src/play/reasoner.js';
import { verifyGame } from '../src/play/verify.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { CLI, ROOT, ensureBuilt } from './support/cli.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

/** Games with recursion over the state, simultaneous moves, many rules per does atom, 1-4 roles. */
const CORPUS_GAMES = [
  'ggp-repository-base/ticTacToe.kif',
  'ggp-repository-base/connectFour.kif',
  'ggp-repository-base/connectFourSimultaneous.kif',
  'ggp-repository-base/chomp.kif',
  'ggp-repository-base/hanoi.kif',
  'ggp-repository-base/lightsOut.kif',
  'ggp-repository-base/beatMania.kif',
  'ggp-repository-base/pancakes6.kif',
  'ggp-repository-base/asteroidsSerial.kif',
  'ggp-repository-base/3pffa.kif',
  'ggp-repository-base/atariGoVariant_7x7.kif',
  'ggp-repository-base/factoringMutuallyAssuredDestruction.kif',
  'ggp-repository-base/cubicup_3player.kif',
  'ggp-repository-base/futoshiki4.kif',
];

const EXAMPLE = join(EXAMPLES_DIR, 'fast-sim.kif');

function ground(text: string, file: string): ReturnType<typeof runGrounding> {
  return runGrounding(text, file, defaultPipelineOptions(), new StageTimer());
}

/** Whether some joint move leads from `from` to `to` in the ground simulator of `verify`. */
function someMoveLeads(game: GroundGame, from: GroundState, to: GroundState): boolean {
  const sim = createGroundSimulator(game, Deadline.never());
  const target = sim.text.state(to).join('\n');
  let joint: number[][] = [[]];
  for (const moves of sim.info(from).legal) joint = joint.flatMap((j) => moves.map((m) => [...j, m]));
  return joint.some((j) => sim.text.state(sim.successor(from, j)).join('\n') === target);
}

/** Plays depth charges and checks each visited state against the simulator of `verify`. */
function checkDepthCharges(game: GroundGame, charges: number, seed: number): void {
  const fast = createFastSimulator(game, Deadline.never());
  const slow = createGroundSimulator(game, Deadline.never());
  const random = createRandom(seed);
  for (let c = 0; c < charges; c++) {
    const states: GroundState[] = [];
    const depth = fast.depthCharge(random, 300, (s) => states.push(s.slice()));
    expect(states.length).toBe(depth + 1);
    expect(slow.text.state(states[0]!)).toEqual(slow.text.state(slow.initialState()));
    for (let i = 0; i + 1 < states.length; i++) expect(someMoveLeads(game, states[i]!, states[i + 1]!)).toBe(true);
    const last = slow.info(states[states.length - 1]!);
    if (depth < 300) expect(last.terminal || last.legal.some((m) => m.length === 0)).toBe(true);
  }
}

describe('fast simulator on the example game', () => {
  const text = readFileSync(EXAMPLE, 'utf8');
  const { loaded, ground: game } = ground(text, EXAMPLE);

  it('agrees with the simulator of verify and with the reasoner', () => {
    const fast = createFastSimulator(game, Deadline.never());
    expect(verifyGame(createGroundSimulator(game, Deadline.never()), fast, { playouts: 30, seed: 5, maxSteps: 50 }).kind).toBe('same');
    expect(verifyGame(createReasoner(loaded.normal, { deadline: Deadline.never() }), createFastSimulator(game, Deadline.never()), { playouts: 5, seed: 2, maxSteps: 50 }).kind).toBe('same');
  });

  it('plays depth charges through legal successors to the end', () => {
    checkDepthCharges(game, 20, 9);
  });

  it('stops making the simulator of verify with a limit error once its deadline has passed', () => {
    // Compiling a large game's rules takes seconds (gt_attrition: about 8), which a mutex
    // stage's sampling budget or a run's own limit can pass: the compilation looks at the clock.
    const passed = new Deadline(0);
    expect(() => createGroundSimulator(game, passed)).toThrow(/compiling the ground game: time limit reached/);
    expect(() => createGroundSimulator(game, Deadline.never())).not.toThrow();
  });

  it('replays the same playouts from the same seed', () => {
    const options = { seconds: 1e6, seed: 42, maxSteps: 1000, maxPlayouts: 200 };
    const a = fastPlayouts(createFastSimulator(game, Deadline.never()), options);
    const b = fastPlayouts(createFastSimulator(game, Deadline.never()), options);
    expect(a.playouts).toBe(200);
    expect(b.depthSum).toBe(a.depthSum);
    const record = (seed: number): string => {
      const sim = createFastSimulator(game, Deadline.never());
      const random = createRandom(seed);
      const seen: string[] = [];
      for (let i = 0; i < 20; i++) sim.depthCharge(random, 100, (s) => seen.push(sim.text.state(s).join(' ')));
      return seen.join('|');
    };
    expect(record(7)).toBe(record(7));
    expect(record(7)).not.toBe(record(8));
  });
});

describe.skipIf(!HAVE_CORPUS)('fast simulator on corpus games', () => {
  for (const rel of CORPUS_GAMES) {
    it(`${rel}: same as the simulator of verify, depth charges legal`, () => {
      const { ground: game } = ground(readGame(rel), rel);
      const result = verifyGame(createGroundSimulator(game, Deadline.never()), createFastSimulator(game, Deadline.never()), { playouts: 10, seed: 3, maxSteps: 200 });
      if (result.kind !== 'same') expect(result.difference).toBeUndefined();
      checkDepthCharges(game, 3, 11);
    });
  }

  for (const rel of ['ggp-repository-base/ticTacToe.kif', 'ggp-repository-base/chomp.kif']) {
    it(`${rel}: same as the reasoner on the original game`, () => {
      const { loaded, ground: game } = ground(readGame(rel), rel);
      const result = verifyGame(createReasoner(loaded.normal, { deadline: Deadline.never() }), createFastSimulator(game, Deadline.never()), { playouts: 3, seed: 4, maxSteps: 100 });
      if (result.kind !== 'same') expect(result.difference).toBeUndefined();
    });
  }

  it('the reasoner replays the same playouts from the same seed', () => {
    const rel = 'ggp-repository-base/ticTacToe.kif';
    const { loaded } = ground(readGame(rel), rel);
    const options = { seconds: 1e6, seed: 3, maxSteps: 100, maxPlayouts: 3 };
    const a = simulatorPlayouts(createReasoner(loaded.normal, { deadline: Deadline.never() }), options);
    const b = simulatorPlayouts(createReasoner(loaded.normal, { deadline: Deadline.never() }), options);
    expect(a.playouts).toBe(3);
    expect(b.depthSum).toBe(a.depthSum);
    expect(b.states).toBe(a.states);
  });
});

describe('gdl-ground play', () => {
  beforeAll(() => ensureBuilt());
  const run = (args: readonly string[]): { code: number | null; stdout: string; stderr: string } => {
    const r = spawnSync(process.execPath, [CLI, 'play', ...args], { cwd: ROOT, encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('--json has the documented shape, both engines and the factor', () => {
    const r = run([EXAMPLE, '--seconds', '0.3', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(['engines', 'factor', 'game', 'seconds']);
    expect(json.game).toBe(EXAMPLE);
    expect(json.seconds).toBe(0.3);
    const engines = json.engines as Record<string, Record<string, number>>;
    expect(Object.keys(engines).sort()).toEqual(['ground', 'prolog']);
    for (const e of Object.values(engines)) {
      for (const key of ['playoutsPerSecond', 'statesPerSecond', 'averageDepth']) expect(typeof e[key]).toBe('number');
      // Every playout of the example game lasts six joint moves.
      if (e.playouts! > 0) expect(e.averageDepth).toBe(6);
    }
    expect(typeof engines.ground!.groundingSeconds).toBe('number');
    expect(json.factor).toBeCloseTo(engines.ground!.statesPerSecond! / engines.prolog!.statesPerSecond!, 6);
  });

  it('an engine not run is absent, and the factor null', () => {
    const r = run([EXAMPLE, '--seconds', '0.2', '--engine', 'ground', '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { engines: Record<string, unknown>; factor: unknown };
    expect(Object.keys(json.engines)).toEqual(['ground']);
    expect(json.factor).toBeNull();
  });

  it('text output names each engine; bad options are usage errors', () => {
    const r = run([EXAMPLE, '--seconds', '0.2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/ground: .* playouts\/s, .* states\/s, average depth 6\.00/);
    expect(r.stdout).toMatch(/prolog: /);
    expect(r.stdout).toMatch(/factor/);
    expect(run([EXAMPLE, '--engine', 'propnet']).code).toBe(2);
    expect(run([EXAMPLE, '--seconds', '0']).code).toBe(2);
    expect(run([EXAMPLE, '--seed', '-1']).code).toBe(2);
  });
});
