// The one reader of module specifiers for the tests that walk imports (architecture.test.ts, the
// declared module graph; node-free.test.ts, the browser-safe core): a regular expression per
// kind of import, so both read a module alike.

/** Static imports and re-exports (`import ... from`, `export ... from`): [whole match, `type ` if type-only, specifier]. */
const FROM = /^\s*(?:import|export)\s+(type\s)?[^'";]*?from\s*'([^']+)'/gm;
/** Side-effect imports: `import './x.js'`. */
const BARE = /^\s*import\s*'([^']+)'/gm;
/** Dynamic imports and CommonJS requires (tau-prolog is loaded with require()). */
const CALL = /\b(?:import|require)\(\s*'([^']+)'\s*\)/g;

/** Every module specifier of a source text: static imports, re-exports, dynamic imports and requires, type-only ones included. */
export function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(FROM)) out.push(m[2]!);
  for (const m of text.matchAll(BARE)) out.push(m[1]!);
  for (const m of text.matchAll(CALL)) out.push(m[1]!);
  return out;
}

/** The specifiers that load a module at run time: {@link specifiers} without the type-only ones, which are erased. */
export function runtimeSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(FROM)) if (m[1] === undefined) out.push(m[2]!);
  for (const m of text.matchAll(BARE)) out.push(m[1]!);
  for (const m of text.matchAll(CALL)) out.push(m[1]!);
  return out;
}
