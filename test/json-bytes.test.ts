// The JSON writer in bytes (src/formats/json/write.ts, issue 27): the same text, byte for byte,
// as the writer it replaced, which is kept here as the reference (JSON.stringify per item over
// the rule and atom objects): plain games, GDL-II percepts, a lazy part, UTF-8 names, and names
// that JSON escapes (a quote, a backslash); and its chunks, however small, decode one by one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitJson, emitJsonBytes, JSON_FORMAT } from '../src/formats/json/write.js';
import { lazyJson } from '../src/formats/gdl/lazy.js';
import { SEES } from '../src/gdl/keywords.js';
import type { GroundGame } from '../src/ground/types.js';
import { type PipelineOptions, defaultPipelineOptions, removeUnusedInstances, resolvePipelineOptions, runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { Deadline } from '../src/deadline.js';

const GAMES = join(__dirname, '..', 'games');

/** The JSON writer before bytes (kept as the reference). */
function referenceJson(game: GroundGame): string {
  const text = (t: number): string => game.terms.text(t);
  const id = (n: number): number | null => (n < 0 ? null : n);
  const goalValue = (s: string): number | string => (/^(0|[1-9][0-9]{0,8})$/.test(s) ? Number(s) : s);
  const block = (name: string, items: readonly unknown[], last = false): string => {
    const body = items.map((x) => `    ${JSON.stringify(x)}`).join(',\n');
    return `  ${JSON.stringify(name)}: [${items.length === 0 ? '' : `\n${body}\n  `}]${last ? '' : ','}`;
  };
  const sees = game.terms.findSymbol(SEES);
  const seen: { role: string; percept: string; atom: number }[] = [];
  game.atoms.forEach((a, i) => {
    if (a.rel === sees && a.args.length === 2) seen.push({ role: text(a.args[0]!), percept: text(a.args[1]!), atom: i });
  });
  const v = game.vocabulary;
  const parts = [
    '{',
    `  "format": ${JSON.stringify(JSON_FORMAT)},`,
    `  "roles": ${JSON.stringify(game.roles.map(text))},`,
    block('atoms', game.atoms.map((a) => text(a.term))),
    `  "init": ${JSON.stringify(game.init)},`,
    `  "terminal": ${JSON.stringify(id(v.terminal))},`,
    block('fluents', v.fluents.map((f) => ({ term: text(f.term), true: id(f.trueId), next: id(f.nextId) }))),
    block('moves', v.moves.map((m) => ({ role: text(m.role), action: text(m.action), does: id(m.doesId), legal: id(m.legalId) }))),
    block('goals', v.goals.map((g) => ({ role: text(g.role), value: goalValue(text(g.value)), atom: g.id }))),
    ...(seen.length === 0 ? [] : [block('percepts', seen)]),
    block('rules', game.rules.map((r) => [r.head, r.pos, r.neg]), game.lazy === undefined),
    ...(game.lazy === undefined ? [] : [`  "lazy": ${JSON.stringify(lazyJson(game))}`]),
    '}',
  ];
  return `${parts.join('\n')}\n`;
}

function ground(text: string, file: string, options: PipelineOptions = defaultPipelineOptions()): GroundGame {
  const g = runGrounding(text, file, options, new StageTimer()).ground;
  return removeUnusedInstances(g, new StageTimer(), options).game;
}

const game = (file: string, options?: PipelineOptions): GroundGame => ground(readFileSync(join(GAMES, file), 'utf8'), file, options);

// A quote and a backslash in names, which JSON escapes; a goal value that is not a number; a rule without body literals.
const ESCAPED = `
(role r)
(init (p a\\b))
(init (q x"y))
(<= (legal r (m ?x)) (true (p ?x)))
(<= (next (p ?x)) (does r (m ?x)))
(<= (next (q ?x)) (true (q ?x)))
(<= terminal (true (q done)))
(<= (goal r 100) (true (p a)))
(<= (goal r high) (not (true (p a))))
(legal r wait)
`;

describe('emitJson in bytes', () => {
  it('writes what the writer over rule objects wrote: plain, GDL-II, lazy, UTF-8 and escaped names', () => {
    const cases: [string, GroundGame][] = [
      ['tictactoe', game('tictactoe.kif')],
      ['blind-ttt (percepts)', game('blind-ttt.kif')],
      ['lazy-board (lazy part)', game('lazy-board.kif', resolvePipelineOptions({ lazyRelations: ['right', 'left'] }))],
      ['utf8-names', game('utf8-names.kif')],
      ['escaped names', ground(ESCAPED, 'escaped.kif')],
    ];
    for (const [name, g] of cases) expect(emitJson(g, Deadline.never()), name).toBe(referenceJson(g));
    expect(emitJson(cases[4]![1], Deadline.never())).toContain('"(true (q x\\"y))"');
  });

  it('hands out chunks at item boundaries: each decodes alone, and together they are the text', () => {
    const g = game('utf8-names.kif');
    const decoder = new TextDecoder('utf-8', { fatal: true });
    // Each chunk is a view of the writer's buffer, valid until the next: decoded at once.
    const parts: string[] = [];
    for (const c of emitJsonBytes(g, Deadline.never(), 16)) parts.push(decoder.decode(c));
    expect(parts.length).toBeGreaterThan(10);
    expect(parts.join('')).toBe(referenceJson(g));
  });
});
