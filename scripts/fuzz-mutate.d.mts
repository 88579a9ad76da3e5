// Types of scripts/fuzz-mutate.mjs for the tests.
/** The top-level sentences of `source` in an order shuffled by `seed`, one a line, comments left out. */
export function shuffleSentences(source: string, seed: number): string;
/** Mutation `index` of a run seeded `seed`, applied to `source`: the bytes and the mutations applied. */
export function mutate(source: string, seed: number, index: number): { bytes: Buffer; applied: string[] };
