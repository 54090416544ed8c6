// A bare node:http client for socket-level fault tests: it tells a reset from an empty answer, counts body chunks and can give up.
import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Body chunks as they arrived, to see a dribble. */
  chunks: number;
  ms: number;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Give up (destroy the socket) after this many ms without an answer. */
  timeoutMs?: number;
}

/** Resolves with the answer, or rejects with the socket error (`read ECONNRESET`, `socket hang up`, `timeout`). */
export function rawRequest(url: string, options: RawOptions = {}): Promise<RawAnswer> {
  const started = performance.now();
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: options.method ?? 'GET',
      agent: false,
      headers: {
        ...(payload
          ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
          : {}),
        ...options.headers,
      },
    });
    if (options.timeoutMs) req.setTimeout(options.timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      let chunks = 0;
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        chunks += 1;
        body += c;
      });
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, chunks, ms: performance.now() - started }),
      );
    });
    req.end(payload);
  });
}
