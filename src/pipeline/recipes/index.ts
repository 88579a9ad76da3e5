/**
 * The recipes: one per command, the only place that sequences the stages after loading. A
 * recipe takes the run's context and the loaded game and returns data (texts or chunks to
 * write, results, statistics, warnings); the command line parses flags, calls it and writes.
 */
export { type RunContext, runContext } from '../context.js';
export { type GroundRun, groundWritten, loadRun } from './game.js';
export {
  type FoundResults, type GddlOutput, type OutputFile, type RddlOutput,
  batchRecipe, gddlOutput, gddlRecipe, groundOutput, groundRecipe, rddlOutput, rddlRecipe,
} from './ground.js';
export { type VerifyTarget, mutexOfRun, mutexRecipe, playRecipe, verifyRecipe } from './play.js';
export { checkRecipe, compareRecipe, graphRecipe, reachRecipe } from './inspect.js';
