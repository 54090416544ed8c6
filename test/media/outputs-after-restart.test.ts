// The CLI as users run it, with --state-file: a completed generation's video still plays after SIGTERM and a start on
// the same file, by the link handed out before and by a fresh one (real ffmpeg, and the fixture renderer).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/config.js';
import { type CliProcess, startCli, stopCli } from '../helpers/cli-process.js';
import { ffprobe, TOOLS } from './media-test-kit.js';

const running: CliProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) await stopCli(p, 'SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const auth = { Authorization: `Bearer ${DEFAULT_API_KEY}` };

async function start(args: string[], env: Record<string, string>): Promise<CliProcess> {
  const p = await startCli(args, { env });
  running.push(p);
  return p;
}

async function outputUrl(base: string, id: string): Promise<string> {
  const read = await fetch(`${base}/v1/media/generations/${id}`, { headers: auth });
  const body = (await read.json()) as { generation: { status: string; outputs: { url: string }[] } };
  expect(body.generation.status).toBe('completed');
  return body.generation.outputs[0].url;
}

/** The file behind a link, on the running emulator (a link names the address that read it, so take its path). */
async function download(base: string, link: string): Promise<Buffer> {
  const url = new URL(link);
  const res = await fetch(`${base}${url.pathname}${url.search}`);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('video/mp4');
  return Buffer.from(await res.arrayBuffer());
}

/** Duration and picture size as ffprobe reads them from the bytes. */
async function probe(dir: string, name: string, bytes: Buffer) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const info = await ffprobe(path);
  const video = info.streams.find((s) => s.codec_type === 'video');
  return { duration: Number(info.format.duration).toFixed(2), width: video?.width, height: video?.height };
}

describe.each([
  ['ffmpeg', /renderer: ffmpeg /],
  [
    'fixture',
    /renderer: ffmpeg is disabled by configuration \(ffmpegPath: false\); outputs are copies of fixture files/,
  ],
] as const)('after SIGTERM and a restart on the same --state-file (%s renderer)', (mode, banner) => {
  it('serves the same video by the link from before and by a fresh link', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outputs-restart-'));
    dirs.push(dir);
    // The fixture renderer is what users get without ffmpeg; a config file's `ffmpegPath: false` forces it.
    const config = join(dir, 'fixture-config.json');
    writeFileSync(config, JSON.stringify({ ffmpegPath: false }));
    const childEnv: Record<string, string> =
      mode === 'fixture' ? { MEDIA_EMULATOR_CONFIG: config } : { FFMPEG_PATH: TOOLS.ffmpeg };
    const args = ['--timing', 'manual', '--state-file', join(dir, 'state.db')];

    const first = await start(args, childEnv);
    const submitted = await fetch(`${first.url}/v1/media/generations`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': `restart-${mode}-1` },
      body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'a ferry crossing at dawn', max_credits: 1000 }),
    });
    expect(submitted.status).toBe(202);
    const { id } = ((await submitted.json()) as { generation: { id: string } }).generation;
    // Resolves once the due moves have run and the render they started has finished.
    const advanced = await fetch(`${first.url}/_emulator/clock/advance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ by: '5m' }),
    });
    expect(advanced.status).toBe(200);
    const link = await outputUrl(first.url, id);
    const before = await download(first.url, link);
    expect(first.output()).toMatch(banner);
    expect((await stopCli(first, 'SIGTERM')).code).toBe(0);

    const second = await start(args, childEnv);
    const byOldLink = await download(second.url, link);
    const byFreshLink = await download(second.url, await outputUrl(second.url, id));
    // Renders are deterministic (same job, same renderer, same bytes): the file is the one served before the restart.
    expect(byOldLink.equals(before)).toBe(true);
    expect(byFreshLink.equals(before)).toBe(true);
    const probed = await probe(dir, 'before.mp4', before);
    expect(await probe(dir, 'after.mp4', byOldLink)).toEqual(probed);
    expect(probed.width).toBeGreaterThan(0);
    expect(second.output().match(/was no longer stored: rendered again/g)).toHaveLength(1);
  });
});
