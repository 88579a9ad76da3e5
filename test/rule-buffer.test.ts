// The compact forms of ground rules: instantiation's rule buffer (typed arrays of atom ids with
// the sign in a bit), and the restriction that pruning and unused-instance removal share, which
// reuses the game's own rules and atoms instead of canonicalizing a copy.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEST_INSTANTIATE_LIMITS, TEST_REACH_LIMITS } from './support/context.js';
import { Deadline } from '../src/deadline.js';
import { STAGE_SIZE, appendRule, appendStaged, addGroundRule, createRuleBuffer, dropNegatives, flushStaged, hashAppended, stageRule, truncateRules, type RuleBuffer } from '../src/ground/rule-buffer.js';
import { pruneUnreachable, reachableAtoms } from '../src/ground/reachability.js';
import { removeUnused, neededAtoms } from '../src/axioms/unused.js';
import { instantiateGame } from '../src/ground/instantiate.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import { computeSupersetsDG } from '../src/reach/dg/index.js';
import { defaultPipelineOptions, loadGame } from '../src/pipeline/stages.js';
import { atomText } from '../src/ground/atoms.js';
import { groundVocabulary } from '../src/ground/vocabulary.js';
import type { GroundGame } from '../src/ground/types.js';
import { StageTimer } from '../src/timer.js';
import { emitGdl } from '../src/formats/gdl/write.js';
import { ruleCount } from '../src/ground/compact.js';

/** The rules of a buffer read back as [head, positive body, negative body]. */
function readBack(buf: RuleBuffer): [number, number[], number[]][] {
  const out: [number, number[], number[]][] = [];
  for (let i = 0; i < buf.count; i++) {
    const pos: number[] = [];
    const neg: number[] = [];
    for (let k = buf.starts[i]!; k < buf.starts[i + 1]!; k++) (buf.lits[k]! & 1 ? neg : pos).push(buf.lits[k]! >> 1);
    out.push([buf.heads[i]!, pos, neg]);
  }
  return out;
}

