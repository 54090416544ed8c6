// An upload is checked at a bounded cost: a PNG's header is judged before a byte of pixel data is decoded, the decode
// streams without keeping the image, and JPEG sniffing walks a bounded number of markers. Memory is read from the
// emulator process's own peak (VmHWM), so what is asserted is a size, never a time.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/config.js';
import { multipart, png, zeroPng } from '../helpers/images.js';
import { type CliProcess, startCli, stopCli } from '../helpers/cli-process.js';

const MB = 1024 * 1024;

/** The process's resident and peak resident set, in bytes (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

let cli: CliProcess;
beforeAll(async () => {
  cli = await startCli(['--timing', 'manual', '--seed', '1'], { env: { FFMPEG_PATH: '' } });
  // The first upload loads multer: its cost is start-up, not the upload's.
  expect((await upload(png(64, 64))).status).toBe(201);
}, 60_000);
afterAll(async () => {
  if (cli) await stopCli(cli, 'SIGTERM');
});

async function upload(data: Buffer): Promise<{ status: number; body: { error?: { code: string; message: string } } }> {
  const form = multipart({ model_slug: 'motion-lite-v1' }, { data });
  const res = await fetch(`${cli.url}/v1/media/uploads`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': form.contentType },
    body: form.body,
  });
  return { status: res.status, body: (await res.json()) as never };
}

/** How far the emulator's peak memory rose above what it held before `send`. */
async function peakGrowth<T>(send: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = memoryOf(cli.child.pid!);
  const result = await send();
  const after = memoryOf(cli.child.pid!);
  console.info(
    `peak memory ${Math.round(before.peak / MB)} -> ${Math.round(after.peak / MB)} MB (resident before: ${Math.round(before.rss / MB)} MB)`,
  );
  return { result, growth: after.peak - Math.max(before.rss, before.peak) };
}

describe('a PNG decompression bomb', () => {
  it('within the model limits (4096 x 4096, 16-bit RGBA, 128 MiB decoded) is checked in a stream and adds under 64 MB', async () => {
    const bomb = await zeroPng(4096, 4096, 16, 6);
    const { result, growth } = await peakGrowth(() => Promise.all([upload(bomb), upload(bomb)]));
    expect(result.map((r) => r.status)).toEqual([201, 201]);
    expect(growth).toBeLessThan(64 * MB);
  });

  it('that declares more pixels than the model takes is refused from its header (422) and adds no memory', async () => {
    // 8191 x 8192 at 16-bit RGBA: 512 MiB decoded, half a megabyte on the wire.
    const bomb = await zeroPng(8191, 8192, 16, 6);
    expect(bomb.length).toBeLessThan(1 * MB);
    const { result, growth } = await peakGrowth(() => upload(bomb));
    expect([result.status, (result.body as { detail?: { type: string }[] }).detail?.[0]?.type]).toEqual([
      422,
      'image_dimensions',
    ]);
    expect(growth).toBeLessThan(64 * MB);
  });

  it('whose data inflates past what its header declares is refused with 415', async () => {
    const header = (await zeroPng(64, 64, 8, 2)).subarray(0, 33);
    const lying = await zeroPng(64, 4096, 8, 2);
    // The 64 x 64 header in front of a 64 x 4096 image's data.
    const forged = Buffer.concat([header, lying.subarray(33)]);
    const res = await upload(forged);
    expect([res.status, res.body.error?.code]).toEqual([415, 'unsupported_media_type']);
    expect(res.body.error?.message).toContain('more than');
  });

  it('with a header no PNG may have (bit depth 16 on a palette) is refused with 415 before decoding', async () => {
    const res = await upload(await zeroPng(64, 64, 16, 3));
    expect([res.status, res.body.error?.code]).toEqual([415, 'unsupported_media_type']);
    expect(res.body.error?.message).toContain('bit depth 16 with colour type 3');
  });
});

describe('JPEG sniffing', () => {
  it('refuses 10 MB of FFD8FFE0 and zeros as not an image', async () => {
    const stall = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(10 * MB - 4)]);
    const res = await upload(stall);
    expect([res.status, res.body.error?.code]).toEqual([415, 'unsupported_media_type']);
  });

  it('stops after 10,000 markers: a frame header behind more of them is not looked for', async () => {
    const comments = Buffer.alloc(10_001 * 4);
    for (let i = 0; i < 10_001; i++) comments.set([0xff, 0xfe, 0x00, 0x02], i * 4);
    const frame = Buffer.from([
      0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x00, 0x01, 0x00, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
    ]);
    const scan = Buffer.from([0xff, 0xda, 0x00, 0x0c, 0x03, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0, 0xff, 0xd9]);
    const res = await upload(Buffer.concat([Buffer.from([0xff, 0xd8]), comments, frame, scan]));
    expect([res.status, res.body.error?.code]).toEqual([415, 'unsupported_media_type']);
    expect(res.body.error?.message).toContain('not an image');
  });
});
