// The GDL writer makes rule lines as UTF-8 bytes (src/formats/gdl/bytes.ts, issue 27): every
// term's bytes decode to the term table's text, and every rule line equals the line made from
// the rule's atoms' texts, on symbols of one to four bytes (games/utf8-names.kif) and on
// tictactoe, in chunks as small as a line; deep terms, repeated roots and subterms as roots.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { WORD_SLACK, putWords, termBytes, wordView } from '../src/formats/gdl/bytes.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { gdlChunks } from './support/written.js';
import type { GroundGame } from '../src/ground/types.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { TermTable } from '../src/datalog/terms.js';
import { EXAMPLES_DIR } from './examples.js';

function ground(name: string): GroundGame {
  const file = join(EXAMPLES_DIR, name);
  return runGrounding(readFileSync(file, 'utf8'), file, defaultPipelineOptions(), new StageTimer()).ground;
}


/** The rule lines as the writer made them before its bytes: from each atom's text. */
function linesFromTexts(game: GroundGame): string[] {
  const text = (id: number): string => game.terms.text(game.atoms[id]!.term);
  return game.rules.map((r) => (r.pos.length + r.neg.length === 0
    ? text(r.head)
    : `(<= ${text(r.head)}${r.pos.map((a) => ` ${text(a)}`).join('')}${r.neg.map((a) => ` (not ${text(a)})`).join('')})`));
}

describe('GDL as bytes', () => {
  for (const name of ['utf8-names.kif', 'tictactoe.kif']) {
    const game = ground(name);

    it(`decodes every term of games/${name} to its text`, () => {
      const ids = Array.from({ length: game.terms.size }, (_, i) => i);
      const { bytes, start, end } = termBytes(game.terms, ids);
      const decoder = new TextDecoder();
      for (const id of ids) expect(decoder.decode(bytes.subarray(start[id]!, end[id]!))).toBe(game.terms.text(id));
    });

    it(`writes the rule lines of games/${name} as the atoms' texts make them, in any chunk size`, () => {
      const text = emitGdl(game, { baseInput: false }, Deadline.never());
      const lines = text.split('\n');
      const header = 1 + game.roles.length + game.init.length;
      expect(lines.slice(header, header + game.rules.length)).toEqual(linesFromTexts(game));
      expect(gdlChunks(game, { baseInput: false }, 1).join('')).toBe(text);
    });
  }

  for (const name of ['utf8-names.kif', 'tictactoe.kif']) {
    it(`writes the lines before the rules of games/${name} as the terms' texts make them`, () => {
      const game = ground(name);
      const text = (t: number): string => game.terms.text(t);
      const { fluents, moves } = game.vocabulary;
      const expected = [
        '; ground game written by gdl-grounder',
        ...game.roles.map((r) => `(role ${text(r)})`),
        ...fluents.map((f) => `(base ${text(f.term)})`),
        ...moves.map((m) => `(input ${text(m.role)} ${text(m.action)})`),
        ...game.init.map((id) => `(init ${text(game.terms.arg(game.atoms[id]!.term, 0))})`),
      ];
      expect(emitGdl(game, { baseInput: true }, Deadline.never()).split('\n').slice(0, expected.length)).toEqual(expected);
      const plain = expected.filter((l) => !l.startsWith('(base ') && !l.startsWith('(input '));
      expect(emitGdl(game, { baseInput: false }, Deadline.never()).split('\n').slice(0, plain.length)).toEqual(plain);
    });
  }

  it('writes the non-ASCII names of games/utf8-names.kif', () => {
    const text = emitGdl(ground('utf8-names.kif'), { baseInput: true }, Deadline.never());
    expect(text).toContain('(<= 🀄 (true (zelle (pos (x 1) (y 1)) 中)) (true (zelle (pos (x 1) (y 2)) größe)))\n');
    expect(text).toContain('(<= (goal spieler 0) (not 🀄))\n');
  });

  it('writes the texts of deep terms, of roots asked for twice and of subterms, whichever layout it picks', () => {
    // A chain (s (s ... (s 0))) 40 deep, with a sibling (pair (s 0) z): asked for alone, the
    // deepest term's subterms would take far more than twice its own text (the roots' texts
    // are then written one after the other); asked for with all of them, a text per term.
    const terms = new TermTable();
    const chain = [terms.constant('0')];
    for (let d = 1; d <= 40; d++) chain.push(terms.compound('s', [chain[d - 1]!]));
    const pair = terms.compound('pair', [chain[1]!, terms.constant('z')]);
    const decoder = new TextDecoder();
    for (const roots of [[chain[40]!], [chain[40]!, pair, chain[40]!], [...chain, pair, chain[3]!], [pair, chain[0]!]]) {
      const { bytes, start, end } = termBytes(terms, roots);
      expect(roots.map((_, i) => decoder.decode(bytes.subarray(start[i]!, end[i]!)))).toEqual(roots.map((t) => terms.text(t)));
    }
  });

  it('copies pieces of every length four bytes at a time into a buffer with only the slack to spare', () => {
    // Pieces of 0 to 9 bytes, one after the other, in a source padded as termBytes pads it.
    const lengths = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3, 0, 5];
    const total = lengths.reduce((x, y) => x + y, 0);
    const src = new Uint8Array(total + WORD_SLACK).map((_, i) => (i < total ? 1 + (i % 250) : 0xff));
    const dst = new Uint8Array(total + WORD_SLACK);
    let from = 0;
    let at = 0;
    // Backwards, so that every piece lands elsewhere than it came from.
    const pieces = lengths.map((n) => [from, (from += n)] as const).reverse();
    for (const [a, b] of pieces) at = putWords(wordView(dst), at, wordView(src), a, b);
    expect(at).toBe(total);
    expect([...dst.subarray(0, total)]).toEqual(pieces.flatMap(([a, b]) => [...src.subarray(a, b)]));
  });
});
