// Sandboxes (issue 37): creation over HTTP, the memory of 1,000 idle ones, a restart with 1,000 on a state file, and
// the public API's cost with 1,000 present, each against a baseline in the same run. Every emulator runs in a process
// of its own (the bench process only measures). Run: node --import tsx bench/sandboxes.ts [--write]
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cpuMs } from './process-cpu.js';
import { measure } from './throughput.js';

const HEADING = '## Sandboxes (issue 37)';
const SANDBOXES = 1000;
const CREATES = 200;
const SECONDS = 6;
const ROUNDS = Number(process.env.SANDBOX_BENCH_ROUNDS ?? 3);
const PAIRS = Number(process.env.SANDBOX_BENCH_PAIRS ?? 3);
// Diagnostics: SANDBOX_BENCH_MANY=1 compares two like emulators (the method's own spread); SANDBOX_BENCH_KEEP_LAST=1
// deletes all but the last sandbox before the rounds (the code's warm-up kept, the heap's growth gone);
// SANDBOX_BENCH_TRACE=1 prints every round, with the collector's pauses.
const MANY = Number(process.env.SANDBOX_BENCH_MANY ?? SANDBOXES);
const KEEP_LAST = process.env.SANDBOX_BENCH_KEEP_LAST === '1';
const TRACE = process.env.SANDBOX_BENCH_TRACE === '1';
// SANDBOX_BENCH_PROFILE=<dir>: each emulator of the public pairs writes V8 CPU profiles (one per thread) to a folder
// of that directory named after its pair and side.
const PROFILE_DIR = process.env.SANDBOX_BENCH_PROFILE;
const SUBMISSION = JSON.stringify({ model_slug: 'still-sketch-v1', prompt: 'bench', max_credits: 100 });

type Message = Record<string, unknown>;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};

async function post(url: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Message;
}

/**
 * The emulator as users run it: compiled (`npm run build`), not src/ through tsx, whose kept function names give every
 * closure a property store of its own and so inflate each sandbox's heap.
 */
async function compiledEmulator(): Promise<typeof import('../src/index.js')> {
  const built = new URL('../dist/index.js', import.meta.url);
  if (!existsSync(built))
    throw new Error('bench/sandboxes.ts measures the compiled emulator: run `npm run build` first');
  return import(built.href);
}

