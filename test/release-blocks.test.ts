/**
 * Blocks released after their last reader (src/ground/release.ts): each relation read by a
 * positive body atom maps to the last component that reads it, and after a component only the
 * blocks of relations no later component reads are dropped; relations no rule reads (auxiliary
 * ones) keep theirs.
 */
import { describe, expect, it } from 'vitest';
import type { Block } from '../src/datalog/block.js';
import type { JoinRule } from '../src/ground/compile.js';
import { lastReaders, releaseBlocks } from '../src/ground/release.js';
import type { Context } from '../src/ground/run-context.js';

/** A rule reduced to what lastReaders reads: its positive atoms' relations. */
const reads = (...rels: string[]): JoinRule => ({ positives: rels.map((rel) => ({ rel })) }) as unknown as JoinRule;

/** A context reduced to its blocks, one per relation given. */
function withBlocks(...rels: string[]): Context {
  const blocks = new Map<string, Block>(rels.map((rel) => [`${rel}(_)`, { store: { rel } } as unknown as Block]));
  return { blocks } as unknown as Context;
}

const kept = (ctx: Context): string[] => [...ctx.blocks.values()].map((b) => b.store.rel).sort();

describe('blocks released after their last reader', () => {
  const components = [{ rules: [reads('succ')] }, { rules: [reads('succ', 'lt'), reads('sum')] }, { rules: [reads('lt')] }, { rules: [] }];

  it('maps each relation read to the last component reading it', () => {
    expect([...lastReaders(components)].sort()).toEqual([['lt', 2], ['succ', 1], ['sum', 1]]);
  });

  it('drops only the blocks no later component reads', () => {
    const last = lastReaders(components);
    const ctx = withBlocks('succ', 'lt', 'sum', 'split-1');
    releaseBlocks(ctx, last, 0);
    expect(kept(ctx)).toEqual(['lt', 'split-1', 'succ', 'sum']);
    releaseBlocks(ctx, last, 1);
    expect(kept(ctx)).toEqual(['lt', 'split-1']);
    releaseBlocks(ctx, last, 3);
    expect(kept(ctx)).toEqual(['split-1']);
  });
});
