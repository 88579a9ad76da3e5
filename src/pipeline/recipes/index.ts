/**
 * The recipes: one per command, the only place that sequences the stages after loading. A
 * recipe takes the run's context and the loaded game and returns data (texts or chunks to
 * write, results, statistics, warnings); the command line parses flags, calls it and writes.
 * Importing this index loads every recipe, the mutex stage and the simulators included: `ground`
 * and the batch import recipes/game.ts and recipes/ground.ts instead (docs/corpus.md, gt15), and
 * `ground --format gddl|rddl` loads recipes/gddl.ts and recipes/rddl.ts itself, so the recipes
 * only those import (groundRecipe, batchRecipe, groundWrittenWhole, gddlRecipe, rddlRecipe) are
 * not re-exported here (tidy32: only tests took them from this index).
 */
export { type RunContext, runContext } from '../context.js';
export { type GroundRun, groundWritten, loadRun } from './game.js';
export { type FoundResults, groundOutput } from './ground.js';
export { type RddlOutput, rddlOutput } from './rddl.js';
export { type GddlOutput, gddlOutput } from './gddl.js';
export { type VerifyTarget, mutexOfRun, mutexRecipe, playRecipe, verifyRecipe } from './play.js';
export { checkRecipe, compareRecipe, graphRecipe, reachRecipe } from './inspect.js';
