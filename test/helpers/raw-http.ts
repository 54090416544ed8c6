// A bare HTTP client for property and load tests: any method, repeated headers, raw bytes; one keep-alive agent per emulator.
import { Agent, request } from 'node:http';

export interface RawRequest {
  method: string;
  path: string;
  /** Pairs, so a header can repeat or carry odd casing. */
  headers?: [string, string][];
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json(): any;
}

export interface RawClient {
  send(req: RawRequest): Promise<RawResponse>;
  close(): void;
}

export function rawClient(baseUrl: string, maxSockets = 64): RawClient {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    send: (req) =>
      new Promise<RawResponse>((resolve, reject) => {
        // An object, not a raw array: with a raw array Node cannot see Content-Length and adds chunked encoding too.
        // A header given twice becomes an array, which Node sends as two header lines.
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of req.headers ?? []) {
          const key = name.toLowerCase();
          const prior = headers[key];
          headers[key] = prior === undefined ? value : [prior, value].flat();
        }
        const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
        if (body !== undefined && headers['content-length'] === undefined)
          headers['content-length'] = String(body.length);
        const outgoing = request(
          { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const bytes = Buffer.concat(chunks);
              resolve({
                status: res.statusCode ?? 0,
                headers: res.headers,
                body: bytes,
                json: () => JSON.parse(bytes.toString('utf8')),
              });
            });
            res.on('error', reject);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      }),
    close: () => agent.destroy(),
  };
}

export const bearer = (key: string): [string, string] => ['Authorization', `Bearer ${key}`];
export const jsonType: [string, string] = ['Content-Type', 'application/json'];
