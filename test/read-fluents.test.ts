// The states the mutex stage searches and samples hold only the fluents some rule reads
// (src/play/read-fluents.ts): games/mutex-unread.kif's (mark ?x) is never read, and tells apart
// three reachable states that are two without it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../src/deadline.js';
import { reachableStates } from '../src/play/reachable.js';
import { readFluentTerms, statePacker } from '../src/play/read-fluents.js';
import { sampleStates } from '../src/play/sample.js';
import { defaultPipelineOptions } from '../src/pipeline/options.js';
import { runGrounding } from '../src/pipeline/stages.js';
import { StageTimer } from '../src/timer.js';
import { EXAMPLES_DIR } from './corpus.js';

const ground = (): ReturnType<typeof runGrounding>['ground'] => {
  const name = 'mutex-unread.kif';
  return runGrounding(readFileSync(join(EXAMPLES_DIR, name), 'utf8'), name, defaultPipelineOptions(), new StageTimer()).ground;
};

/** The texts of the fluents of each state, sorted, the states in order. */
const texts = (game: ReturnType<typeof ground>, states: readonly (readonly number[])[]): string[][] =>
  states.map((s) => s.map((t) => game.terms.text(t)).sort());

describe('states cut to the fluents some rule reads', () => {
  it('knows which fluents are read, and packs states without the others', () => {
    const game = ground();
    const read = readFluentTerms(game);
    const textOf = (t: number): string => game.terms.text(t);
    const fluents = game.vocabulary.fluents.map((f) => f.term);
    expect(fluents.filter((t) => read[t] === 1).map(textOf).sort()).toEqual(['(light off)', '(light on)']);
    expect(fluents.filter((t) => read[t] !== 1).map(textOf).sort()).toEqual(['(mark off)', '(mark on)']);
    const [on, off, mark] = [fluents.find((t) => textOf(t) === '(light on)')!, fluents.find((t) => textOf(t) === '(light off)')!, fluents.find((t) => textOf(t) === '(mark on)')!];
    // Bits 0 and 2 read, 1 not: packed, bits 0 and 2 become 0 and 1; spread back, bit 1 is clear.
    const packer = statePacker([on, mark, off], read)!;
    expect(packer.termOf).toEqual([on, off]);
    expect(Array.from(packer.pack(Uint32Array.of(0b111)))).toEqual([0b11]);
    expect(Array.from(packer.pack(Uint32Array.of(0b110)))).toEqual([0b10]);
    expect(Array.from(packer.unpack(Uint32Array.of(0b10), Uint32Array.of(0xffff)))).toEqual([0b100]);
    // None when every bit is read.
    expect(statePacker([on, off], read)).toBeUndefined();
  });

  it('searches two states instead of three, complete, with no mark in them', () => {
    const game = ground();
    const search = (readOnly: boolean) => reachableStates(game, { maxStates: 100, seconds: 60, deadline: Deadline.never(), readOnly });
    const all = search(false);
    expect(all.end).toBe('complete');
    expect(all.found).toBe(3);
    const cut = search(true);
    expect(cut).toMatchObject({ end: 'complete', found: 2 });
    expect(texts(game, cut.states)).toEqual([['(light off)'], ['(light on)']]);
  });

  it('samples the same playouts, the states without the unread fluents', () => {
    const game = ground();
    const sample = (readOnly: boolean) => sampleStates(game, { playouts: 2, seed: 1, maxSteps: 3, deadline: Deadline.never(), readOnly });
    const all = texts(game, sample(false));
    const cut = texts(game, sample(true));
    expect(cut).toEqual(all.map((s) => s.filter((f) => f.startsWith('(light'))));
    expect(all.some((s) => s.some((f) => f.startsWith('(mark')))).toBe(true);
  });
});
