// Serves an app on one port and says where: a server that answers refused requests readably, its shown URL.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { answerClientErrors } from './client-errors.js';

/** The shown URL names a host a client can reach: 127.0.0.1 for the wildcard addresses, brackets around IPv6. */
export function shownHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Listens on `port` at `host` (0: any free port), adding the server to `servers` so a close can stop it. */
export async function listenOn(
  app: Express,
  servers: Set<Server>,
  port: number,
  host: string,
): Promise<{ url: string; server: Server }> {
  const server = createServer(app);
  answerClientErrors(server);
  servers.add(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { url: `http://${shownHost(host)}:${address.port}`, server };
}
