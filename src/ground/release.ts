/**
 * Blocks released once no component left to evaluate reads them. A block holds the rows of one
 * body pattern over a relation's store and its indexes (typed arrays); instantiation used to keep
 * every block to the end of the stage, and assembling the ground game came on top of them:
 * gt_two_thirds_6p's static relations (sum, lt, lte, absdiff) held 78 MiB of blocks there, and
 * the stage's last step set the run's peak. Stores stay: negated atoms, the keyword facts, the
 * roles, `init` and the lazy part read them after the joins.
 */
import type { JoinRule } from './compile.js';
import type { Context } from './run-context.js';

/**
 * For each relation read by a positive body atom of `components`' rules (blocks are made only
 * for those), the index of the last component that reads it.
 */
export function lastReaders(components: readonly { readonly rules: readonly JoinRule[] }[]): Map<string, number> {
  const last = new Map<string, number>();
  for (let i = 0; i < components.length; i++) {
    for (const rule of components[i]!.rules) for (const atom of rule.positives) last.set(atom.rel, i);
  }
  return last;
}

/**
 * Drops the blocks over relations whose last reader is component `done` or before. Relations
 * missing from `last` (auxiliary ones that splitting makes) keep theirs; a block dropped too
 * early would only be made again from its store, which is kept.
 */
export function releaseBlocks(ctx: Context, last: ReadonlyMap<string, number>, done: number): void {
  for (const [key, block] of ctx.blocks) {
    const at = last.get(block.store.rel);
    if (at !== undefined && at <= done) ctx.blocks.delete(key);
  }
}
