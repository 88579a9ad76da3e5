/**
 * The relaxed game written for SWI-Prolog (the benchmark's baseline, src/bench/swi.ts): the same
 * relaxed plan the Prolog method runs on Tau-Prolog, in SWI's syntax.
 */
import { KEYWORDS } from '../gdl/ast.js';
import type { NormalGame } from '../normalize/types.js';
import { plainClauseParts, plainRelation as rel, renderTerm } from './clauses.js';
import { type RelationKey, keyOf, planRelaxedGame, relationKeyText } from './relaxed.js';

/**
 * The relaxed game as SWI-Prolog text, for the benchmark's plain Algorithm 9.2 in SWI-Prolog
 * (prolog/alg92-swi.pl): relations renamed `r:NAME`, recursive ones tabled; `axioms` lists the
 * non-keyword relations for the driver's final query.
 */
export function swiProgram(game: NormalGame): { text: string; axioms: string } {
  const plan = planRelaxedGame(game);
  const lines: string[] = [':- style_check(-singleton).', ':- style_check(-discontiguous).'];
  const defined = new Set<string>();
  for (const comp of plan.components) {
    for (const r of comp.rules) defined.add(keyOf(r.head));
    if (!comp.recursive) continue;
    for (const k of comp.relations) {
      // The plan keeps each relation's name and arity beside its key: read, never split.
      const { rel: name, arity } = plan.relations.get(k)!;
      if (name !== 'true' && name !== 'does') lines.push(`:- table ${rel(name)}/${arity}.`);
    }
  }
  // Relations without rules (and the driver's init, legal, next when the game has none) must
  // fail quietly instead of raising existence errors.
  const all: RelationKey[] = [...plan.relations.values(), { rel: 'init', arity: 1 }, { rel: 'legal', arity: 2 }, { rel: 'next', arity: 1 }];
  const keys = new Map(all.map((r) => [relationKeyText(r), r] as const));
  for (const [k, { rel: name, arity }] of keys) {
    if (!defined.has(k) && name !== 'true' && name !== 'does') lines.push(`:- dynamic(${rel(name)}/${arity}).`);
  }
  for (const comp of plan.components) {
    for (const r of comp.rules) {
      const { head, body } = plainClauseParts(r, renderTerm);
      lines.push(body.length === 0 ? `${head}.` : `${head} :- ${body.join(', ')}.`);
    }
  }
  const axioms = [...plan.relations.values()].filter((r) => !KEYWORDS.has(r.rel)).map((r) => `${rel(r.rel)}/${r.arity}`);
  return { text: `${lines.join('\n')}\n`, axioms: `[${axioms.join(',')}]` };
}