/** The emulator's side: started as told, it answers the bench's messages. */
async function serve() {
  const { startEmulator } = await compiledEmulator();
  const stateFile = process.env.BENCH_STATE_FILE;
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  const running = await startEmulator({ ffmpegPath: false, timing: 'manual', initialBalance: 10_000_000, stateFile });
  const health = await fetch(`${running.url}/_emulator/health`);
  const healthyMs = performance.now() - began;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  if (health.status !== 200) throw new Error(`health answered ${health.status}`);
  const gcRss = () => {
    (globalThis as { gc?: () => void }).gc?.();
    return process.memoryUsage.rss();
  };
  // The collector's main-thread pauses so far, by kind: where a route's extra CPU with 1,000 sandboxes goes.
  const gcPauses = { minor: 0, major: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gcPauses.minor += entry.duration;
      else gcPauses.major += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('message', async (message: Message) => {
    if (message.type === 'rss') process.send?.({ rss: gcRss() });
    else if (message.type === 'gc') process.send?.({ ...gcPauses, heap: process.memoryUsage().heapUsed });
    else if (message.type === 'create') {
      const keys: string[] = [];
      for (let i = 0; i < Number(message.count); i++) {
        const created = (await running.control.createSandbox({ label: `bench ${i}` })) as { apiKey: string };
        keys.push(created.apiKey);
      }
      if (message.keepLast) {
        const listed = (await running.control.sandboxes()) as { id: string }[];
        for (const sandbox of listed.slice(0, -1)) await running.control.deleteSandbox(sandbox.id);
        (globalThis as { gc?: () => void }).gc?.();
      }
      process.send?.({ keys });
    } else if (message.type === 'stop') {
      await running.close();
      process.exit(0);
    }
  });
  process.send?.({ url: running.url, healthyMs, cpuMs });
}

/** An emulator process; resolves once it listens, with its URL and its start-to-healthy time. */
function spawn(
  env: Record<string, string> = {},
  profileAs?: string,
): Promise<{ child: ChildProcess; url: string; healthyMs: number; cpuMs: number }> {
  const profile = PROFILE_DIR && profileAs ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, profileAs)}`] : [];
  const child = fork(fileURLToPath(import.meta.url), ['serve'], {
    execArgv: ['--import', 'tsx', '--expose-gc', ...profile],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: Message) =>
      resolve({ child, url: String(m.url), healthyMs: Number(m.healthyMs), cpuMs: Number(m.cpuMs) }),
    );
    child.once('exit', (code) => reject(new Error(`the emulator process exited with ${code}`)));
  });
}

const ask = (child: ChildProcess, message: Message): Promise<Message> =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send(message);
  });

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.send({ type: 'stop' });
  });

/** Creation over HTTP, against another control POST of the same size (a balance change) in the same process. */
async function creation() {
  const { child, url } = await spawn();
  const create: number[] = [];
  const balance: number[] = [];
  for (let i = 0; i < CREATES; i++) {
    let at = performance.now();
    await post(url, '/_emulator/sandboxes', { label: `bench ${i}` });
    create.push(performance.now() - at);
    at = performance.now();
    await post(url, '/_emulator/accounts/acct_local/balance', { add: 1 });
    balance.push(performance.now() - at);
  }
  await stop(child);
  return { create, balance };
}

/** RSS after a GC, before and after creating 1,000 idle sandboxes; the same read twice without any, as the noise. */
async function memory() {
  const { child } = await spawn();
  const before = Number((await ask(child, { type: 'rss' })).rss);
  const idle = Number((await ask(child, { type: 'rss' })).rss);
  await ask(child, { type: 'create', count: SANDBOXES });
  const after = Number((await ask(child, { type: 'rss' })).rss);
  await stop(child);
  return { before, idle, after };
}

/** Start to healthy on a state file holding 1,000 sandboxes, against the same file's default world alone. */
async function restart() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sandboxes-'));
  try {
    const measureStart = async (file: string, count: number) => {
      const first = await spawn({ BENCH_STATE_FILE: file });
      if (count > 0) await ask(first.child, { type: 'create', count });
      await stop(first.child);
      const times: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < 3; i++) {
        const again = await spawn({ BENCH_STATE_FILE: file });
        times.push(again.healthyMs);
        cpu.push(again.cpuMs);
        await stop(again.child);
      }
      return { times, cpu };
    };
    const baseline = await measureStart(join(dir, 'alone.db'), 0);
    const full = await measureStart(join(dir, 'full.db'), SANDBOXES);
    return { baseline, full };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Side = 'one' | 'many';
type RouteResult = Record<Side, number[]>;

/** Requests per second and the emulator's CPU per 1,000 answers of one round, with the collector's pauses meanwhile. */
async function timedRound(child: ChildProcess, url: string, load: Parameters<typeof measure>[1]) {
  const pid = child.pid as number;
  const gcBefore = await ask(child, { type: 'gc' });
  const before = cpuMs(pid);
  const result = await measure(url, load, SECONDS);
  const cpu = cpuMs(pid) - before;
  const gcAfter = await ask(child, { type: 'gc' });
  if (result.bad > 0) throw new Error(`${load.method} ${load.path}: ${result.bad} non-2xx answers`);
  const perThousand = (ms: number) => (ms / result.requests) * 1000;
  return {
    rps: result.rps,
    cpu: perThousand(cpu),
    gcMinor: perThousand(Number(gcAfter.minor) - Number(gcBefore.minor)),
    gcMajor: perThousand(Number(gcAfter.major) - Number(gcBefore.major)),
  };
}

/**
 * One pair of fresh emulator processes, one sandbox against MANY, in ROUNDS alternating rounds (the order alternates
 * too): each side's median request rate and CPU per 1,000 answers, per route.
 */
async function publicPair(pair: number) {
  const one = await spawn({}, `pair${pair}-one`);
  const many = await spawn({}, `pair${pair}-many`);
  const keyOne = ((await ask(one.child, { type: 'create', count: 1 })).keys as string[])[0];
  const keysMany = (await ask(many.child, { type: 'create', count: MANY, keepLast: KEEP_LAST })).keys as string[];
  const sides = [
    ['one', one, keyOne],
    ['many', many, keysMany[keysMany.length - 1]],
  ] as const;
  const ids = new Map<ChildProcess, string>();
  for (const [, side, key] of sides) {
    const res = await fetch(`${side.url}/v1/media/generations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'bench-get' },
      body: SUBMISSION,
    });
    ids.set(side.child, ((await res.json()) as { generation: { id: string } }).generation.id);
  }
  const rounds = { submit: { rps: newSides(), cpu: newSides() }, get: { rps: newSides(), cpu: newSides() } };
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, side, key] of round % 2 === 0 ? sides : [...sides].reverse()) {
      const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      const loads = {
        submit: { method: 'POST', path: '/v1/media/generations', body: SUBMISSION, headers, freshKey: true },
        get: { method: 'GET', path: `/v1/media/generations/${ids.get(side.child)}`, headers },
      } as const;
      for (const route of ['submit', 'get'] as const) {
        const r = await timedRound(side.child, side.url, loads[route]);
        rounds[route].rps[name].push(r.rps);
        rounds[route].cpu[name].push(r.cpu);
        if (TRACE)
          console.log(
            `pair ${pair} round ${round} ${name} ${route}: ${r.rps.toFixed(0)} req/s, CPU ${r.cpu.toFixed(1)} ms, GC pauses minor ${r.gcMinor.toFixed(2)} major ${r.gcMajor.toFixed(2)} ms (per 1,000 answers)`,
          );
      }
    }
  await stop(one.child);
  await stop(many.child);
  const medians = (sides: RouteResult) => ({ one: median(sides.one), many: median(sides.many) });
  return {
    submit: { rps: medians(rounds.submit.rps), cpu: medians(rounds.submit.cpu) },
    get: { rps: medians(rounds.get.rps), cpu: medians(rounds.get.cpu) },
  };
}

