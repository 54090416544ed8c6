// `node --import tsx bench/console-summary.ts <git ref> [--stored N]`: the console's refresh (GET /_emulator/summary)
// with N generations stored, against another commit built the same way, in one run.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { REPO_ROOT } from '../scripts/transpile-dist.js';
import type { ServerProcess } from './servers.js';
import { withRefWorktree } from './ref-worktree.js';
import { median } from './startup.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { stored: { type: 'string', default: '20000' } },
});
const ref = positionals[0];
if (!ref) throw new Error('usage: node --import tsx bench/console-summary.ts <git ref> [--stored N], e.g. main~3');
const STORED = Number(values.stored);
const READS = ['/_emulator/summary', '/_emulator/summary?q=FOX', '/_emulator/summary?status=failed&offset=50'];

/** Builds a tree's emulator with that tree's own scripts and fills it with STORED waiting generations. */
async function start(tree: string, cleanups: (() => unknown)[]): Promise<ServerProcess> {
  const { transpileDist } = await import(join(tree, 'scripts/transpile-dist.ts'));
  const { startProcess, writeServerScripts } = await import(join(tree, 'bench/servers.ts'));
  const dist = transpileDist();
  cleanups.push(() => dist.remove());
  const server: ServerProcess = await startProcess(writeServerScripts(dist).emulator, {
    timing: 'manual',
    initialBalance: 1e12,
  });
  cleanups.push(() => void server.stop());
  let n = 0;
  await autocannon({
    url: server.url,
    connections: 10,
    amount: STORED,
    requests: [
      {
        method: 'POST',
        path: '/v1/media/generations',
        body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a fox in the snow', max_credits: 1000 }),
        headers: { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json' },
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          headers: { ...req.headers, 'idempotency-key': `summary-bench-${++n}` },
        }),
      },
    ],
  });
  return server;
}

/** Milliseconds from request to the whole answer, median of 5 after one warm-up. */
async function timed(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const started = performance.now();
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    if (i > 0) times.push(performance.now() - started);
  }
  return median(times);
}

await withRefWorktree(ref, async (worktree, cleanups) => {
  const before = await start(worktree, cleanups);
  const after = await start(REPO_ROOT, cleanups);
  console.log(`${STORED.toLocaleString('en-US')} waiting generations each; load ${loadavg()[0].toFixed(1)}`);
  console.log(`| Read | ${ref} ms | this checkout ms |`);
  console.log('|---|---|---|');
  for (const path of READS) {
    const [a, b] = [await timed(`${before.url}${path}`), await timed(`${after.url}${path}`)];
    console.log(`| GET ${path} | ${a.toFixed(0)} | ${b.toFixed(0)} |`);
  }
});
