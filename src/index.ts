/**
 * gdl-grounder's library API (docs/library.md): load a game with its diagnostics, ground it with
 * the command line's defaults, write it in any output format, find its mutex groups, and play it
 * with the fast simulator. Each step has a synchronous entry point and an async one that yields
 * to the event loop first; all take an optional abort signal and progress callback. Nothing here
 * imports a Node module: files are the `gdl-grounder/node` entry's (src/node.ts).
 */

// Settings and run control, shared by every entry point.
export type { Settings, RunControl } from './api/settings.js';
export type { StageRecord } from './timer.js';

// 1. Load and validate, with diagnostics as data.
export { loadGame, loadGameAsync, type Game, type LoadOptions, type LoadResult } from './api/load.js';
export { type Diagnostic, GdlError, formatDiagnostic } from './gdl/diagnostics.js';

// 2. Ground: the game `gdl-ground ground` writes.
export { groundGame, groundGameAsync, type GroundOptions, type Grounding } from './api/ground.js';
export type { GroundGame } from './ground/types.js';

// 3. Write it: GDL, JSON, GDL without axioms, GDDL, RDDL.
export { emitGame, emitGameAsync, type EmitOptions, type Output, type OutputFile, type OutputFormat } from './api/emit.js';

// 4. Mutex groups and the bits per state they give.
export { findMutexGroups, findMutexGroupsAsync, type MutexGroup, type MutexGroups, type MutexOptions, type MutexProof } from './api/mutex.js';

// 5. Play: the fast simulator, for players.
export { createSimulator, type PlayoutEnd, type PlayoutOptions, type Simulator, type SimulatorOptions, type State } from './api/simulator.js';
export type { PlayoutResult } from './play/playouts.js';
