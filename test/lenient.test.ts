// Lenient acceptances (docs/validation.md): each construct beyond strict GDL that the project
// reads is a warning at its position, never silent; several arities of one name are distinct
// symbols through every stage (both superset methods, instantiation, the reasoner, the output
// read back); a file with a syntax error also reports the meaning of the sentences it read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../src/gdl/diagnostics.js';
import { defaultPipelineOptions, type ReachMethod, emitGround, loadGame, loadGroundFile, runGrounding } from '../src/pipeline/stages.js';
import { verifyAgainst, verifyGrounding } from '../src/pipeline/stages-play.js';
import { GdlError } from '../src/gdl/diagnostics.js';
import { EXAMPLES_DIR, HAVE_CORPUS, readGame } from './corpus.js';
import { ROOT } from './support/cli.js';
import { StageTimer } from '../src/timer.js';

const LENIENT = join(ROOT, 'test/fixtures/lenient');

/** Each lenient fixture and the warnings it must give (line:col, start of the message). */
const WARNINGS: Record<string, string[]> = {
  'relation-arity.kif': ["5:1: warning: relation 'adj' is used with 3 arguments here but with 2 arguments at 4:1; read as distinct relations adj/2 and adj/3"],
  'function-arity.kif': ["5:11: warning: function 'cell' is used with 2 arguments here but with 1 argument at 3:7; read as distinct functions cell/1 and cell/2"],
  'not-distinct-binds.kif': ['4:1: warning: variable ?x is bound only by the equality (not (distinct ?x 2))'],
  'unsafe-head.kif': ["5:1: warning: unsafe rule for 'next': variable ?y of the head is bound by no positive literal; repaired by binding it over the 1 value the dependency graph gives its position (argument 1 of function cell/1; relation 'domain_1')"],
  'unsafe-or.kif': ["5:1: warning: unsafe rule for 'next': variable ?x of the head is bound by no positive literal; repaired by binding it over the 1 value"],
  'unsafe-distinct.kif': ["5:1: warning: unsafe rule for 'next': variable ?y of the head is bound by no positive literal; repaired by binding it over the 1 value"],
  'unsafe-negation.kif': ["5:1: warning: unsafe rule for 'next': variable ?x of (not (true (cell ?x))) is bound by no positive literal; repaired by reading it as Prolog-based players do, \"no such ?x at all\": (not some_true) with (<= some_true (true (cell ?x)))"],
  'unsafe-head-callers.kif': ["11:1: warning: unsafe rule for 'placeable': variable ?c of the head is bound by no positive literal; repaired by binding it over the 2 values its calls can ask for (0 values the dependency graph gives its position, 2 more passed by callers) (argument 2 of relation placeable/2; relation 'domain_1')"],
  'compound-connectives.kif': ["5:1: warning: 'and' in a rule body is not strict GDL", "5:1: warning: 'not' of a compound formula is not strict GDL"],
};

function warningsOf(text: string, file: string): string[] {
  return loadGame(text, file, defaultPipelineOptions(), new StageTimer()).warnings.map((d) => formatDiagnostic(d).slice(file.length + 1));
}

/** Grounds with `method`, plays the ground game against the original, and the emitted text read back against the original. */
function expectPlaysIdentically(text: string, file: string, method: ReachMethod): void {
  const options = { ...defaultPipelineOptions(), method };
  const { loaded, ground } = runGrounding(text, file, options, new StageTimer());
  const verify = { playouts: 10, seed: 3, maxSteps: 50 };
  const direct = verifyGrounding(loaded.normal, ground, options, verify);
  expect(direct.kind, JSON.stringify(direct)).toBe('same');
  const reread = loadGroundFile(emitGround(ground, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions()), `${file}.ground`, options, new StageTimer());
  const back = verifyAgainst(loaded.normal, reread.normal, options, verify);
  expect(back.kind, JSON.stringify(back)).toBe('same');
}

describe('lenient acceptances are positioned warnings', () => {
  for (const [name, expected] of Object.entries(WARNINGS)) {
    it(`accepts ${name} with its warnings, and grounds it to a game that plays identically`, () => {
      const text = readFileSync(join(LENIENT, name), 'utf8');
      const lines = warningsOf(text, name);
      expect(lines.length).toBe(expected.length);
      expected.forEach((e, i) => expect(lines[i]).toContain(e));
      for (const method of ['prolog', 'dg'] as const) expectPlaysIdentically(text, name, method);
    });
  }
});