describe('rule buffer', () => {
  it('reads back what was added, keeps each rule once, and tells the sign of a literal', () => {
    const buf = createRuleBuffer();
    const rules: [number, number[], number[]][] = [];
    // Many rules, so that the arrays grow several times.
    for (let h = 0; h < 3000; h++) rules.push([h % 50, [h, h + 7], h % 3 === 0 ? [h + 1] : []]);
    for (const [h, p, n] of rules) expect(addGroundRule(buf, h, p, n)).toBe(true);
    for (const [h, p, n] of rules.slice(0, 100)) expect(addGroundRule(buf, h, p, n)).toBe(false);
    // The same atoms with another sign, or split otherwise between the bodies, are other rules.
    expect(addGroundRule(buf, 0, [0], [7])).toBe(true);
    expect(addGroundRule(buf, 0, [], [0, 7])).toBe(true);
    expect(addGroundRule(buf, 0, [0, 7], [1])).toBe(false);
    expect(readBack(buf)).toEqual([...rules, [0, [0], [7]], [0, [], [0, 7]]]);
  });

  it('adds a staged batch in order, each rule once (duplicates within the batch and before it), counting its literals', () => {
    const buf = createRuleBuffer();
    expect(addGroundRule(buf, 1, [2], [3])).toBe(true);
    const batch: [number, number[], number[]][] = [];
    for (let i = 0; i < STAGE_SIZE - 3; i++) batch.push([i % 7, [i, i + 1], []]);
    batch.push([1, [2], [3]], [5, [5, 6], []], [1, [2, 3], []]);
    for (const [h, p, n] of batch) stageRule(buf, h, p, n);
    expect(buf.count).toBe(1);
    // New: the STAGE_SIZE - 3 distinct rules and (1 <= 2, 3); their literals, heads included.
    expect(flushStaged(buf)).toBe(3 * (STAGE_SIZE - 3) + 3);
    expect(readBack(buf)).toEqual([[1, [2], [3]], ...batch.slice(0, STAGE_SIZE - 3), [1, [2, 3], []]]);
    expect(flushStaged(buf)).toBe(0);
  });

  it('forgets the rules after a truncation, and finds the ones kept as duplicates', () => {
    const buf = createRuleBuffer();
    for (let h = 0; h < 10; h++) addGroundRule(buf, h, [h + 100], [h + 200]);
    truncateRules(buf, 4);
    expect(buf.count).toBe(4);
    expect(addGroundRule(buf, 2, [102], [202])).toBe(false);
    expect(addGroundRule(buf, 5, [105], [205])).toBe(true);
    expect(readBack(buf).map((r) => r[0])).toEqual([0, 1, 2, 3, 5]);
  });

  it('forgets exactly the rules after each of several truncations, and still finds every rule kept', () => {
    const buf = createRuleBuffer();
    // Many rules over few heads and atoms, so that the table grows and probe chains are long.
    const rules: [number, number[], number[]][] = [];
    for (let h = 0; h < 8100; h++) rules.push([h % 7, [h % 13, 20 + (h % 101)], h % 5 === 0 ? [200 + h] : []]);
    for (const [h, p, n] of rules) addGroundRule(buf, h, p, n);
    for (const keep of [7000, 3000, 2000, 1999, 17, 0]) {
      truncateRules(buf, keep);
      expect(buf.count).toBe(keep);
      // The kept rules are found as duplicates; the forgotten ones are added again, in order.
      for (const [h, p, n] of rules.slice(0, keep)) expect(addGroundRule(buf, h, p, n)).toBe(false);
      for (const [h, p, n] of rules.slice(keep)) expect(addGroundRule(buf, h, p, n)).toBe(true);
      expect(readBack(buf)).toEqual(rules);
    }
  });

  it('drops refused negative literals from a rule on, moving the rest down', () => {
    const buf = createRuleBuffer();
    appendRule(buf, 1, [2], [3, 4]);
    appendRule(buf, 5, [6], [7, 8]);
    appendRule(buf, 9, [], [10, 11]);
    appendRule(buf, 12, [13], []);
    dropNegatives(buf, 1, (id) => id % 2 === 0);
    expect(readBack(buf)).toEqual([[1, [2], [3, 4]], [5, [6], [8]], [9, [], [10]], [12, [13], []]]);
  });

  it('appends a batch without the table, and finds its rules once they are put in it (rolled-back ones forgotten)', () => {
    const buf = createRuleBuffer();
    expect(addGroundRule(buf, 9, [1], [])).toBe(true);
    for (let i = 0; i < 10; i++) stageRule(buf, i, [i + 100], []);
    expect(appendStaged(buf, 3)).toBe(20);
    stageRule(buf, 50, [150], []);
    expect(appendStaged(buf, 4)).toBe(2);
    expect(buf.count).toBe(12);
    expect(buf.hashed).toBe(1);
    truncateRules(buf, 8);
    expect(buf.appended).toEqual([1, 8, 3]);
    // Only the rules of the tags asked for go into the table.
    hashAppended(buf, new Set([4]));
    expect(buf.hashed).toBe(1);
    hashAppended(buf, new Set([3]));
    expect(buf.hashed).toBe(8);
    expect(buf.appended).toEqual([]);
    // Each rule kept is found; the ones rolled back are new again.
    for (let i = 0; i < 7; i++) expect(addGroundRule(buf, i, [i + 100], [])).toBe(false);
    expect(addGroundRule(buf, 7, [107], [])).toBe(true);
    expect(readBack(buf).slice(7)).toEqual([[6, [106], []], [7, [107], []]]);
  });
});

/**
 * A file's ground game before pruning, over the supersets of either method (the dependency
 * graph's are larger: pruning then drops rules and atoms, and the game is renumbered).
 */
function instantiated(file: string, method: 'prolog' | 'dg'): GroundGame {
  const normal = loadGame(readFileSync(file, 'utf8'), file, defaultPipelineOptions(), new StageTimer()).normal;
  const supersets = method === 'dg' ? computeSupersetsDG(normal, TEST_REACH_LIMITS).supersets : computeSupersetsProlog(normal, TEST_REACH_LIMITS).supersets;
  return instantiateGame(normal, supersets, TEST_INSTANTIATE_LIMITS);
}

/** The rules of a game as texts, in its order. */
const ruleTexts = (g: GroundGame): string[] =>
  g.rules.map((r) => [atomText(g, r.head), ...r.pos.map((p) => atomText(g, p)), ...r.neg.map((n) => `(not ${atomText(g, n)})`)].join(' '));

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const GAMES = ['games/tictactoe.kif', 'games/buttons.kif', 'games/nim.kif', 'games/montyhall.kif', 'games/frame.kif'];

