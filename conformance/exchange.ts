// Sends one raw request (repeated headers, exact bytes, no implicit Content-Type) and collects the raw answer.
import { Agent, request } from 'node:http';
import type { RawRequest } from './cases.js';

export interface RawAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

export function makeSender(baseUrl: string, auth: string) {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const once = (req: RawRequest, fresh: boolean): Promise<RawAnswer> =>
    new Promise((resolve) => {
      const headers: [string, string][] = [
        ['Host', url.host],
        ['Authorization', `Bearer ${auth}`],
        ...req.headers,
        ['Content-Length', String(req.body?.length ?? 0)],
      ];
      const outgoing = request(
        {
          agent: fresh ? false : agent,
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.path,
          headers: headers.flat(),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      // A dropped connection is an answer too (status 0), so it shows up as a mismatch class, not a crash.
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ status: 0, contentType: `connection error ${error.code ?? error.message}`, body: Buffer.alloc(0) }),
      );
      outgoing.end(req.body);
    });
  // A kept-alive socket the server closed while idle resets on reuse; that says nothing about the answer, so retry once.
  const send = async (req: RawRequest): Promise<RawAnswer> => {
    const first = await once(req, false);
    return first.status === 0 ? once(req, true) : first;
  };
  return { send, close: () => agent.destroy() };
}
