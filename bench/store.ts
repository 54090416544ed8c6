// The store of record's targets (issue 20): durable against private submissions in six 10-s windows, RSS and list with 100k generations, restart with 100k to healthy.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { transpileDist } from '../scripts/transpile-dist.js';
import { bundleCli } from '../scripts/bundle-cli.js';
import { startProcess, writeServerScripts } from './servers.js';
import { processToFirst200 } from './startup.js';
import { measure } from './throughput.js';

const WINDOWS = Number(process.env.STORE_BENCH_WINDOWS ?? 6);
const WINDOW_SECONDS = Number(process.env.STORE_BENCH_SECONDS ?? 10);
const STORED = Number(process.env.STORE_BENCH_STORED ?? 100_000);

const dist = transpileDist();
await bundleCli(join(process.cwd(), 'src'), join(dist.root, 'dist'));
const scripts = writeServerScripts(dist);
const dir = mkdtempSync(join(tmpdir(), 'store-bench-'));
const stateFile = join(dir, 'state.db');
const options = { timing: 'manual', initialBalance: 1e12 };
const durable = await startProcess(scripts.emulator, { ...options, stateFile });
const memory = await startProcess(scripts.emulator, options);

const submit = (apiKey: string) => ({
  method: 'POST' as const,
  path: '/v1/media/generations',
  body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'bench', max_credits: 1000 }),
  headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
  freshKey: true,
});
const rss = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

// 1. Submissions, the two modes alternating window by window, so both see the same machine.
const windows: { memory: number; durable: number }[] = [];
let stored = 0;
for (let i = 0; i < WINDOWS; i++) {
  const m = await measure(memory.url, submit(memory.apiKey), WINDOW_SECONDS);
  const d = await measure(durable.url, submit(durable.apiKey), WINDOW_SECONDS);
  windows.push({ memory: m.rps, durable: d.rps });
  stored += d.requests - d.bad;
  console.log(
    `window ${i + 1}: private ${Math.round(m.rps)} req/s, durable ${Math.round(d.rps)} req/s (load ${load()})`,
  );
}

// 2. Fill the durable emulator up to STORED generations, then RSS, list and restart.
if (stored < STORED) {
  const filled = await autocannon({
    url: durable.url,
    connections: 10,
    amount: STORED - stored,
    requests: [
      {
        ...submit(durable.apiKey),
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          headers: { ...req.headers, 'idempotency-key': `fill-${Math.random().toString(36).slice(2)}` },
        }),
      },
    ],
  });
  stored += filled['2xx'];
}
const rssDurable = rss(durable.pid);
const listLoad = {
  method: 'GET' as const,
  path: '/v1/media/generations?limit=30',
  headers: { Authorization: `Bearer ${durable.apiKey}` },
};
// The bare app sends the emulator's own answer, captured once, so both send the same bytes (as bench/servers.ts
// intends; an empty list, as before, compared 30 generations' views with 40 bytes).
const listAnswer = await (await fetch(`${durable.url}${listLoad.path}`, { headers: listLoad.headers })).json();
const bare = await startProcess(scripts.bare, { list: listAnswer });
const listEmulator = await measure(durable.url, listLoad, 8);
const listBare = await measure(bare.url, listLoad, 8);
await durable.stop();
await memory.stop();
await bare.stop();
const restarts: number[] = [];
for (let i = 0; i < 3; i++)
  restarts.push(
    await processToFirst200(
      [join(dist.root, 'dist/cli/main.js'), '--port', '{port}', '--state-file', stateFile],
      '/_emulator/health',
    ),
  );

// STORE_BENCH_WINDOWS=0 skips the submission windows: a quicker run of the fill, RSS, list and restart alone.
const first = windows[0];
const last = windows[windows.length - 1];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const ratio = first && median(windows.map((w) => w.durable)) / median(windows.map((w) => w.memory));
console.log(
  JSON.stringify(
    {
      windows,
      durableOverPrivate: ratio,
      flatness: first && { private: last.memory / first.memory, durable: last.durable / first.durable },
      stored,
      rssMb: rssDurable,
      list: { emulator: listEmulator.rps, bare: listBare.rps, ratio: listEmulator.rps / listBare.rps },
      restartMs: restarts,
      load: load(),
    },
    null,
    2,
  ),
);
rmSync(dir, { recursive: true, force: true });
dist.remove();
