// The writer of games without axioms in bytes (src/formats/gdl/formula.ts, issue 27): the same
// text, byte for byte, as the writer it replaced, kept here as the reference (a string per
// subformula, the lines joined): formulas with and, or, not, shared subformulas, the constants
// true and false, facts, base and input lines or none, UTF-8 names; and chunks that decode alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitFormulaGdlBytes } from '../src/formats/gdl/formula.js';
import { decodeChunks } from '../src/formats/gdl/bytes.js';
import type { GdlEmitOptions } from '../src/formats/gdl/write.js';
import { type Formula, FormulaTable, postOrder } from '../src/axioms/formula.js';
import type { FormulaGame } from '../src/axioms/types.js';
import { removeAxioms } from '../src/axioms/remove.js';
import { atomTerm } from '../src/ground/compact.js';
import { atomText } from '../src/ground/atoms.js';
import { defaultPipelineOptions, removeUnusedInstances, runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

const GAMES = join(__dirname, '..', 'games');

/** The writer before bytes (kept as the reference). */
function referenceText(game: FormulaGame, options: GdlEmitOptions): string {
  const text = (t: number): string => game.terms.text(t);
  const lines = ['; ground game without axioms, written by gdl-grounder'];
  for (const role of game.roles) lines.push(`(role ${text(role)})`);
  if (options.baseInput) {
    for (const f of game.vocabulary.fluents) lines.push(`(base ${text(f.term)})`);
    for (const m of game.vocabulary.moves) lines.push(`(input ${text(m.role)} ${text(m.action)})`);
  }
  for (const id of game.init) lines.push(`(init ${text(game.terms.arg(atomTerm(game, id), 0))})`);
  for (const r of game.rules) {
    const head = atomText(game, r.head);
    if (r.body.length === 0) {
      lines.push(head);
      continue;
    }
    const t = new Map<number, string>();
    postOrder(r.body, (f: Formula) => {
      let s: string;
      if (f.kind === 'atom') s = atomText(game, f.atom);
      else if (f.kind === 'true') s = '(distinct 0 1)';
      else if (f.kind === 'false') s = '(not (distinct 0 1))';
      else if (f.kind === 'not') s = `(not ${t.get(f.arg.id)!})`;
      else s = `(${f.kind} ${f.args.map((a) => t.get(a.id)!).join(' ')})`;
      t.set(f.id, s);
    });
    lines.push(`(<= ${head} ${r.body.map((f) => t.get(f.id)!).join(' ')})`);
  }
  return `${lines.join('\n')}\n`;
}

function withoutAxioms(text: string, file: string, maxFormula = 2000): FormulaGame {
  const options = defaultPipelineOptions();
  const g = runGrounding(text, file, options, new StageTimer()).ground;
  return removeAxioms(removeUnusedInstances(g, new StageTimer(), options).game, { maxFormula }, Deadline.never()).game;
}

const example = (file: string, maxFormula?: number): FormulaGame => withoutAxioms(readFileSync(join(GAMES, file), 'utf8'), file, maxFormula);

/**
 * Tic-tac-toe without axioms and two rules more, made by hand: axiom removal keeps constants only
 * at the top of a body, which a TRUE body makes a fact and a FALSE one drops, so no game gives
 * them; other formula games may (the unrolled game of RDDL). A shared subformula too.
 */
function withConstants(): FormulaGame {
  const g = example('tictactoe.kif');
  const t = new FormulaTable();
  const [a, b, c, d] = [t.atom(0), t.atom(1), t.atom(2), t.atom(3)];
  const shared = t.or([b, c]);
  const rules = [...g.rules, { head: 4, body: [t.TRUE, a] }, { head: 5, body: [t.FALSE, t.and([a, shared]), t.or([shared, t.not(d)])] }];
  return { ...g, rules };
}

describe('emitFormulaGdlBytes', () => {
  it('writes what the writer of strings wrote, with and without base and input', () => {
    const cases: [string, FormulaGame][] = [
      ['tictactoe', example('tictactoe.kif')],
      ['tictactoe, axioms kept', example('tictactoe.kif', 12)],
      ['utf8-names', example('utf8-names.kif')],
      ['buttons', example('buttons.kif')],
      ['constants and shared subformulas', withConstants()],
    ];
    for (const [name, g] of cases) {
      for (const baseInput of [true, false]) expect(decodeChunks(emitFormulaGdlBytes(g, { baseInput }, Deadline.never())), name).toBe(referenceText(g, { baseInput }));
    }
    const all = cases.map(([, g]) => decodeChunks(emitFormulaGdlBytes(g, { baseInput: true }, Deadline.never()))).join('');
    for (const piece of ['(or ', '(and ', '(not (', '(distinct 0 1)']) expect(all).toContain(piece);
  });

  it('hands out chunks of whole lines: each decodes alone, and together they are the text', () => {
    const g = example('utf8-names.kif');
    const decoder = new TextDecoder('utf-8', { fatal: true });
    // Each chunk is a view of the writer's buffer, valid until the next: decoded at once.
    const parts: string[] = [];
    for (const c of emitFormulaGdlBytes(g, { baseInput: true }, Deadline.never(), 8)) parts.push(decoder.decode(c));
    expect(parts.length).toBeGreaterThan(10);
    expect(parts.every((p) => p.endsWith('\n'))).toBe(true);
    expect(parts.join('')).toBe(referenceText(g, { baseInput: true }));
  });
});
