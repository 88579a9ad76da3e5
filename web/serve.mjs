// `npm run playground`: builds the playground (build.mjs) and serves it on localhost with a
// tiny static file server, printing the URL. PORT (or the first argument) picks the port;
// 0 picks a free one.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPlayground } from './build.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Serves the folder `dir` on 127.0.0.1:`port`; resolves to the URL and a function that stops it. */
export function serve(dir, port = 0) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(dir + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      done({ url: `http://127.0.0.1:${actual}/`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

/** Builds the playground and serves it. */
export async function startPlayground(port = 0) {
  const dir = resolve(await buildPlayground());
  return serve(dir, port);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  const { url } = await startPlayground(port);
  console.log(`gdl-grounder playground: ${url}  (Ctrl+C stops it)`);
}
