// Types of scripts/corpus.mjs, the one listing of the game corpus.

/** Corpus folder: GDL_GAMES_DIR, or ../shared/games beside the checkout. */
export function gamesDir(): string;

/** True when `dir` holds the corpus (its INDEX.tsv). */
export function haveCorpus(dir?: string): boolean;

/** Which games {@link listGames} lists. */
export interface ListOptions {
  /** A corpus folder, or 'all' (the default) for every folder. */
  readonly folder?: string;
  /** Substrings of file names; empty (the default) for every game. */
  readonly filter?: readonly string[];
}

/** Games of the corpus in `dir` as `folder/file.kif`, sorted. */
export function listGames(dir?: string, options?: ListOptions): string[];
