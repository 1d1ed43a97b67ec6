// A minimal static file server on loopback, to view the site under a sub-path as GitHub Pages serves it.
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.xml': 'application/atom+xml; charset=utf-8', '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml' };

/**
 * Serves `dir` at http://127.0.0.1:<port><prefix> (prefix like '/repo/'); everything else is 404.
 * port 0 picks a free port. Resolves to { url, port, close() }.
 */
export function serveStatic(dir, { prefix = '/', port = 0 } = {}) {
  const root = resolve(dir);
  const base = prefix.endsWith('/') ? prefix : `${prefix}/`;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    if (`${path}/` === base && base !== '/') {
      // as GitHub Pages does: the page's relative links (app.js, data/) only resolve under the folder's own URL
      res.writeHead(301, { location: base }).end();
      return;
    }
    if (!path.startsWith(base)) {
      res.writeHead(404).end('not found');
      return;
    }
    let file = normalize(join(root, path.slice(base.length)));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const size = statSync(file).size;
      res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'content-length': size, 'cache-control': 'no-cache' });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    // loopback only: the site is for the person at this machine
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address();
      ok({ url: `http://127.0.0.1:${p}${base}`, port: p, close: () => new Promise((done) => server.close(done)) });
    });
  });
}