const newSides = (): RouteResult => ({ one: [], many: [] });

/**
 * Submission and GET by id with one sandbox vs 1,000 present, through the last sandbox's key. A process keeps its own
 * speed for its life (two identical emulators differed by 10% in CPU per answer, round after round: heap layout, code
 * placement), so the ratio is taken per pair of fresh processes and the median of PAIRS pairs is reported.
 */
async function publicCost() {
  const pairs: Awaited<ReturnType<typeof publicPair>>[] = [];
  for (let pair = 0; pair < PAIRS; pair++) pairs.push(await publicPair(pair));
  const ratios = (route: 'submit' | 'get', measure: 'rps' | 'cpu') =>
    pairs.map((p) => p[route][measure].many / p[route][measure].one);
  const values = (route: 'submit' | 'get', measure: 'rps' | 'cpu', side: Side) =>
    pairs.map((p) => p[route][measure][side]);
  return { ratios, values };
}

/** `SANDBOX_BENCH_PUBLIC_ONLY=1`: the public API's pairs alone. */
async function publicOnly() {
  const cost = await publicCost();
  for (const route of ['submit', 'get'] as const)
    for (const measure of ['rps', 'cpu'] as const) {
      const ratios = cost.ratios(route, measure);
      console.log(
        `${route} ${measure}: ${median(ratios).toFixed(2)}x (pairs ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
      );
    }
}

async function bench() {
  if (process.env.SANDBOX_BENCH_PUBLIC_ONLY) return publicOnly();
  const load = loadavg()[0];
  console.log('creation over HTTP ...');
  const created = await creation();
  console.log('memory of 1,000 idle sandboxes ...');
  const mem = await memory();
  console.log('restart with 1,000 on a state file ...');
  const restarted = await restart();
  console.log('public API with 1,000 sandboxes vs one ...');
  const cost = await publicCost();

  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const growth = mem.after - mem.before;
  const list = (values: number[], digits: number) => values.map((v) => v.toFixed(digits)).join(', ');
  /** A route's request rate (at least 0.9x of one sandbox's) and its CPU per 1,000 answers (at most 1.1x), per pair. */
  const publicRows = (route: string, key: 'submit' | 'get') => {
    const rps = median(cost.ratios(key, 'rps'));
    const cpu = median(cost.ratios(key, 'cpu'));
    return [
      [
        `${route}, req/s, 1,000 sandboxes / one`,
        `${list(cost.values(key, 'rps', 'many'), 0)} req/s`,
        `${list(cost.values(key, 'rps', 'one'), 0)} req/s (${rps.toFixed(2)}×; pairs ${list(cost.ratios(key, 'rps'), 2)})`,
        '≥ 0.9×',
        rps >= 0.9 ? 'yes' : 'no',
      ],
      [
        `${route}, emulator CPU per 1,000 answers, 1,000 sandboxes / one`,
        `${list(cost.values(key, 'cpu', 'many'), 1)} ms`,
        `${list(cost.values(key, 'cpu', 'one'), 1)} ms (${cpu.toFixed(2)}×; pairs ${list(cost.ratios(key, 'cpu'), 2)})`,
        '≤ 1.1×',
        cpu <= 1.1 ? 'yes' : 'no',
      ],
    ];
  };
  const rows = [
    [
      'Create a sandbox over HTTP (p50 of 200; p95)',
      `${median(created.create).toFixed(2)} ms (p95 ${percentile(created.create, 0.95).toFixed(2)})`,
      `balance change ${median(created.balance).toFixed(2)} ms (p95 ${percentile(created.balance, 0.95).toFixed(2)})`,
      '≤ 5 ms',
      median(created.create) <= 5 ? 'yes' : 'no',
    ],
    [
      `RSS growth for ${SANDBOXES} idle sandboxes (after GC)`,
      `${mb(growth)} (${(growth / SANDBOXES / 1024).toFixed(0)} KB each)`,
      `noise ${mb(Math.abs(mem.idle - mem.before))}; ${mb(mem.before)} before`,
      '≤ 150 MB',
      growth <= 150 * 1024 * 1024 ? 'yes' : 'no',
    ],
    [
      `Restart to healthy with ${SANDBOXES} sandboxes on a state file (median of 3)`,
      `${median(restarted.full.times).toFixed(0)} ms (${restarted.full.times.map((t) => t.toFixed(0)).join(', ')}); CPU ${median(restarted.full.cpu).toFixed(0)} ms`,
      `no sandbox ${median(restarted.baseline.times).toFixed(0)} ms; CPU ${median(restarted.baseline.cpu).toFixed(0)} ms`,
      '≤ 2 s',
      median(restarted.full.times) <= 2000 ? 'yes' : 'no',
    ],
    ...publicRows('POST /v1/media/generations (fresh key)', 'submit'),
    ...publicRows('GET /v1/media/generations/{id}', 'get'),
  ];
  const table = [
    '| Measure | Sandboxes | Baseline (same run) | Target | Met |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
  console.log(table.join('\n'));
  const section = [
    HEADING,
    '',
    `Command: \`node --import tsx bench/sandboxes.ts --write\`. Date: ${new Date().toISOString()}.`,
    `Machine: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, 1-minute load ${load.toFixed(1)} at the start (other sessions share the machine).`,
    '',
    'Every emulator runs in a process of its own, compiled as users run it (dist/, `npm run build`; `timing: manual`, fixture renders); the bench process sends the requests.',
    `Creation: ${CREATES} sequential POST /_emulator/sandboxes over loopback HTTP, each followed by a balance change (another control POST) as the baseline.`,
    `Memory: RSS after \`gc()\` before and after creating ${SANDBOXES} sandboxes; the noise is two reads with nothing between.`,
    `Restart: a new process on a state file written with ${SANDBOXES} sandboxes, from the call of startEmulator() to the first 200 of /_emulator/health (wall time, and the CPU time the process used meanwhile, which other processes on the machine do not inflate), against a file without sandboxes.`,
    `Public API: autocannon, 10 connections, ${SECONDS} s rounds, with the key of the last sandbox created; an emulator holding ${SANDBOXES} sandboxes against one holding one, ${PAIRS} pairs of fresh processes (each pair ${ROUNDS} alternating rounds, medians; a figure per pair), the ratio the median of the pairs' ratios. The cost is also read as the emulator process's own CPU time (/proc) per 1,000 answers, which other processes on the machine disturb less than the request rate.`,
    '',
    ...table,
    '',
  ].join('\n');
  if (process.argv.includes('--write')) {
    const path = fileURLToPath(new URL('RESULTS.md', import.meta.url));
    const existing = readFileSync(path, 'utf8');
    const at = existing.indexOf(HEADING);
    const next = at === -1 ? -1 : existing.indexOf('\n## ', at + HEADING.length);
    const updated =
      at === -1
        ? `${existing.trimEnd()}\n\n${section}`
        : `${existing.slice(0, at)}${section}${next === -1 ? '' : `\n${existing.slice(next + 1)}`}`;
    writeFileSync(path, updated);
  }
}

if (process.argv[2] === 'serve') await serve();
else await bench();
