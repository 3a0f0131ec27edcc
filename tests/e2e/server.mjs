// A tiny static server for the e2e tests: 127.0.0.1 only, an ephemeral
// port, real 404s, and optionally a strict Content-Security-Policy header.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.png': 'image/png', '.svg': 'image/svg+xml' };

/**
 * Serves `root`; resolves to `{ origin, hits, close() }`. `csp` is sent with
 * every HTML page when given; `routes` maps a path to its own handler
 * `(req, res) => void`; `hits` counts the requests received.
 */
export async function serve(root, { csp, routes = {} } = {}) {
  const stats = { hits: 0 };
  const server = createServer(async (req, res) => {
    stats.hits += 1;
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (routes[path]) {
      routes[path](req, res);
      return;
    }
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      const headers = { 'content-type': type, 'cache-control': 'no-store' };
      if (csp && type.startsWith('text/html')) headers['content-security-policy'] = csp;
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    get hits() { return stats.hits; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}
