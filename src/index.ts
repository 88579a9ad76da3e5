/** gdl-grounder's library API: one typed entry function per stage. */
export * from './gdl/ast.js';
export { parseGdl, type ParseResult } from './gdl/parser.js';
export { type Diagnostic, GdlError, formatDiagnostic, sortDiagnostics } from './gdl/diagnostics.js';
export { termToString, atomToString } from './gdl/terms.js';
export { validateGame, type ValidationResult } from './gdl/validate.js';
export { summarizeGame, formatSummary, type GameSummary } from './gdl/validate-summary.js';
