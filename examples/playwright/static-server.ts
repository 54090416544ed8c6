// Serves the example front end (app/) on a free loopback port: another origin than the emulator, as in real life.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fixed table: no path from the request ever reaches the file system. */
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
};

export async function serveApp(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const entry = FILES[new URL(req.url ?? '/', 'http://app').pathname];
    if (!entry) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': entry.type }).end(readFileSync(new URL(`app/${entry.file}`, import.meta.url)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
