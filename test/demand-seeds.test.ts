// Demand seeded by state-free literals (src/reach/demand-seeds.ts, docs/reach.md): a relation
// free of the state in the relaxed game, derived whole by the plain run (games/demand-seeds.kif:
// amazons' queenMoveIgnoring in small), is demanded for the bindings its callers' state-free
// literals give; the game written is byte for byte the plain supersets' one.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load, written } from './support/demand-game.js';
import { Deadline } from '../src/deadline.js';
import { seededDemand } from '../src/reach/demand-seeds.js';
import { supersetsForGrounding } from '../src/reach/demand.js';
import { magicGame, stateFreeRelations, undemand, undemandedName } from '../src/reach/magic.js';
import { computeSupersetsProlog } from '../src/reach/prolog.js';
import type { NormalGame } from '../src/normalize/types.js';
import type { Supersets } from '../src/reach/types.js';
import { atomToString } from '../src/gdl/terms.js';
import { supersetSentences } from '../src/reach/format.js';
import { EXAMPLES_DIR, GAMES_DIR, HAVE_CORPUS } from './corpus.js';

const SEEDS = join(EXAMPLES_DIR, 'demand-seeds.kif');
const limits = { deadline: Deadline.never(), maxAtoms: 2_000_000 };


const ignoring = (s: Supersets): number => s.axioms.filter((a) => a.rel === 'moveignoring').length;


describe('demand seeded by state-free literals: the choice', () => {
  it('chooses moveIgnoring/6 in games/demand-seeds.kif: domains of 200,704 tuples, move/4 passes 224 pairs', () => {
    const choice = seededDemand(load(SEEDS), limits, () => {});
    expect(choice).toBeDefined();
    expect([...choice!.relations]).toEqual(['moveignoring/6']);
    // The 224 pairs of move/4's relaxed model (28 per row), times the domains of the free x3 (2..8) and y3 (1..8).
    expect({ asked: choice!.asked, full: choice!.full }).toEqual({ asked: 224 * 7 * 8, full: 200_704 });
  });

  it.skipIf(!HAVE_CORPUS)('amazonsTorus and amazons: the three non-recursive *MoveIgnoring relations; amazonsTorus asks 2.78 times fewer than the domains', () => {
    // 3 (the ratio before) did not choose amazonsTorus; demanded, it writes the same game from 1.93×10⁶ rules made instead of 2.65×10⁶.
    const three = ['bishopmoveignoring/6', 'queenmoveignoring/6', 'rookmoveignoring/6'];
    const torus = seededDemand(load(join(GAMES_DIR, 'ggp-repository-base/amazonsTorus.kif')), limits, () => {});
    expect(torus).toBeDefined();
    expect([...torus!.relations].sort()).toEqual(three);
    expect({ asked: torus!.asked, full: torus!.full }).toEqual({ asked: 3600 * 100, full: 1_000_000 });
    // The recursive lines under them (horizontal, vertical, diagonal) are left plain.
    const amazons = seededDemand(load(join(GAMES_DIR, 'ggp-repository-base/amazons.kif')), limits, () => {});
    expect([...amazons!.relations].sort()).toEqual(three);
  }, 60_000);

  it('chooses nothing where no state-free relation is large, or the callers pass all of it', () => {
    for (const name of ['tictactoe.kif', 'nim.kif', 'demand.kif', 'lazy-wide.kif', 'linkpath.kif', 'seed-decline.kif']) {
      expect(seededDemand(load(join(EXAMPLES_DIR, name)), limits, () => {}), name).toBeUndefined();
    }
  });

  it('declines before the counting run when a seed rule surely asks for too much (games/seed-decline.kif)', () => {
    // A deadline already passed: a counting run would throw, so no throw means none ran.
    const passed = { deadline: new Deadline(Date.now() - 1000), maxAtoms: 2_000_000 };
    expect(seededDemand(load(join(EXAMPLES_DIR, 'seed-decline.kif')), passed, () => {})).toBeUndefined();
    expect(seededDemand(load(join(EXAMPLES_DIR, 'seed-decline.kif')), limits, () => {})).toBeUndefined();
    // demand-seeds.kif's seed reads move/4, a derived relation: it must be counted, and is.
    expect(() => seededDemand(load(SEEDS), passed, () => {})).toThrow(/time limit/);
  });

  it('static seeds: every magic rule reads only state-free relations (the plain rewrite reads true)', () => {
    const normal = load(SEEDS);
    const stateFree = stateFreeRelations(normal);
    const bodies = (g: NormalGame) => g.rules.filter((r) => r.head.rel.startsWith('magic ')).flatMap((r) => r.body);
    const reads = (g: NormalGame) => new Set(bodies(g).flatMap((l) => (l.kind === 'pos' ? [`${l.atom.rel}/${l.atom.args.length}`] : [])));
    const seeded = magicGame(normal, new Set(['moveignoring/6']), stateFree);
    // Magic relations and adorned copies carry a space; every other relation read is state-free.
    expect([...reads(seeded)].filter((k) => !k.includes(' ') && !stateFree.has(k))).toEqual([]);
    expect(reads(seeded).has('true/1')).toBe(false);
    expect(reads(magicGame(normal, new Set(['moveignoring/6']))).has('true/1')).toBe(true);
  });
});

