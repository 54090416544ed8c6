// Throughput of one route on one server with autocannon (loopback only, bounded in time), and the routes the benchmark compares.
import autocannon from 'autocannon';

export interface Load {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers: Record<string, string>;
  /** A fresh Idempotency-Key for every request (submissions). */
  freshKey?: boolean;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  bad: number;
}

let counter = 0;

export async function measure(url: string, load: Load, seconds: number, connections = 10): Promise<Measured> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: load.method,
        path: load.path,
        headers: load.headers,
        body: load.body,
        ...(load.freshKey
          ? {
              setupRequest: (req: autocannon.Request) => ({
                ...req,
                headers: { ...req.headers, 'idempotency-key': `bench-${process.pid}-${++counter}-key` },
              }),
            }
          : {}),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

export interface RouteCase {
  name: string;
  target: number;
  load: (apiKey: string, ids: { generation: string }) => Load;
  /** Key in the bare server's fixed answers. */
  fixed: 'estimate' | 'get' | 'submit' | 'list';
  /** Which emulator set-up serves it: `stored` has 10,000 completed generations, `manual` renders nothing. */
  emulator: 'stored' | 'manual';
}

const json = (apiKey: string) => ({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });

export const ROUTES: RouteCase[] = [
  {
    name: 'POST /v1/media/estimate',
    target: 0.75,
    fixed: 'estimate',
    emulator: 'stored',
    load: (apiKey) => ({
      method: 'POST',
      path: '/v1/media/estimate',
      headers: json(apiKey),
      body: JSON.stringify({
        model_slug: 'motion-lite-v1',
        prompt: 'a fox in the snow',
        params: { duration: '8', quality: '720p' },
      }),
    }),
  },
  {
    name: 'GET /v1/media/generations/{id}',
    target: 0.8,
    fixed: 'get',
    emulator: 'stored',
    load: (apiKey, ids) => ({
      method: 'GET',
      path: `/v1/media/generations/${ids.generation}`,
      headers: { authorization: `Bearer ${apiKey}` },
    }),
  },
  {
    name: 'POST /v1/media/generations (fresh key, timing manual)',
    target: 0.6,
    fixed: 'submit',
    emulator: 'manual',
    load: (apiKey) => ({
      method: 'POST',
      path: '/v1/media/generations',
      headers: json(apiKey),
      freshKey: true,
      body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a fox in the snow', max_credits: 1000 }),
    }),
  },
  {
    name: 'GET /v1/media/generations?limit=30 (10,000 stored)',
    target: 0.5,
    fixed: 'list',
    emulator: 'stored',
    load: (apiKey) => ({
      method: 'GET',
      path: '/v1/media/generations?limit=30',
      headers: { authorization: `Bearer ${apiKey}` },
    }),
  },
];

/**
 * Waits until no stored generation is pending or running. Their renders and status moves would otherwise run during the
 * first route's rounds: compare.ts reads each server's CPU time from /proc and would charge them to the estimate.
 */
export async function settled(url: string, headers: Record<string, string>) {
  for (let tries = 0; tries < 1200; tries++) {
    const open = await Promise.all(
      ['pending', 'running'].map(async (status) => {
        const res = await fetch(`${url}/v1/media/generations?status=${status}&limit=1`, { headers });
        return ((await res.json()) as { generations: unknown[] }).generations.length;
      }),
    );
    if (open.every((count) => count === 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url}: the stored generations did not finish within two minutes`);
}
