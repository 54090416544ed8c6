// `npm run bench:compare -- <git ref> [--rounds N] [--seconds S]`: API throughput and CPU per request against another
// commit, both built the same way and measured in one run, rounds alternating; the regression check behind "within 10%".
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../scripts/transpile-dist.js';
import type { ServerProcess } from './servers.js';
import { withRefWorktree } from './ref-worktree.js';
import { cpuMs } from './process-cpu.js';
import { median } from './startup.js';
import { measure, ROUTES, settled } from './throughput.js';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '4' }, seconds: { type: 'string', default: '6' } },
});
const ref = positionals[0];
if (!ref) throw new Error('usage: npm run bench:compare -- <git ref> [--rounds N] [--seconds S], e.g. main~5');
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const STORED = 2_000;

interface Side {
  name: string;
  stored: ServerProcess;
  manual: ServerProcess;
  generation: string;
}

/** Builds a tree's emulator with that tree's own scripts, starts its two servers and stores generations to read. */
async function start(name: string, tree: string, cleanups: (() => unknown)[]): Promise<Side> {
  for (const needed of ['scripts/transpile-dist.ts', 'bench/servers.ts'])
    if (!existsSync(join(tree, needed))) throw new Error(`${name} (${tree}) has no ${needed}: pick a newer commit`);
  const { transpileDist } = await import(join(tree, 'scripts/transpile-dist.ts'));
  const { startProcess, writeServerScripts } = await import(join(tree, 'bench/servers.ts'));
  const dist = transpileDist();
  cleanups.push(() => dist.remove());
  const scripts = writeServerScripts(dist);
  const stored: ServerProcess = await startProcess(scripts.emulator, {
    timing: 'instant',
    outputLabel: 'request',
    initialBalance: 1e12,
  });
  const manual: ServerProcess = await startProcess(scripts.emulator, { timing: 'manual', initialBalance: 1e12 });
  cleanups.push(
    () => void stored.stop(),
    () => void manual.stop(),
  );
  const headers = { Authorization: `Bearer ${stored.apiKey}`, 'Content-Type': 'application/json' };
  const body = JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a fox in the snow', max_credits: 1000 });
  let next = 0;
  let generation = '';
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < STORED) {
        const key = `compare-${next++}-key`;
        const res = await fetch(`${stored.url}/v1/media/generations`, {
          method: 'POST',
          headers: { ...headers, 'Idempotency-Key': key },
          body,
        });
        generation = ((await res.json()) as { generation: { id: string } }).generation.id;
      }
    }),
  );
  await settled(stored.url, headers);
  return { name, stored, manual, generation };
}

await withRefWorktree(ref, async (worktree, cleanups) => {
  const load = loadavg()[0];
  const sides = [await start(ref, worktree, cleanups), await start('this checkout', REPO_ROOT, cleanups)];
  console.log(
    `${STORED} stored generations each; ${rounds} rounds of ${seconds} s, alternating; load ${load.toFixed(1)}`,
  );
  console.log(
    `| Route | ${ref} req/s | this checkout req/s | this / ${ref} | ${ref} CPU ms per 1,000 | this checkout | this / ${ref} |`,
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const route of ROUTES) {
    const target = (side: Side) => (route.emulator === 'stored' ? side.stored : side.manual);
    const loadOf = (side: Side) => route.load(target(side).apiKey, { generation: side.generation });
    const rps: number[][] = [[], []];
    const cpu: number[][] = [[], []];
    for (const side of sides) await measure(target(side).url, loadOf(side), 1);
    for (let round = 0; round < rounds; round++)
      for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const { url, pid } = target(sides[i]);
        const before = cpuMs(pid);
        const result = await measure(url, loadOf(sides[i]), seconds);
        rps[i].push(result.rps);
        cpu[i].push(((cpuMs(pid) - before) / result.requests) * 1000);
      }
    const [rpsBefore, rpsAfter] = rps.map(median);
    const [cpuBefore, cpuAfter] = cpu.map(median);
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    const name = route.name.replace('10,000', STORED.toLocaleString('en-US'));
    console.log(
      `| ${name} | ${fmt(rpsBefore)} | ${fmt(rpsAfter)} | ${(rpsAfter / rpsBefore).toFixed(2)} | ${fmt(cpuBefore)} | ${fmt(cpuAfter)} | ${(cpuAfter / cpuBefore).toFixed(2)} |`,
    );
  }
});
