// Grounding real games: the output parses and validates, holds no static relation, stays
// inside the supersets, has no body atom that nothing derives, and is sorted. The default run
// covers a fixed, varied subset; `GDL_GROUND_FULL=1` runs the whole corpus, each game expected
// to end as test/expectations/corpus.tsv records (ok, invalid or a limit, with its message; a
// game recorded as out of time may also finish), and prints per-stage figures.
import { TEST_INSTANTIATE_LIMITS } from './support/context.js';
import { describe, expect, it } from 'vitest';
import { GdlError, formatDiagnostic } from '../src/gdl/diagnostics.js';
import { parseGdl } from '../src/gdl/parser.js';
import { relationKey, severalArities, stateDependent } from '../src/gdl/relations.js';
import { compareCodePoints, termToString } from '../src/gdl/terms.js';
import { validateGame } from '../src/normalize/validate.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { compareRules } from './support/ground-game.js';
import { Deadline } from '../src/deadline.js';
import { instantiateGame } from '../src/ground/instantiate.js';
import type { GroundGame } from '../src/ground/types.js';
import { atomText } from '../src/ground/atoms.js';
import { auxPrefix, gameSymbols } from '../src/ground/split.js';
import { asRule, type NormalGame } from '../src/normalize/types.js';
import { defaultPipelineOptions, loadGame, reachGame, runGrounding } from '../src/pipeline/stages.js';
import type { Supersets } from '../src/reach/types.js';
import { HAVE_CORPUS, listGames, readGame } from './corpus.js';
import { readExpectations } from './support/expectations.js';
import { StageTimer } from '../src/timer.js';

const FULL = process.env.GDL_GROUND_FULL === '1';
/** Seconds per game in the full run. */
const FULL_TIMEOUT = Number(process.env.GDL_GROUND_TIMEOUT ?? 120);

const SUBSET = [
  'ggp-base-test/3puzzle.kif',
  'ggp-base-test/test_case_5a.kif',
  'ggp-base-test/test_distinct_beginning_rule.kif',
  'ggp-repository-base/2pffa_zerosum.kif',
  'ggp-repository-base/aipsrovers01.kif',
  'ggp-repository-base/asteroidsParallel.kif',
  'ggp-repository-base/biddingTicTacToe.kif',
  'ggp-repository-base/blocksWorldSerial.kif',
  'ggp-repository-base/breakthroughSmall.kif',
  'ggp-repository-base/bunk_t.kif',
  'ggp-repository-base/connectFour.kif',
  'libgdl/hunter.kif',
  'libgdl/tictactoe.kif',
  // Names with several arities, distinct symbols by name and arity.
  'ggp-base-test/test_invalid_function_arities_differ.kif',
  'ggp-base-test/test_invalid_sentence_arities_differ.kif',
];

/** Structural checks of a ground game against its source game and supersets. */
function checkGroundGame(normal: NormalGame, sets: Supersets, g: GroundGame): void {
  const rel = (id: number): string => g.terms.symbolName(g.atoms[id]!.rel);
  const plain = normal.rules.map(asRule);
  const dynamic = stateDependent(plain);
  // Relations are keyed by name, or name/arity for a name used with several arities.
  const several = severalArities(plain);
  const key = (id: number): string => relationKey({ rel: rel(id), args: g.atoms[id]!.args }, several);
  const aux = auxPrefix(gameSymbols(normal));
  const allowedHeads = new Set(['legal', 'next', 'goal', 'terminal', ...[...dynamic].filter((r) => r !== 'init' && r !== 'role')]);
  const fluents = new Set(sets.fluents.map(termToString));
  const moves = new Set(sets.moves.map((m) => `${termToString(m.role)} ${termToString(m.action)}`));
  const heads = new Set(g.rules.map((r) => r.head));
  const text = (id: number): string => g.terms.text(id);
  for (let i = 1; i < g.atoms.length; i++) expect(compareCodePoints(atomText(g, i - 1), atomText(g, i))).toBeLessThan(0);
  for (let i = 1; i < g.rules.length; i++) expect(compareRules(g.rules[i - 1]!, g.rules[i]!)).toBeLessThan(0);
  for (const r of g.rules) {
    const head = g.atoms[r.head]!;
    const headText = atomText(g, r.head);
    // Auxiliary relations of rule splitting and of the frame rewrite (docs/ground.md) are axioms too.
    expect(allowedHeads.has(key(r.head)) || key(r.head).startsWith(`${aux}-`), headText).toBe(true);
    if (rel(r.head) === 'next') expect(fluents.has(text(head.args[0]!)), headText).toBe(true);
    if (rel(r.head) === 'legal') expect(moves.has(`${text(head.args[0]!)} ${text(head.args[1]!)}`), headText).toBe(true);
    for (const id of [...r.pos, ...r.neg]) {
      const a = g.atoms[id]!;
      if (rel(id) === 'true') expect(fluents.has(text(a.args[0]!)), atomText(g, id)).toBe(true);
      else if (rel(id) === 'does') expect(moves.has(`${text(a.args[0]!)} ${text(a.args[1]!)}`), atomText(g, id)).toBe(true);
      else expect(heads.has(id), `${atomText(g, id)} is in a body but no rule derives it`).toBe(true);
    }
  }
  for (const i of g.init) expect(rel(i)).toBe('true');
}