describe('restricting a ground game (pruning, unused instances)', () => {
  it('drops atoms when pruning nim over the dependency graph\'s supersets (so renumbering is exercised below)', () => {
    const g = instantiated('games/nim.kif', 'dg');
    expect(pruneUnreachable(g, Deadline.never()).atoms.length).toBeLessThan(g.atoms.length);
  });

  for (const [file, method] of GAMES.flatMap((f) => [[f, 'prolog'], [f, 'dg']] as const)) {
    it(`prunes ${file} (${method}) as the rules reached, with their atoms, in text order`, () => {
      const g = instantiated(file, method);
      const reached = reachableAtoms(g, Deadline.never());
      // The reference, by text: the rules whose positive bodies are reached, unreached negations dropped.
      const expected = [...new Set(g.rules.filter((r) => r.pos.every((p) => reached[p] === 1))
        .map((r) => [atomText(g, r.head), ...r.pos.map((p) => atomText(g, p)), ...r.neg.filter((n) => reached[n] === 1).map((n) => `(not ${atomText(g, n)})`)].join(' ')))];
      const pruned = pruneUnreachable(g, Deadline.never());
      expect([...ruleTexts(pruned)].sort(compare)).toEqual([...expected].sort(compare));
      // The contract: atoms sorted by text, bodies ascending, rules sorted, the vocabulary as if made anew.
      const atomTexts = pruned.atoms.map((_, i) => atomText(pruned, i));
      expect(atomTexts).toEqual([...atomTexts].sort(compare));
      for (const r of pruned.rules) for (const body of [r.pos, r.neg]) expect(body).toEqual([...new Set(body)].sort((x, y) => x - y));
      expect(pruned.vocabulary).toEqual(groundVocabulary(pruned));
      const used = new Set(pruned.rules.flatMap((r) => [r.head, ...r.pos, ...r.neg]).concat(pruned.init));
      expect(used.size).toBe(pruned.atoms.length);
    });

    it(`keeps of ${file} (${method}) the rules of needed heads, renumbered`, () => {
      const pruned = pruneUnreachable(instantiated(file, method), Deadline.never());
      const needed = neededAtoms(pruned, Deadline.never());
      const { game } = removeUnused(pruned, Deadline.never());
      expect(ruleTexts(game)).toEqual(ruleTexts({ ...pruned, rules: pruned.rules.filter((r) => needed[r.head] === 1) }));
      expect(game.vocabulary).toEqual(groundVocabulary(game));
    });
  }
});

describe('ground games on compact rules (src/ground/compact.ts)', () => {
  it('gives a copy made by spreading the rules it was given, not the compact ones of the original', () => {
    const g = pruneUnreachable(instantiated('games/tictactoe.kif', 'prolog'), Deadline.never());
    const same: GroundGame = { ...g };
    expect(emitGdl(same, undefined, Deadline.never())).toBe(emitGdl(g, undefined, Deadline.never()));
    // One rule left out of the copy: every stage reading compact rules must see it gone.
    const fewer: GroundGame = { ...g, rules: g.rules.slice(1) };
    const lines = emitGdl(g, undefined, Deadline.never()).split('\n');
    const first = ruleTexts(g)[0]!;
    expect(emitGdl(fewer, undefined, Deadline.never()).split('\n')).toHaveLength(lines.length - 1);
    expect(ruleTexts(pruneUnreachable(fewer, Deadline.never()))).not.toContain(first);
    expect(ruleTexts(removeUnused(fewer, Deadline.never()).game)).toEqual(ruleTexts(removeUnused({ ...fewer }, Deadline.never()).game));
  });

  it('makes the same rule objects, once, when a reader asks for them', () => {
    const g = instantiated('games/buttons.kif', 'dg');
    const pruned = pruneUnreachable(g, Deadline.never());
    expect(pruned.rules).toBe(pruned.rules);
    expect(ruleCount(pruned)).toBe(pruned.rules.length);
    expect(pruned.rules).toEqual(pruneUnreachable({ ...g }, Deadline.never()).rules);
  });
});