describe('demand seeded by state-free literals: the same game', () => {
  it('auto demands moveIgnoring: the same fluents and moves, fewer of its instances, the same game written', () => {
    const normal = load(SEEDS);
    const plain = written(normal, 'accumulator');
    const demand = written(normal, 'auto');
    // Sets: grounding's runs give them in the order found.
    expect(supersetSentences({ ...demand.supersets, axioms: [] })).toEqual(supersetSentences({ ...plain.supersets, axioms: [] }));
    expect(ignoring(plain.supersets)).toBeGreaterThan(10_000);
    expect(ignoring(demand.supersets) * 10).toBeLessThan(ignoring(plain.supersets));
    expect(demand.text).toBe(plain.text);
  }, 120_000);

  it('the stage alone: the other axioms are the plain ones; the demanded ones a subset', () => {
    const normal = load(SEEDS);
    const plain = supersetsForGrounding(normal, limits, 'accumulator').supersets;
    const demand = supersetsForGrounding(normal, limits, 'auto').supersets;
    const texts = (s: Supersets, keep: (rel: string) => boolean) => s.axioms.filter((a) => keep(a.rel)).map(atomToString).sort();
    expect(texts(demand, (r) => r !== 'moveignoring')).toEqual(texts(plain, (r) => r !== 'moveignoring'));
    const all = new Set(texts(plain, (r) => r === 'moveignoring'));
    expect(texts(demand, (r) => r === 'moveignoring').every((t) => all.has(t))).toBe(true);
  }, 120_000);

  it('read back while collecting, in the order found: the sorted merge as a set, no duplicates', () => {
    const normal = load(SEEDS);
    const magic = magicGame(normal, new Set(['moveignoring/6']), stateFreeRelations(normal));
    const run = computeSupersetsProlog(magic, limits, { relevantOnly: true, axiomOrder: 'found' });
    const sorted = undemand(run.supersets).axioms.map(atomToString);
    const read = computeSupersetsProlog(magic, limits, { relevantOnly: true, axiomOrder: 'found', readAs: undemandedName });
    const found = read.supersets.axioms.map(atomToString);
    expect(new Set(found).size).toBe(found.length);
    expect([...found].sort()).toEqual([...sorted].sort());
    // More than one adorned copy of moveignoring/6 was merged: the test would see duplicates.
    const copies = new Set(run.supersets.axioms.map((a) => a.rel).filter((r) => r.startsWith('moveignoring ')));
    expect(copies.size).toBeGreaterThan(1);
  }, 120_000);
});
