/**
 * The two Node globals the core still reads, for the browser bundle (esbuild's `inject`
 * replaces the free identifiers `process` and `Buffer` by these): `process.memoryUsage` (the
 * stage timer's memory column; only with a memory limit does the deadline read it, and the
 * playground sets none), `process.cpuUsage` (the playouts' CPU seconds) and
 * `Buffer.byteLength` (the byte counts of the stats). `browser: true` keeps Tau-Prolog from
 * taking the page for Node, and `window` is the worker's global object, which Tau-Prolog keeps.
 */

/** The JavaScript heap Chrome reports (performance.memory), else 0. */
function heapUsed(): number {
  const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  return memory?.usedJSHeapSize ?? 0;
}

const memoryUsage = Object.assign(() => ({ rss: heapUsed(), heapUsed: heapUsed(), heapTotal: 0, external: 0, arrayBuffers: 0 }), { rss: heapUsed });

/** A stand-in for Node's `process`: the members the core uses. */
export const process = {
  browser: true,
  env: {},
  memoryUsage,
  // No CPU clock in a page: the wall clock stands in (a worker runs on one thread).
  cpuUsage: (since?: { user: number; system: number }) => {
    const user = performance.now() * 1000;
    return { user: user - (since?.user ?? 0), system: 0 };
  },
};

const encoder = new TextEncoder();

/** A stand-in for Node's `Buffer`: UTF-8 byte lengths. */
export const Buffer = {
  byteLength: (s: string) => encoder.encode(s).length,
};

/** Tau-Prolog keeps `window` (the global object of a page) as its environment; a worker has none. */
export const window = globalThis;
