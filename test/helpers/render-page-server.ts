// Bundles the browser-renderer test page and worker with esbuild (platform browser: a node: import fails the build), serves them.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGE_DIR = join(ROOT, 'test/browser/render-page');

/** The only files served besides the page: the fallback media the renderer fetches (../../../fixtures from /assets/). */
const FIXTURES = new Map([
  ['/fixtures/fallback.mp4', 'video/mp4'],
  ['/fixtures/fallback.png', 'image/png'],
  ['/fixtures/fallback.m4a', 'audio/mp4'],
]);

export interface RenderPageServer {
  url: string;
  close(): Promise<void>;
}

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [join(PAGE_DIR, entry)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export async function serveRenderPage(): Promise<RenderPageServer> {
  const [script, worker] = await Promise.all([bundle('page.ts'), bundle('worker.ts')]);
  const html =
    '<!doctype html><meta charset="utf-8"><title>browser renderer</title><script type="module" src="/assets/page.js"></script><body>';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname;
    if (path === '/') return res.writeHead(200, { 'Content-Type': 'text/html' }).end(html);
    if (path === '/assets/page.js') return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
    if (path === '/assets/worker.js') return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(worker);
    const type = FIXTURES.get(path);
    if (!type) return res.writeHead(404).end();
    readFile(join(ROOT, path)).then(
      (bytes) => res.writeHead(200, { 'Content-Type': type }).end(bytes),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