describe('repair 4 keeps the game: unsafe head arguments range over what their calls ask for', () => {
  it('keeps white\'s three opening moves in unsafe-head-callers.kif (binding over the graph\'s empty domain deleted them)', () => {
    const text = readFileSync(join(LENIENT, 'unsafe-head-callers.kif'), 'utf8');
    const { ground } = runGrounding(text, 'unsafe-head-callers.kif', defaultPipelineOptions(), new StageTimer());
    const out = emitGround(ground, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions());
    for (const x of [1, 2, 3]) expect(out).toContain(`(legal white (place ${x}))`);
    expect(out).toContain('(legal black (place 1))');
  });

  it('follows a caller whose own argument is an unsafe head variable (demand passes through)', () => {
    const text = [
      '(role r) (init (cell 1 blank)) (init (turn r))',
      '(<= (free ?x ?c) (true (cell ?x blank)))',
      '(<= (canput ?x ?c) (free ?x ?c) (true (cell ?x blank)))',
      '(<= (wants ?x ?c) (true (cell ?x blank)) (canput ?x ?c))',
      '(<= (legal ?r (put ?x)) (true (turn ?r)) (true (cell ?x blank)) (canput ?x ?r))',
      '(<= (next (cell ?x ?r)) (does ?r (put ?x)))',
      '(<= terminal (true (cell 1 r)))',
      '(goal r 100)',
    ].join('\n');
    const loaded = loadGame(text, 'through.kif', defaultPipelineOptions(), new StageTimer());
    expect(loaded.warnings.map((d) => d.message).join('\n')).toContain("unsafe rule for 'free'");
    const { ground } = runGrounding(text, 'through.kif', defaultPipelineOptions(), new StageTimer());
    expect(emitGround(ground, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions())).toContain('(legal r (put 1))');
  });

  it('refuses, with its position, a rule that no call passes a value to and no rule fills', () => {
    const text = [
      '(role r) (init (cell 1 blank))',
      '(<= (free ?x ?c) (true (cell ?x blank)))',
      '(<= any (free ?x ?c))',
      '(<= (legal r go) any)',
      '(<= (next (cell 1 done)) (does r go))',
      '(<= terminal (true (cell 1 done)))',
      '(goal r 100)',
    ].join('\n');
    let error: unknown;
    try {
      runGrounding(text, 'free-call.kif', defaultPipelineOptions(), new StageTimer());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GdlError);
    const lines = (error as GdlError).diagnostics.map((d) => formatDiagnostic(d));
    expect(lines.join('\n')).toContain("free-call.kif:2:1: error: unsafe rule for 'free': variable ?c of the head is bound by no positive literal, no call of 'free' passes a value");
  });
});

