/**
 * gdl-grounder's library API, in pipeline order: one typed entry function per stage, plus the
 * orchestrator that runs them. Every function takes and returns immutable data and throws
 * GdlError (positioned diagnostics) on invalid input or a resource limit.
 */

// The whole pipeline.
export {
  runGrounding, loadGame, reachGame, groundGame, groundNormalGame, postProcessedSupersets, readBackSupersets,
  analyzeDependencyGraph, drawDependencyGraph, emitGround, verifyGrounding, summarizeLoaded, resolvePipelineOptions,
  defaultPipelineOptions, type PipelineOptions, type PipelineSettings, type LoadedGame, type ReachMethod,
  type GroundFormat, type GraphFormat,
} from './pipeline/stages.js';
export { Deadline } from './deadline.js';
export { StageTimer, formatStages, type StageRecord } from './timer.js';

// 1. Parse and validate.
export * from './gdl/ast.js';
export { parseGdl, type ParseResult } from './gdl/parser.js';
export { type Diagnostic, GdlError, formatDiagnostic, sortDiagnostics } from './gdl/diagnostics.js';
export { termToString, atomToString } from './gdl/terms.js';

// 2. Normalize, and the validation judged on normal form.
export { validateGame, type ValidationResult } from './normalize/validate.js';
export { summarizeGame, formatSummary, type GameSummary } from './normalize/summary.js';
export { normalizeGame, normalizeRule, assembleNormalGame, DEFAULT_NORMALIZE_OPTIONS, type NormalizeOptions, type NormalForm } from './normalize/normalize.js';
export type { NormalGame, NormalRule, Literal } from './normalize/types.js';

// 3. Supersets: Algorithm 9.2 (Prolog) and 9.3/9.4 (argument dependency graph).
export { DEFAULT_REACH_LIMITS, type Supersets, type Move, type ReachStats, type ReachLimits, type ReachResult } from './reach/types.js';
export { computeSupersetsProlog, DEFAULT_MAX_TERM_DEPTH, type PrologReachOptions, type ReachProgress } from './reach/prolog.js';
export { formatSupersets, supersetSentences, type SupersetSentences } from './reach/format.js';
export { computeSupersetsDG, analyzeDG, dependencyGraph, type DGAnalysis, type SupersetSizes } from './reach/dg/index.js';
export { argGraphToDot, argGraphToText } from './reach/dg/dot.js';

// 4-5. Instantiate, then reachability on the ground rules.
export type { TermReader } from './datalog/terms.js';
export type { GroundGame, GroundAtom, GroundRule, GroundStats } from './ground/types.js';
export { atomText } from './ground/atoms.js';
export { instantiateGame, DEFAULT_INSTANTIATE_LIMITS, type InstantiateLimits } from './ground/instantiate.js';
export { pruneUnreachable, reachableAtoms, groundSupersets, finalSupersets } from './ground/reachability.js';

// 7. Unused instances and axiom removal.
export { removeUnused, neededAtoms, type UnusedStats } from './axioms/unused.js';
export { removeAxioms } from './axioms/remove.js';
export { FormulaTable, type Formula } from './axioms/formula.js';
export {
  DEFAULT_AXIOM_OPTIONS, type AxiomOptions, type AxiomResult, type AxiomStats, type FormulaGame, type FormulaRule,
  type KeptAxiom, type KeptReason,
} from './axioms/types.js';

// 8. Emit.
export { emitGdl, emitGdlLines, DEFAULT_GDL_EMIT_OPTIONS, type GdlEmitOptions } from './formats/gdl/write.js';
export { emitJson, JSON_FORMAT } from './formats/json/write.js';
export { emitFormulaGdl, emitFormulaGdlLines } from './formats/gdl/formula.js';

// Playing: the original game's reasoner, the ground simulator, and their comparison.
export { createReasoner, type ReasonerOptions } from './play/reasoner.js';
export { createGroundSimulator, type GroundSimulator, type GroundState } from './play/ground-sim.js';
export { verifyGame, formatDifference, type VerifyOptions, type VerifyResult, type VerifyStats, type Difference, type DifferenceKind } from './play/verify.js';
export type { GameSimulator, GameState, GroundItem, ItemSimulator, SimulatorText, StateInfo } from './play/types.js';
export { createRandom, type Random } from './play/random.js';
// The fast simulator of `play` (docs/play.md) and Monte-Carlo depth charges.
export { createFastSimulator, type FastSimulator } from './play/fast/simulator.js';
export { fastPlayouts, simulatorPlayouts, type PlayoutOptions, type PlayoutResult } from './play/playouts.js';

// RDDL for single-player games (docs/rddl.md): unrolling, writer, names, reader, simulator.
export { unrollRecursion, DEFAULT_UNROLL_OPTIONS, type UnrollOptions, type UnrollStats } from './axioms/unroll.js';
export { emitRddl, type RddlFiles, type RddlOptions } from './formats/rddl/write.js';
export { rddlName, parseRddlName, type NameKind } from './formats/rddl/names.js';
export { readRddl, type RddlModel, type RddlSource } from './formats/rddl/read.js';
export { createRddlSimulator, asEpisode, type RddlState, type RddlMove } from './formats/rddl/sim.js';
export { rddlFiles, unrollForRddl, verifyRddl } from './pipeline/formats.js';

// Above the pipeline: both superset methods side by side.
export { compareMethods, type Comparison, type MethodRun, type CompareSettings } from './pipeline/compare.js';

// GDDL (docs/gddl.md): the model and its three files, the reader and the simulator.
export { gddlFiles, gddlModel, readGddlFiles, verifyGddl } from './pipeline/formats.js';
export { buildGddl, DEFAULT_GDDL_OPTIONS, type GddlModel, type GddlOptions, type GddlStats, type MultiAction } from './formats/gddl/model.js';
export { writeGddl, GDDL_FILE_NAMES, type GddlFiles } from './formats/gddl/write.js';
export { termName, nameToKif, TRUE_NAME, DERIVED_PREFIX } from './formats/gddl/names.js';
export { readGddl, type GddlGame, type GddlTexts } from './formats/gddl/read.js';
export { createGddlSimulator, GddlPlayError, type GddlState } from './formats/gddl/sim.js';

// Recipes (docs/architecture.md): one per command, each sequencing the stages after loading over
// one run context; every recipe that grounds works on the game `ground` writes (groundWritten).
export * from './pipeline/recipes/index.js';
