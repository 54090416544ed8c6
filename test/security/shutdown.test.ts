// SIGTERM / SIGINT during renders stop cleanly: exit 0, no ffmpeg (or its children) left, nothing under TMPDIR,
// and the state written when a state file is configured.
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/config.js';
import { resolveFfmpeg } from '../../src/infra/ffmpeg/resolve-ffmpeg.js';
import { openSqlConnection } from '../../src/infra/sqlite-driver.js';
import { leftUnder, startCli, stopCli } from '../helpers/cli-process.js';
import { childPids, processesMentioning } from '../helpers/process-table.js';

const scratch = mkdtempSync(join(tmpdir(), 'sec-shutdown-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Real ffmpeg for probes; each render runs a long child process (`sleep <marker>`) and waits, like a slow encode. */
async function slowFfmpeg(marker: number): Promise<string> {
  const real = await resolveFfmpeg({ pathEnv: process.env.PATH });
  if (!real.found) throw new Error(`this test needs ffmpeg: ${real.reason}. Install it (apt-get install ffmpeg).`);
  const script = join(scratch, `ffmpeg-${marker}`);
  writeFileSync(
    script,
    `#!/bin/sh\ncase "$*" in\n  *out.*) sleep ${marker} & wait ;;\n  *) exec "${real.path}" "$@" ;;\nesac\n`,
  );
  chmodSync(script, 0o755);
  return script;
}

describe.each(['SIGTERM', 'SIGINT'] as const)('%s during renders', (signal) => {
  it('exits 0 with no process of its renders left, nothing under TMPDIR, and the state written', {
    timeout: 90_000,
  }, async () => {
    const marker = 800 + Math.floor(Math.random() * 99);
    const stateFile = join(scratch, `${signal}.db`);
    const cli = await startCli(['--timing', 'instant', '--seed', '3', '--state-file', stateFile], {
      env: { FFMPEG_PATH: await slowFfmpeg(marker), MEDIA_EMULATOR_RENDER_TIMEOUT: '10m' },
    });
    const headers = { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' };
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${cli.url}/v1/media/generations`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': `shutdown-key-${i}` },
        body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: `shutdown ${i}`, max_credits: 1000 }),
      });
      expect(res.status).toBe(202);
      ids.push(((await res.json()) as { generation: { id: string } }).generation.id);
    }
    const renderingBefore = childPids(cli.child.pid!).length;
    const { code, ms } = await stopCli(cli, signal);
    console.info(
      `${signal}: exit ${code} after ${Math.round(ms)} ms with ${renderingBefore} render process(es) running`,
    );
    expect(code).toBe(0);
    expect(processesMentioning(`sleep ${marker}`)).toEqual([]);
    expect(processesMentioning(cli.tmp)).toEqual([]);
    expect(leftUnder(cli.tmp)).toEqual([]);
    expect(cli.output()).not.toContain('could not save state');
    expect(existsSync(stateFile)).toBe(true);
    const saved = openSqlConnection(stateFile);
    const stored = saved.prepare('SELECT key FROM generations').all<{ key: string }>();
    saved.close();
    expect(stored.map((g) => g.key).sort()).toEqual([...ids].sort());
  });
});
