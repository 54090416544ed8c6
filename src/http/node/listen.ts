// Serves an app on one port and says where: a server that answers refused requests readably, its shown URL.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NodeListener } from './node-listener.js';
import { answerClientErrors } from './client-errors.js';

/** The shown URL names a host a client can reach: 127.0.0.1 for the wildcard addresses, brackets around IPv6. */
export function shownHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * How often Node looks for requests past their headers timeout (its default, 30 s, would let a 10 s timeout run to
 * 40 s): a quarter of the timeout, between 10 ms and 1 s. The look is a walk of the open connections.
 */
const checkingInterval = (headersTimeoutMs: number) => Math.min(1000, Math.max(10, Math.floor(headersTimeoutMs / 4)));

/** Listens on `port` at `host` (0: any free port), adding the server to `servers` so a close can stop it. */
export async function listenOn(
  app: NodeListener,
  servers: Set<Server>,
  port: number,
  host: string,
  headersTimeoutMs: number,
): Promise<{ url: string; server: Server }> {
  // A request whose headers stall is answered 408 by Node and closed (client-errors.ts); its body's pace is watched by
  // the body readers (http/body/). requestTimeout stays Node's 5 minutes for a whole request.
  const server = createServer(
    { headersTimeout: headersTimeoutMs, connectionsCheckingInterval: checkingInterval(headersTimeoutMs) },
    app,
  );
  answerClientErrors(server);
  servers.add(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { url: `http://${shownHost(host)}:${address.port}`, server };
}
