// Serves a folder of bundled pages to the browser tests and benches: loopback, no HTTP cache, the file names only (no path from the request).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const TYPES: Record<string, string> = { js: 'text/javascript', wasm: 'application/wasm', html: 'text/html' };

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * `root/<folder>/<file>` at `/<folder>/<file>` ('/' and '/<folder>/' answer index.html), `Cache-Control: no-store` so
 * every page fetches (and compiles) afresh; `seen` is told each path asked for.
 */
export async function servePages(root: string, seen: (path: string) => void = () => {}): Promise<PageServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname;
    seen(path);
    const parts = path.replace(/\/$/, '/index.html').split('/').filter(Boolean);
    try {
      if (parts.some((part) => !/^[\w.-]+$/.test(part) || part.startsWith('.'))) throw new Error('not a page file');
      const body = readFileSync(join(root, ...parts));
      const type = TYPES[parts.at(-1)?.split('.').pop() ?? ''] ?? 'text/plain';
      res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One empty page on a loopback origin of its own (another port is another origin), for cross-origin browser tests. */
export async function serveBlankPage(title: string): Promise<PageServer> {
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html><title>${title}</title><h1>${title}</h1>`),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
