// A tiny static file server for the built app (and for the end-to-end
// tests): 127.0.0.1 only, correct MIME types (application/wasm matters),
// no directory listings, nothing outside the served folder; a file's brotli
// copy (`<file>.br`, written by scripts/build-web.sh) when the browser takes it.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.json': 'application/json',
  '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
};

export function serve(root, port = 0) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) { res.writeHead(403).end(); return; }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      const br = /\bbr\b/.test(req.headers['accept-encoding'] ?? '') ? await readFile(`${file}.br`).catch(() => null) : null;
      const body = br ?? await readFile(file);
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store', vary: 'accept-encoding', ...(br ? { 'content-encoding': 'br' } : {}) });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [root = 'dist', port = '8080'] = process.argv.slice(2);
  serve(root, Number(port)).then((s) => {
    console.log(`Paxos Island is served at http://127.0.0.1:${s.address().port}/  (Ctrl-C to stop)`);
  }).catch((e) => {
    console.error(`error: cannot serve on 127.0.0.1:${port}: ${e.message} (try PORT=8081)`);
    process.exit(1);
  });
}
