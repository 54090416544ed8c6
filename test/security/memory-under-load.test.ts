// Back-to-back submissions with real renders (fast timing) keep RSS bounded: the render backlog holds small
// job descriptions only. `npm run test:soak` runs it for 40 s; npm test runs a short version.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/config.js';
import { startCli, stopCli } from '../helpers/cli-process.js';

const SECONDS = Number(process.env.SECURITY_SOAK_SECONDS ?? 8);
const RSS_LIMIT_MB = 400;

function rssMb(pid: number): number {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) throw new Error('this test reads RSS from /proc (Linux only)');
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(file, 'utf8'))?.[1] ?? 0) / 1024;
}

describe('memory under sustained load', () => {
  it(`stays under ${RSS_LIMIT_MB} MB RSS through ${SECONDS} s of back-to-back submissions`, {
    timeout: (SECONDS + 60) * 1000,
  }, async () => {
    const cli = await startCli(['--timing', 'fast', '--balance', '1000000000']);
    const pid = cli.child.pid!;
    const headers = { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' };
    let sent = 0;
    let accepted = 0;
    let peak = rssMb(pid);
    const deadline = performance.now() + SECONDS * 1000;
    const worker = async (w: number) => {
      while (performance.now() < deadline) {
        const n = sent++;
        const res = await fetch(`${cli.url}/v1/media/generations`, {
          method: 'POST',
          headers: { ...headers, 'Idempotency-Key': `soak-${w}-${n}-key` },
          body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: `soak ${n}`, max_credits: 1000 }),
        });
        await res.arrayBuffer();
        if (res.status === 202) accepted++;
        if (n % 50 === 0) peak = Math.max(peak, rssMb(pid));
      }
    };
    try {
      await Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)));
      peak = Math.max(peak, rssMb(pid));
      console.info(`${accepted} of ${sent} accepted in ${SECONDS} s; peak RSS ${Math.round(peak)} MB`);
      expect(accepted).toBe(sent);
      expect(peak).toBeLessThan(RSS_LIMIT_MB);
    } finally {
      await stopCli(cli, 'SIGTERM');
    }
  });
});
