/** Builds the playground into web/dist/ and serves it on 127.0.0.1 (port 0: a free one). */
export function startPlayground(port?: number): Promise<{ url: string; close: () => Promise<void> }>;
/** Serves the folder `dir` on 127.0.0.1:`port`. */
export function serve(dir: string, port?: number): Promise<{ url: string; close: () => Promise<void> }>;
