/** The example games of this repository (games/), which every checkout has, unlike the corpus. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the local example games (games/ of this repository). */
export const EXAMPLES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../games');
