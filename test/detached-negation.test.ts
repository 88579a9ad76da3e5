// Negated atoms with detached variables (src/ground/detached.ts, issue 27): read by index, they
// give the ground game the plain join gives. games/detached-negation.kif's detached variables are
// kept attached by adding `distinct`s that always hold (a variable in a `distinct` is not
// detached), so the second ground game is made by the plain join over every allowed tuple.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitGame, groundGame, loadGame } from '../src/index.js';
import { ROOT } from './support/cli.js';

const FILE = join(ROOT, 'games/detached-negation.kif');

function ground(text: string): string {
  const loaded = loadGame(text, { file: 'detached-negation.kif' });
  if (!loaded.ok) throw new Error('not loaded');
  return emitGame(groundGame(loaded.game), 'gdl').files[0]!.text;
}

describe('negated atoms with detached variables', () => {
  const text = readFileSync(FILE, 'utf8');
  const attached = text
    .replace('(cell ?c))', '(cell ?c) (distinct ?c 0))')
    .replace('(cell ?c) (cell ?s))', '(cell ?c) (cell ?s) (distinct ?c 0) (distinct ?s 0))');

  it('gives the ground game of the plain join', () => {
    expect(attached).not.toBe(text);
    expect(ground(text)).toBe(ground(attached));
  });

  it('keeps the negated atoms that may hold, and makes the rule without them only where some tuple never holds', () => {
    const out = ground(text).split('\n');
    const rules = (head: string) => out.filter((l) => l.startsWith(`(<= ${head}`));
    // a at 2: ?w = 3; (blocked a 3 3) holds in some state, (blocked a 1 3) and (blocked a 2 3) in none.
    expect(rules('(free a 2)')).toEqual([
      '(<= (free a 2) (true (at a 2)))',
      '(<= (free a 2) (true (at a 2)) (not (blocked a 3 3)))',
    ]);
    // b at 2: every (blocked b ?c 3) may hold, so no rule drops its negated atom.
    expect(rules('(free b 2)')).toEqual([
      '(<= (free b 2) (true (at b 2)) (not (blocked b 1 3)))',
      '(<= (free b 2) (true (at b 2)) (not (blocked b 2 3)))',
      '(<= (free b 2) (true (at b 2)) (not (blocked b 3 3)))',
    ]);
    // (open b): every (?c ?s) may be blocked, so each rule keeps its negated atom, never the positive one (p and not p).
    const openB = rules('(open b)');
    expect(openB).toHaveLength(9 * 8);
    for (const r of openB) {
      const [, pos, neg] = /\(blocked b (\d \d)\) \(not \(blocked b (\d \d)\)\)\)$/.exec(r) ?? [];
      expect(neg).toBeDefined();
      expect(neg).not.toBe(pos);
    }
  });
});
