/**
 * The lexer's table of symbols: each distinct word is one string, found again from the text
 * without cutting it out. A game of 50 MB holds tens of millions of symbol occurrences but few
 * distinct words beside its facts' keys; cutting each occurrence out of the text (a new string
 * each) and hashing it again in a `Map` made reading the symbols a quarter of `check`'s time.
 * Here the scanner hashes the characters as it passes them, and a word seen before is found by
 * comparing characters in place.
 */

/** Open-addressed table: a slot holds 1 + the index of its word, 0 when empty. */
export interface SymbolTable {
  slots: Int32Array;
  /** The hash of each slot's word, compared before its characters. */
  slotHashes: Int32Array;
  readonly words: string[];
}

/** An empty table. */
export function newSymbolTable(): SymbolTable {
  return { slots: new Int32Array(1024), slotHashes: new Int32Array(1024), words: [] };
}

/** FNV-1a's step: the hash of the characters so far and one more (already folded). */
export function hashStep(h: number, c: number): number {
  return Math.imul(h ^ c, 16777619);
}

/** FNV-1a's start value. */
export const HASH_START = -2128831035;

/** The character `c`, folded to lower case when `fold` and it is ASCII upper case. */
function folded(c: number, fold: boolean): number {
  return fold && c >= 65 && c <= 90 ? c + 32 : c;
}

/** Whether `word` is `text[start, end)` (folded to lower case when `fold`). */
function sameWord(word: string, text: string, start: number, end: number, fold: boolean): boolean {
  if (word.length !== end - start) return false;
  for (let k = 0; k < word.length; k++) {
    if (word.charCodeAt(k) !== folded(text.charCodeAt(start + k), fold)) return false;
  }
  return true;
}

/**
 * The one string of the word `text[start, end)` whose characters hash (after folding ASCII
 * upper case when `fold`) to `hash` with {@link hashStep}; added when new. The caller folds
 * non-ASCII text itself and passes the folded string with `fold` false.
 */
export function internWord(table: SymbolTable, text: string, start: number, end: number, hash: number, fold: boolean): string {
  const mask = table.slots.length - 1;
  for (let s = hash & mask; ; s = (s + 1) & mask) {
    const slot = table.slots[s]!;
    if (slot === 0) return addWord(table, s, text.slice(start, end), hash, fold);
    if (table.slotHashes[s] === hash) {
      const word = table.words[slot - 1]!;
      if (sameWord(word, text, start, end, fold)) return word;
    }
  }
}

function addWord(table: SymbolTable, slot: number, raw: string, hash: number, fold: boolean): string {
  const word = fold ? raw.toLowerCase() : raw;
  table.words.push(word);
  table.slots[slot] = table.words.length;
  table.slotHashes[slot] = hash;
  // Kept at most half full, so that probes stay short.
  if (table.words.length * 2 > table.slots.length) grow(table);
  return word;
}

/** Doubles the slots and places every word again by its hash. */
function grow(table: SymbolTable): void {
  const size = table.slots.length * 2;
  const slots = new Int32Array(size);
  const slotHashes = new Int32Array(size);
  for (let s = 0; s < table.slots.length; s++) {
    const slot = table.slots[s]!;
    if (slot === 0) continue;
    const hash = table.slotHashes[s]!;
    let t = hash & (size - 1);
    while (slots[t] !== 0) t = (t + 1) & (size - 1);
    slots[t] = slot;
    slotHashes[t] = hash;
  }
  table.slots = slots;
  table.slotHashes = slotHashes;
}
