// One growing encoding for a batch of claims (docs/mutex.md, "Proofs that finish inside the
// budget"): a batch of eight claims whose cones share one large derived atom encodes that atom's
// completion once, not once per query, and proves what the queries one by one prove.
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { ruleIndex } from '../src/mutex/encode.js';
import { jointCones } from '../src/mutex/joint-cones.js';
import { proveClaims } from '../src/mutex/prove.js';
import type { MutexView } from '../src/mutex/view.js';

/**
 * Sixteen fluents f0..f15 (true atoms 0..15). The even ones have next atoms 16 + i, each with one
 * rule reading the derived atom 32 and its own true atom; atom 32 has 1,000 rules, each reading one
 * true atom. The odd fluents are never made true, so "at most one of f(2k), f(2k+1)" is inductive,
 * and every claim's cone holds atom 32's 1,000 rules.
 */
function sharedCone(): MutexView {
  const fluent = (i: number): MutexView['fluents'][number] => (
    { term: i, text: `(f ${i})`, trueAtom: i, nextAtom: i % 2 === 0 ? 16 + i : -1, relation: 'f/1', name: 'f', args: [String(i)] });
  const derived = Array.from({ length: 1000 }, (_, r) => ({ head: 32, pos: [r % 16], neg: [] }));
  const nexts = Array.from({ length: 8 }, (_, k) => ({ head: 16 + 2 * k, pos: [32, 2 * k], neg: [] }));
  return { atoms: 33, rules: [...derived, ...nexts], fluents: Array.from({ length: 16 }, (_, i) => fluent(i)), moves: [], terminal: -1, init: [], opaque: [] };
}

const claims = Array.from({ length: 8 }, (_, k) => ({ kind: 'amo' as const, batch: 0, members: [2 * k, 2 * k + 1] }));
const limits = { maxConflicts: 20_000, maxPairQueries: 0, maxWork: 100_000_000 };

describe('a batch of claims on one growing encoding', () => {
  it('proves every claim, as the queries one by one do', () => {
    const r = proveClaims(sharedCone(), claims, { ...limits, deadline: Deadline.never().within(1000) });
    expect(r.verdicts).toEqual(claims.map(() => 'proven'));
    expect(r.queries).toBe(8);
  });

  it('encodes the shared cone once: the batch of eight costs less than twice one claim alone', () => {
    const one = proveClaims(sharedCone(), claims.slice(0, 1), { ...limits, deadline: Deadline.never().within(1000) });
    const eight = proveClaims(sharedCone(), claims, { ...limits, deadline: Deadline.never().within(1000) });
    expect(one.verdicts).toEqual(['proven']);
    expect(one.work).toBeGreaterThan(3000);
    expect(eight.work).toBeLessThan(2 * one.work);
  });
});

/**
 * As {@link sharedCone}, but each of the sixteen claims' next atoms reads its own derived atom
 * (64 + k, 1,000 rules each): cones that share nothing, where one growing encoding would make every
 * query pay for every cone added before it (joint-cones.ts' MAX_GROWTH).
 */
function disjointCones(): MutexView {
  const fluent = (i: number): MutexView['fluents'][number] => (
    { term: i, text: `(f ${i})`, trueAtom: i, nextAtom: i % 2 === 0 ? 32 + i : -1, relation: 'f/1', name: 'f', args: [String(i)] });
  const derived = Array.from({ length: 16 * 1000 }, (_, r) => ({ head: 64 + Math.floor(r / 1000), pos: [r % 32], neg: [] }));
  const nexts = Array.from({ length: 16 }, (_, k) => ({ head: 32 + 2 * k, pos: [64 + k, 2 * k], neg: [] }));
  return { atoms: 80, rules: [...derived, ...nexts], fluents: Array.from({ length: 32 }, (_, i) => fluent(i)), moves: [], terminal: -1, init: [], opaque: [] };
}

describe('a batch of claims whose cones share nothing', () => {
  const many = Array.from({ length: 16 }, (_, k) => ({ kind: 'amo' as const, members: [2 * k, 2 * k + 1] }));

  it('proves every claim, as the queries one by one do', () => {
    const all = proveClaims(disjointCones(), many.map((c) => ({ ...c, batch: 0 })), { ...limits, deadline: Deadline.never().within(1000) });
    expect(all.verdicts).toEqual(many.map(() => 'proven'));
  });

  it('stops growing one encoding past four times its first size: the later claims are encoded anew', () => {
    const view = disjointCones();
    const ask = jointCones(view, ruleIndex(view), many, () => false);
    const state = many.map(() => 2);
    const answers = many.map((_, i) => ask(i, state, 20_000, () => false)?.answer);
    // The first cones grow the encoding (1,000 rules each); once it is four cones large, undefined.
    expect(answers.slice(0, 4)).toEqual(['unsat', 'unsat', 'unsat', 'unsat']);
    expect(answers.slice(5)).toEqual(many.slice(5).map(() => undefined));
  });
});

/**
 * Claim 0 (f0, f1) reads a derived atom of 1,000 rules; claims 1..n (f2k, f2k+1) read only their
 * own two true atoms (f2k+1 negated, never made true): a large first cone, then n small ones, each
 * bringing its claim's two members into the encoding.
 */
function oneLargeManySmall(n: number): MutexView {
  const f = 2 * (n + 1);
  const derived = f + n + 1;
  const fluent = (i: number): MutexView['fluents'][number] => (
    { term: i, text: `(f ${i})`, trueAtom: i, nextAtom: i % 2 === 0 ? f + i / 2 : -1, relation: 'f/1', name: 'f', args: [String(i)] });
  const big = Array.from({ length: 1000 }, (_, r) => ({ head: derived, pos: [r % 2], neg: [] }));
  const nexts = Array.from({ length: n + 1 }, (_, k) => ({ head: f + k, pos: k === 0 ? [derived, 0] : [2 * k], neg: k === 0 ? [] : [2 * k + 1] }));
  return { atoms: derived + 1, rules: [...big, ...nexts], fluents: Array.from({ length: f }, (_, i) => fluent(i)), moves: [], terminal: -1, init: [], opaque: [] };
}

describe('claims active while the encoding grows', () => {
  it('adds each claim once, not again at every growth: a hundred small cones after a large one stay under the growth cap', () => {
    const n = 100;
    const view = oneLargeManySmall(n);
    const many = Array.from({ length: n + 1 }, (_, k) => ({ kind: 'amo' as const, members: [2 * k, 2 * k + 1] }));
    const ask = jointCones(view, ruleIndex(view), many, () => false);
    const state = many.map(() => 2);
    const answers = many.map((_, i) => ask(i, state, 20_000, () => false)?.answer);
    // Every claim active at every query: re-added with a new selector at each growth (one clause
    // per claim per query, quadratic), the encoding passed four times its first size at claim 82.
    expect(answers).toEqual(many.map(() => 'unsat'));
  });
});
