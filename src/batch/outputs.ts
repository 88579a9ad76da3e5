/**
 * The formats `batch --format` takes. The files of each are made by the batch recipe
 * (src/pipeline/recipes/ground.ts, `batchRecipe`), which sequences the stages.
 */
import type { BatchFormat } from './types.js';


/** The names of the formats, for the option parser. */
export const BATCH_FORMAT_NAMES: readonly BatchFormat[] = ['gdl', 'json', 'gddl', 'rddl'];
