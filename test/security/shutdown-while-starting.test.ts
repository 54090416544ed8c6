// A signal while the emulator is still starting (health "starting": the ffmpeg probes have not answered) stops it at
// once: the probes' process groups are killed, its temp folders removed, and it exits 0. The stand-in ffmpeg is a
// real process that never answers its probe, as a hung or very slow binary would.
import { chmodSync, mkdtempSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { leftUnder, startCli, stopCli } from '../helpers/cli-process.js';
import { processesMentioning } from '../helpers/process-table.js';

const scratch = mkdtempSync(join(tmpdir(), 'sec-starting-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * An "ffmpeg" whose every probe (-version, -filters, -encoders) waits, as a real process, until it is killed; the
 * promise resolves once the first probe has started (it touches a file first, seen through fs.watch). Its processes
 * are named by `ffmpeg-hangs-<marker>` (the shell) and `sleep <marker>` (its child).
 */
function hangingFfmpeg(marker: number): { path: string; probing: Promise<void> } {
  const path = join(scratch, `ffmpeg-hangs-${marker}`);
  const started = `probe-started-${marker}`;
  const probing = new Promise<void>((resolve) => {
    const watcher = watch(scratch, (_event, name) => {
      if (name !== started) return;
      watcher.close();
      resolve();
    });
  });
  // The shell stays (no exec): its command line names the marker from before the touch, so the probe is in the process
  // table by the time the file appears; its child `sleep` dies only if the whole process group is killed.
  writeFileSync(path, `#!/bin/sh\ntouch "${join(scratch, started)}"\nsleep ${marker}\n`);
  chmodSync(path, 0o755);
  return { path, probing };
}

describe.each(['SIGTERM', 'SIGINT'] as const)('%s while the ffmpeg probes still run', (signal) => {
  it('kills the probes, leaves nothing under TMPDIR and exits 0', { timeout: 60_000 }, async () => {
    const marker = 900 + Math.floor(Math.random() * 99);
    const ffmpeg = hangingFfmpeg(marker);
    const cli = await startCli(['--timing', 'instant'], { env: { FFMPEG_PATH: ffmpeg.path } });
    await ffmpeg.probing;
    const health = (await (await fetch(`${cli.url}/_emulator/health`)).json()) as { status: string };
    expect(health.status).toBe('starting');
    expect(processesMentioning(`ffmpeg-hangs-${marker}`)).not.toEqual([]);
    expect(leftUnder(cli.tmp).some((name) => name.startsWith('media-renders-'))).toBe(true);
    const { code } = await stopCli(cli, signal);
    expect(code).toBe(0);
    expect(processesMentioning(`ffmpeg-hangs-${marker}`)).toEqual([]);
    expect(processesMentioning(`sleep ${marker}`)).toEqual([]);
    expect(leftUnder(cli.tmp)).toEqual([]);
  });
});
