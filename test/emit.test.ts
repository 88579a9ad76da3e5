// GDL and JSON output of ground games: re-parseable and valid GDL, deterministic bytes,
// `base`/`input` declarations, and a JSON whose ids are consistent.
import { describe, expect, it } from 'vitest';
import { parseGdl } from '../src/gdl/parser.js';
import { validateGame } from '../src/normalize/validate.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { JSON_FORMAT, emitJson } from '../src/formats/json/write.js';
import type { GroundGame } from '../src/ground/types.js';
import { defaultPipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { HAVE_CORPUS, readGame } from './corpus.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

const SMALL = `
(role x) (role o)
(init (cell 1 b)) (init (cell 2 b)) (init (control x))
(<= (legal ?r (mark ?c)) (true (control ?r)) (true (cell ?c b)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (cell ?c ?r)) (does ?r (mark ?c)))
(<= (next (cell ?c b)) (true (cell ?c b)) (does ?r (mark ?d)) (distinct ?c ?d))
(<= (next (control o)) (true (control x)))
(<= (next (control x)) (true (control o)))
(<= filled (true (cell 1 ?a)) (true (cell 2 ?b)) (distinct ?a b) (distinct ?b b))
(<= terminal filled)
(<= (goal ?r 50) (role ?r))
`;

function groundOf(text: string, file = 'small.kif'): GroundGame {
  return runGrounding(text, file, defaultPipelineOptions(), new StageTimer()).ground;
}

function expectValidGdl(out: string): void {
  const parsed = parseGdl(out, 'out.kif', Deadline.never());
  expect(parsed.diagnostics).toEqual([]);
  const errors = validateGame(parsed.game, undefined, undefined, Deadline.never()).diagnostics.filter((d) => d.severity === 'error');
  expect(errors).toEqual([]);
}

describe('emitGdl', () => {
  it('writes roles, declarations, init and sorted ground rules that parse and validate', () => {
    const g = groundOf(SMALL);
    const out = emitGdl(g, undefined, Deadline.never());
    expectValidGdl(out);
    const lines = out.trimEnd().split('\n');
    expect(lines.slice(1, 3)).toEqual(['(role x)', '(role o)']);
    expect(lines).toContain('(base (cell 1 x))');
    expect(lines).toContain('(input o (mark 2))');
    expect(lines.filter((l) => l.startsWith('(init '))).toEqual(['(init (cell 1 b))', '(init (cell 2 b))', '(init (control x))']);
    expect(lines).toContain('(<= (legal o noop) (not (true (control o))))');
    expect(lines).toContain('(<= (next (cell 1 b)) (does o (mark 2)) (true (cell 1 b)))');
    expect(lines).toContain('(goal x 50)');
    expect(out).not.toContain('?');
    // Emitting the same game twice, or grounding it again, gives the same bytes.
    expect(emitGdl(groundOf(SMALL), undefined, Deadline.never())).toBe(out);
  });

  it('leaves out base and input when asked, without changing the rules', () => {
    const g = groundOf(SMALL);
    const without = emitGdl(g, { baseInput: false }, Deadline.never());
    expect(without).not.toMatch(/^\((base|input) /m);
    const strip = (s: string): string => s.split('\n').filter((l) => !/^\((base|input) /.test(l)).join('\n');
    expect(without).toBe(strip(emitGdl(g, undefined, Deadline.never())));
  });

  it.skipIf(!HAVE_CORPUS)('re-grounding the ground output of tic-tac-toe gives the same rules', () => {
    const file = 'ggp-repository-base/ticTacToe.kif';
    const out = emitGdl(groundOf(readGame(file), file), undefined, Deadline.never());
    expectValidGdl(out);
    // A ground game is its own instantiation: grounding the output again changes nothing.
    expect(emitGdl(groundOf(out, 'ground.kif'), undefined, Deadline.never())).toBe(out);
  });
});

describe('emitJson', () => {
  it('lists atoms once and refers to them by consistent integer ids', () => {
    const g = groundOf(SMALL);
    const data = JSON.parse(emitJson(g, Deadline.never())) as {
      format: string; roles: string[]; atoms: string[]; init: number[]; terminal: number | null;
      fluents: { term: string; true: number | null; next: number | null }[];
      moves: { role: string; action: string; does: number | null; legal: number | null }[];
      goals: { role: string; value: number; atom: number }[];
      rules: [number, number[], number[]][];
    };
    expect(data.format).toBe(JSON_FORMAT);
    expect(data.roles).toEqual(['x', 'o']);
    expect(data.atoms).toEqual(g.atoms.map((a) => g.terms.text(a.term)));
    expect(data.rules.length).toBe(g.rules.length);
    for (const [h, pos, neg] of data.rules) for (const id of [h, ...pos, ...neg]) expect(data.atoms[id]).toBeDefined();
    expect(data.init.map((i) => data.atoms[i])).toEqual(['(true (cell 1 b))', '(true (cell 2 b))', '(true (control x))']);
    expect(data.atoms[data.terminal!]).toBe('terminal');
    const f = data.fluents.find((x) => x.term === '(control o)')!;
    expect(data.atoms[f.true!]).toBe('(true (control o))');
    expect(data.atoms[f.next!]).toBe('(next (control o))');
    const m = data.moves.find((x) => x.role === 'x' && x.action === '(mark 1)')!;
    expect(data.atoms[m.does!]).toBe('(does x (mark 1))');
    expect(data.atoms[m.legal!]).toBe('(legal x (mark 1))');
    expect(data.goals).toEqual([
      { role: 'o', value: 50, atom: data.atoms.indexOf('(goal o 50)') },
      { role: 'x', value: 50, atom: data.atoms.indexOf('(goal x 50)') },
    ]);
    expect(emitJson(groundOf(SMALL), Deadline.never())).toBe(emitJson(g, Deadline.never()));
  });
});
