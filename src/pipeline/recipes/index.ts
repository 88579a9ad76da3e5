/**
 * The recipes: one per command, the only place that sequences the stages after loading. A
 * recipe takes the run's context and the loaded game and returns data (texts or chunks to
 * write, results, statistics, warnings); the command line parses flags, calls it and writes.
 */
export { type RunContext, contextFromSettings, runContext } from '../context.js';
export { type GroundRun, groundWritten, loadRun } from './game.js';
export {
  type BatchOutputFormat, type BatchResult, type GddlOutput, type GddlSettings, type GroundOutput, type GroundSettings, type OutputFile, type RddlOutput, type RddlSettings,
  batchRecipe, gddlRecipe, groundRecipe, rddlRecipe,
} from './ground.js';
export { type EngineRun, type PlayEngine, type VerifyRun, type VerifyTarget, mutexRecipe, playRecipe, verifyRecipe } from './play.js';
export { checkRecipe, compareRecipe, graphRecipe, reachRecipe } from './inspect.js';
