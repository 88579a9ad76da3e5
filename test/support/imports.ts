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

/** Named imports whose every binding is `type X`: erased like `import type`. */
const ALL_TYPES = /^\s*(?:import|export)\s*\{([^}]*)\}/;

/**
 * The specifiers a module loads as soon as it is loaded: static imports and re-exports that are
 * not erased (not `import type`, not `{ type A, type B }` only) and side-effect imports; dynamic
 * imports, which load only when they run, are left out.
 */
export function staticRuntimeSpecifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(FROM)) {
    if (m[1] !== undefined) continue;
    const named = ALL_TYPES.exec(m[0]);
    const bindings = named === null ? [] : named[1]!.split(',').map((b) => b.trim()).filter((b) => b !== '');
    if (bindings.length > 0 && bindings.every((b) => b.startsWith('type '))) continue;
    out.push(m[2]!);
  }
  for (const m of text.matchAll(BARE)) out.push(m[1]!);
  return out;
}
