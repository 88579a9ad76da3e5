/**
 * What the worker's bundle needs besides the library (esbuild's `inject` replaces the free
 * identifier `window` by this): Tau-Prolog keeps `window`, the global object of a page, as its
 * environment, and a worker has none. The library itself reads Node's `process` and `Buffer`
 * only where they exist.
 */

/** The worker's global object, where Tau-Prolog expects a page's `window`. */
export const window = globalThis;
