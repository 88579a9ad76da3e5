/**
 * The lazy rounds' look ahead within one keyword component (docs/lazy.md, docs/corpus.md
 * round23). With lazy axioms a keyword rule that reads a lazy relation negatively and is
 * estimated past a threshold is refused as a limit naming the rule (run-context.ts,
 * `checkLazyEstimate`), and the lazy rounds (lazy.ts) start instantiation again with that rule
 * non-ground, only to meet the next such rule of the same component: chess's legal rules at
 * lines 334, 352, 381 and 401, four whole instantiations before the one that succeeds.
 *
 * When a rule of a component that reads none of its own relations positively is refused so,
 * the rules after it in the component are estimated at once, over the same stores, and those
 * the same check would refuse are carried by the error ({@link LazyRulesLimit}). Their
 * estimates are what the next rounds would compute for them: the component's first round reads
 * only stores complete before it (its own ones grow only when the round ends), and the static
 * relations such a rule reads are evaluated whole, not for what it asks (static-demand-run.ts,
 * `sizeFree`). Rules the splitter rewrote are left out (their parts read auxiliary relations of
 * this run). The lazy rounds check that the plans of those rules made non-ground change
 * nothing else before taking them (lazy.ts, `laterRuleSeeds`).
 */
import type { Pos } from '../gdl/ast.js';
import { GdlError } from '../gdl/diagnostics.js';
import type { JoinRule } from './compile.js';
import { ruleEstimate } from './evaluate.js';
import { type Context, overLazyEstimate } from './run-context.js';

/**
 * A lazy-rule limit (kind `lazy`) of one rule, with the positions of the rules after it in its
 * component that the same check refuses, in evaluation order. Otherwise the same error.
 */
export class LazyRulesLimit extends GdlError {
  constructor(err: GdlError, readonly later: readonly Pos[]) {
    super(err.diagnostics, err.code, err.limit);
  }
}

/**
 * `err` with the rules of the component that the lazy check refuses after the one it names
 * ({@link LazyRulesLimit}), when `err` is such a refusal of a rule of `original` (the
 * component's rules as compiled) and no rule of the component reads its relations `rels`
 * positively; else `err`. `rules`: the component's rules as evaluated (after splitting).
 */
export function withLaterLazyRules(ctx: Context, original: readonly JoinRule[], rules: readonly JoinRule[], rels: ReadonlySet<string>, err: unknown): unknown {
  if (!(err instanceof GdlError) || err.code !== 'limit' || err.limit?.kind !== 'lazy' || ctx.lazy === undefined) return err;
  if (rules.some((r) => r.positives.some((p) => rels.has(p.rel)))) return err;
  const first = err.diagnostics[0];
  const unsplit = new Set(original);
  const at = rules.findIndex((r) => unsplit.has(r) && first !== undefined && r.source.pos.line === first.line && r.source.pos.col === first.col);
  if (at < 0) return err;
  const later = rules.slice(at + 1).filter((r) => unsplit.has(r) && overLazyEstimate(ctx, r, ruleEstimate(ctx, r)));
  return later.length === 0 ? err : new LazyRulesLimit(err, later.map((r) => r.source.pos));
}