function groundOne(file: string, deadline: number): { normal: NormalGame; sets: Supersets; g: GroundGame; ms: Record<string, number> } {
  const text = readGame(file);
  const options = { ...defaultPipelineOptions(), deadline: new Deadline(deadline) };
  const t0 = performance.now();
  const loaded = loadGame(text, file, options, new StageTimer());
  const t1 = performance.now();
  const reach = reachGame(loaded.normal, options, new StageTimer());
  const t2 = performance.now();
  const g = instantiateGame(loaded.normal, reach.supersets, { ...TEST_INSTANTIATE_LIMITS, deadline: options.deadline });
  const t3 = performance.now();
  return { normal: loaded.normal, sets: reach.supersets, g, ms: { load: t1 - t0, reach: t2 - t1, instantiate: t3 - t2 } };
}

function checkOutput(g: GroundGame): void {
  const parsed = parseGdl(emitGdl(g, undefined, Deadline.never()), 'ground.kif', Deadline.never());
  expect(parsed.diagnostics).toEqual([]);
  expect(validateGame(parsed.game, undefined, undefined, Deadline.never()).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
}

describe.skipIf(!HAVE_CORPUS || FULL)('grounding a varied subset of the corpus', () => {
  for (const file of SUBSET) {
    it(file, () => {
      const { normal, sets, g } = groundOne(file, Infinity);
      expect(g.rules.length).toBeGreaterThan(0);
      checkGroundGame(normal, sets, g);
      checkOutput(g);
    });
  }
});

describe.skipIf(!HAVE_CORPUS || FULL)('both superset methods give the same ground game', () => {
  // The dependency-graph supersets are larger; after the reachability pruning of 9.1.3 the
  // ground games must be identical, byte for byte.
  for (const file of ['ggp-repository-base/ticTacToe.kif', 'ggp-repository-base/blocker.kif', 'ggp-repository-base/coins.kif']) {
    it(file, () => {
      const text = readGame(file);
      const prolog = runGrounding(text, file, defaultPipelineOptions(), new StageTimer()).ground;
      const dg = runGrounding(text, file, { ...defaultPipelineOptions(), method: 'dg' }, new StageTimer()).ground;
      expect(emitGdl(dg, undefined, Deadline.never())).toBe(emitGdl(prolog, undefined, Deadline.never()));
    });
  }
});

describe.skipIf(!HAVE_CORPUS || !FULL)('grounding the whole corpus', () => {
  it('grounds every game with its recorded outcome (test/expectations/corpus.tsv)', () => {
    const expected = readExpectations();
    const rows: string[] = [];
    const failures: string[] = [];
    for (const file of listGames()) {
      const want = expected.get(file);
      let got: { outcome: string; message: string };
      try {
        const { normal, sets, g, ms } = groundOne(file, Date.now() + FULL_TIMEOUT * 1000);
        checkGroundGame(normal, sets, g);
        checkOutput(g);
        const f = (x: number): string => x.toFixed(0);
        rows.push(`${file}\tok\treach ${f(ms.reach!)} ms\tinstantiate ${f(ms.instantiate!)} ms\trules ${g.rules.length}\tatoms ${g.atoms.length}`);
        got = { outcome: 'ok', message: '' };
      } catch (err) {
        if (!(err instanceof GdlError)) {
          failures.push(`${file}: ${(err as Error).message}`);
          continue;
        }
        const message = formatDiagnostic(err.diagnostics.find((d) => d.severity === 'error') ?? err.diagnostics[0]!).slice(file.length + 1);
        rows.push(`${file}\t${err.code}\t${message}`);
        got = err.code === 'limit' && /time limit/.test(message) ? { outcome: 'timeout', message: '' } : { outcome: err.code, message };
      }
      // A game that ran out of time when the expectations were written may finish here.
      const wanted = want === undefined ? 'none' : want.load === 'invalid' ? `invalid ${want.loadMessage}` : `${want.ground} ${want.groundMessage}`;
      const seen = `${got.outcome} ${got.message}`;
      if (seen !== wanted && !(want?.ground === 'timeout' && got.outcome === 'ok')) failures.push(`${file}: expected ${wanted.trim()}, got ${seen.trim()}`);
    }
    process.stdout.write(`${rows.join('\n')}\n`);
    expect(failures).toEqual([]);
  }, 24 * 3600 * 1000); // the whole corpus: hours on a busy machine
});
