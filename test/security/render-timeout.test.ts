// A stalled ffmpeg is killed with its whole process group after renderTimeout; the generation fails
// with render_failed, refunded in full, and its render slot is free again.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveFfmpeg } from '../../src/infra/ffmpeg/resolve-ffmpeg.js';
import { client, makeEmulator } from '../helpers/emulator.js';
import { processesMentioning } from '../helpers/process-table.js';

/** Probes go to the real ffmpeg; a render (its output is out.<ext>) starts a child that never ends, then waits on it. */
async function stallingFfmpeg(marker: number): Promise<string> {
  const real = await resolveFfmpeg({ pathEnv: process.env.PATH });
  if (!real.found) throw new Error(`this test needs ffmpeg: ${real.reason}. Install it (apt-get install ffmpeg).`);
  const script = join(mkdtempSync(join(tmpdir(), 'sec-ffmpeg-')), 'ffmpeg');
  writeFileSync(
    script,
    `#!/bin/sh\ncase "$*" in\n  *out.*) sleep ${marker} & wait ;;\n  *) exec "${real.path}" "$@" ;;\nesac\n`,
  );
  chmodSync(script, 0o755);
  return script;
}

describe('render timeout', () => {
  it('fails a stalled render with render_failed, refunds it, and leaves no process of its group behind', {
    timeout: 60_000,
  }, async () => {
    const marker = 900 + Math.floor(Math.random() * 99);
    const emulator = makeEmulator({
      ffmpegPath: await stallingFfmpeg(marker),
      renderTimeout: '1s',
      maxParallelRenders: 1,
    });
    await emulator.ready;
    expect(emulator.rendererInfo()?.mode).toBe('ffmpeg');
    const api = client(emulator);
    const before = (await api.get('/v1/media/usage')).body.wallet_balance;
    const ids: string[] = [];
    for (const n of [1, 2]) {
      const res = await api.submit(
        { model_slug: 'still-sketch-v1', prompt: `stall ${n}`, max_credits: 100 },
        `stall-key-${n}`,
      );
      ids.push(res.body.generation.id);
    }
    // One slot: the second render can only fail once the first one's slot was freed by the timeout.
    for (const id of ids) {
      const g = await emulator.control!.waitFor(id, 'final');
      expect([g.status, g.error?.code, g.billing_status]).toEqual(['failed', 'render_failed', 'refunded']);
    }
    expect((await api.get('/v1/media/usage')).body.wallet_balance).toBe(before);
    expect(processesMentioning(`sleep ${marker}`)).toEqual([]);
  });

  it('reads --render-timeout and MEDIA_EMULATOR_RENDER_TIMEOUT, and refuses a bad duration at start', async () => {
    const { cliOptions } = await import('../../src/cli/options.js');
    const flags = cliOptions(['--render-timeout', '3s'], {});
    const env = cliOptions([], { MEDIA_EMULATOR_RENDER_TIMEOUT: '250ms' });
    expect([flags !== 'help' && flags.renderTimeout, env !== 'help' && env.renderTimeout]).toEqual(['3s', '250ms']);
    expect(() => makeEmulator({ renderTimeout: 'soon' })).toThrow(/renderTimeout must be a duration/);
  });
});