describe('several arities of one name are distinct symbols', () => {
  const text = readFileSync(join(EXAMPLES_DIR, 'arities.kif'), 'utf8');

  it('warns once per further arity and classifies near/2, near/3, path/2 and path/1 apart', () => {
    expect(warningsOf(text, 'arities.kif').filter((l) => l.includes('distinct relations') || l.includes('distinct functions'))).toEqual([
      "17:5: warning: relation 'near' is used with 3 arguments here but with 2 arguments at 15:1; read as distinct relations near/2 and near/3",
      "17:11: warning: function 'cell' is used with 2 arguments here but with 3 arguments at 6:7; read as distinct functions cell/3 and cell/2",
      "20:18: warning: function 'mark' is used with 1 argument here but with 2 arguments at 19:18; read as distinct functions mark/2 and mark/1",
      "27:5: warning: relation 'path' is used with 1 argument here but with 2 arguments at 25:5; read as distinct relations path/2 and path/1",
    ]);
  });

  it('grounds with both methods to the same game, writing the original names, and plays identically', () => {
    const a = runGrounding(text, 'arities.kif', { ...defaultPipelineOptions(), method: 'prolog' }, new StageTimer());
    const b = runGrounding(text, 'arities.kif', { ...defaultPipelineOptions(), method: 'dg' }, new StageTimer());
    const out = emitGround(a.ground, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions());
    expect(emitGround(b.ground, 'gdl', { baseInput: true }, new StageTimer(), defaultPipelineOptions())).toBe(out);
    // near/3 is state-dependent and stays as rules; near/2 and path/2 are static and evaluated away.
    expect(out).toContain('(<= (near (cell 1 1) x 2) (true (cell 1 1 x)))');
    expect(out).toContain('(<= (path (cell 2 1)) (true (cell 2 1 x)))');
    expect(out).toContain('(<= (legal robot (mark (cell 1 1))) (near (cell 1 1) x 2))');
    expect(out).not.toMatch(/near\/|path\//);
    for (const method of ['prolog', 'dg'] as const) expectPlaysIdentically(text, 'arities.kif', method);
  });

  it('keeps a keyword with a wrong arity an error', () => {
    expect(() => loadGame('(role r)\n(legal r a b)\n(goal r 100)\n(<= terminal (true p))', 'k.kif', defaultPipelineOptions(), new StageTimer())).toThrow(/'legal' takes 2 arguments, not 3/);
  });
});

describe('white space beyond ASCII', () => {
  it('reads a non-breaking space as a space, with one warning at the first, and a leading byte-order mark silently', () => {
    const frame = '(role r)\n(init p)\n(legal r a)\n(<= terminal (true p))\n(goal r 100)';
    expect(warningsOf(`\ufeff${frame}\n(<= (next\u00a0p) (true p))\n(<= (next\u00a0q) (true p))`, 'w.kif')).toEqual([
      '6:10: warning: non-breaking space read as a space (KIF white space is ASCII)',
    ]);
    expect(warningsOf(`\ufeff${frame}`, 'w.kif')).toEqual([]);
  });
});

describe('syntax and meaning together', () => {
  function errorsOf(text: string): string[] {
    try {
      loadGame(text, 's.kif', defaultPipelineOptions(), new StageTimer());
    } catch (err) {
      if (err instanceof GdlError) return err.diagnostics.map((d) => formatDiagnostic(d).slice('s.kif'.length + 1));
      throw err;
    }
    return [];
  }

  it('recovers at the next sentence in column 1 and reports the unsafe rule after it, sorted', () => {
    const text = '(role r)\n(<= (legal r (go ?y))\n    (true (cell ?y))\n(<= (next (cell ?y)) (does r (go ?y)) (not (true (cell ?z))) (distinct ?z 1))\n(goal r 100)\n(<= terminal (true p))';
    expect(errorsOf(text)).toEqual([
      "2:1: error: unbalanced '(': not closed before the next sentence at 4:1",
      "4:1: error: unsafe rule for 'next': variable ?z of (distinct ?z 1) is bound by no positive literal",
      "4:1: error: unsafe rule for 'next': variable ?z of (not (true (cell ?z))) is bound by no positive literal",
    ]);
  });

  it('checks the sentences before a stray parenthesis and leaves out the checks that need the whole file', () => {
    const text = '(role r)\n(<= (next p) (does r a) (true q)))\n(<= (legal r a) (true (c ?x)) (does r ?m))';
    // No "no goals"/"no end": the sentences a syntax error lost might hold them.
    expect(errorsOf(text)).toEqual([
      "2:34: error: unbalanced ')': no '(' is open here",
      "3:1: error: 'legal' must not depend on 'does' (the moves of the current step), but it does: does -> legal",
    ]);
  });

  it('drops a sentence holding a bad character instead of guessing its meaning', () => {
    const text = '(role r)\n(<= (next (c ?x)) (true\u0001 p))\n(goal r 100)';
    expect(errorsOf(text)).toEqual(['2:24: error: unexpected character U+0001']);
  });
});

describe.skipIf(!HAVE_CORPUS)('corpus games refused for several arities before', () => {
  for (const game of ['ggp-base-test/test_invalid_function_arities_differ.kif', 'ggp-base-test/test_invalid_sentence_arities_differ.kif']) {
    it(`grounds ${game} and plays it identically`, () => {
      for (const method of ['prolog', 'dg'] as const) expectPlaysIdentically(readGame(game), game, method);
    });
  }
});
