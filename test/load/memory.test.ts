// Memory and retention: RSS of an emulator process after 10,000 generations (instant timing, shared renders), and eviction of expired outputs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { transpileDist, type TranspiledPackage } from '../../scripts/transpile-dist.js';
import { takeViolations } from '../helpers/contract.js';
import { client, makeEmulator } from '../helpers/emulator.js';
import { rawClient } from '../helpers/raw-http.js';

const GENERATIONS = Number(process.env.MEMORY_TEST_GENERATIONS ?? 10_000);
const RSS_LIMIT_MB = 250;
const children: ChildProcess[] = [];
let dist: TranspiledPackage | undefined;

afterAll(() => {
  for (const child of children) child.stdin?.end();
  dist?.remove();
});

/** Resident set size of another process, from /proc (Linux); undefined elsewhere. */
function rssMb(pid: number): number | undefined {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return undefined;
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) / 1024 : undefined;
}

/** The emulator as users run it (plain JavaScript, no TypeScript loader), alone in its process so RSS is its own. */
const SERVER = `import { startEmulator } from './dist/index.js';
const running = await startEmulator(JSON.parse(process.argv[2] ?? '{}'));
process.stdout.write(JSON.stringify({ url: running.url, apiKey: running.apiKey, pid: process.pid }) + '\\n');
process.stdin.resume();
process.stdin.on('end', () => void running.close().then(() => process.exit(0)));
`;

async function startProcess(options: object): Promise<{ url: string; apiKey: string; pid: number }> {
  dist ??= transpileDist();
  const script = join(dist.root, 'memory-server.mjs');
  writeFileSync(script, SERVER);
  const child = spawn(process.execPath, [script, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
    });
    child.once('exit', (code) => reject(new Error(`emulator process exited with ${code}`)));
  });
}

describe('memory and retention', () => {
  it(`keeps an emulator process under ${RSS_LIMIT_MB} MB RSS after ${GENERATIONS} generations (instant timing, shared renders)`, {
    timeout: 120_000,
  }, async () => {
    const server = await startProcess({
      timing: 'instant',
      outputLabel: 'request',
      initialBalance: 100 * GENERATIONS * 88,
    });
    const http = rawClient(server.url, 32);
    const headers: [string, string][] = [
      ['Authorization', `Bearer ${server.apiKey}`],
      ['Content-Type', 'application/json'],
    ];
    const body = JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'memory test', max_credits: 1000 });
    let next = 0;
    let refused = 0;
    const worker = async () => {
      while (next < GENERATIONS) {
        const i = next++;
        const res = await http.send({
          method: 'POST',
          path: '/v1/media/generations',
          headers: [...headers, ['Idempotency-Key', `memory-${i.toString().padStart(6, '0')}`]],
          body,
        });
        if (res.status !== 202) refused++;
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    expect(refused).toBe(0);
    // Every generation completes from the one shared render.
    for (let tries = 0; tries < 600; tries++) {
      const page = (
        await http.send({ method: 'GET', path: '/v1/media/generations?status=completed&limit=1', headers })
      ).json();
      const pending = (
        await http.send({ method: 'GET', path: '/v1/media/generations?status=pending&limit=1', headers })
      ).json();
      const runningPage = (
        await http.send({ method: 'GET', path: '/v1/media/generations?status=running&limit=1', headers })
      ).json();
      if (page.generations.length && !pending.generations.length && !runningPage.generations.length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const health = (await http.send({ method: 'GET', path: '/_emulator/health' })).json();
    expect(health.generations).toBe(GENERATIONS);
    const rss = rssMb(server.pid);
    http.close();
    console.log(`memory: ${GENERATIONS} generations, emulator process RSS ${rss?.toFixed(1) ?? 'unknown'} MB`);
    if (rss !== undefined) expect(rss).toBeLessThan(RSS_LIMIT_MB);
  });

  it('evicts outputs whose URLs have expired once the store is over its cap, and keeps those still signed', {
    timeout: 60_000,
  }, async () => {
    const emulator = makeEmulator({ timing: 'instant', outputLabel: 'request', maxStoreBytes: 1, clock: 'real' });
    await emulator.ready;
    const api = client(emulator);
    const submitImage = async (prompt: string) => {
      const res = await api.submit({ model_slug: 'still-sketch-v1', prompt, max_credits: 1000 }, `evict-${prompt}`);
      expect(res.status).toBe(202);
      return res.body.generation.id as string;
    };
    /** A fresh signed URL of the generation's first output, fetched: 200 while stored, 404 once evicted. */
    const download = async (id: string) => {
      for (let tries = 0; tries < 200; tries++) {
        const read = await api.get(`/v1/media/generations/${id}`);
        if (read.body.generation.status === 'completed') {
          const url = new URL(read.body.generation.outputs[0].url);
          return api.raw.get(`${url.pathname}${url.search}`);
        }
        await emulator.settle();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`${id} did not complete`);
    };
    // Each output is read (its URL signed) before the next render lands: over a 1-byte cap, none may go while its URL is valid.
    const first: string[] = [];
    for (const prompt of ['one', 'two', 'three']) {
      first.push(await submitImage(prompt));
      expect((await download(first[first.length - 1])).status).toBe(200);
    }
    for (const id of first) expect((await download(id)).status).toBe(200);
    // Past the URL lifetime (one hour), the next stored render evicts the expired files.
    await emulator.advance(2 * 3600 * 1000);
    const latest = await submitImage('four');
    expect((await download(latest)).status).toBe(200);
    for (const id of first) {
      const gone = await download(id);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('output_not_found');
    }
    expect(takeViolations()).toEqual([]);
  });
});
