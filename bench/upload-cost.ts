// Hostile uploads up to max_bytes: the emulator's added peak memory (VmHWM) and its longest event-loop stall, each
// case in a fresh emulator process. Run: node --import tsx bench/upload-cost.ts
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DEFAULT_API_KEY } from '../src/config.js';
import { startEmulator } from '../src/index.js';
import { imageProblem } from '../src/infra/image-integrity.js';
import { nodeInflatedLength } from '../src/infra/node/inflated-length.js';
import { sniffImage } from '../src/infra/image-sniff.js';
import { multipart, png, zeroPng } from '../test/helpers/images.js';

const MB = 1024 * 1024;
const MAX_BYTES = 10 * MB;
const ROUNDS = 3;

const peakBytes = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;

/** The emulator's side: listens, then on each 'measure' message resets the delay histogram and reports. */
async function serve() {
  const running = await startEmulator({ ffmpegPath: false, timing: 'manual', seed: 1 });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  process.on('message', (message: string) => {
    if (message === 'begin') {
      delay.reset();
      delay.enable();
      process.send!({ peak: peakBytes(), rss: process.memoryUsage.rss() });
    } else if (message === 'end') {
      delay.disable();
      process.send!({ peak: peakBytes(), maxDelayMs: delay.max / 1e6 });
    } else if (message === 'stop') void running.close().then(() => process.exit(0));
  });
  process.send!({ url: running.url });
}

function jpeg(width: number, height: number): Buffer {
  const sof = [0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3];
  const sos = [0xff, 0xda, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0];
  return Buffer.from([0xff, 0xd8, ...sof, 0x11, 1, ...sos, 0xff, 0xd9]);
}

const pad = (data: Buffer, size = MAX_BYTES) => Buffer.concat([data, Buffer.alloc(size - data.length)]);

async function cases(): Promise<[string, Buffer][]> {
  const tinyChunks = Buffer.alloc(MAX_BYTES - 200);
  for (let at = 0; at + 12 <= tinyChunks.length; at += 12) tinyChunks.write('tEXt', at + 4, 'latin1');
  const small = png(64, 64);
  return [
    ['PNG 8191x8192 16-bit RGBA of zeros (out of range, 512 MiB decoded)', await zeroPng(8191, 8192, 16, 6)],
    ['PNG 4096x4096 16-bit RGBA of zeros (in range, 128 MiB decoded)', await zeroPng(4096, 4096, 16, 6)],
    [
      'PNG with 873,000 empty chunks before IEND (10 MB)',
      Buffer.concat([small.subarray(0, small.length - 12), tinyChunks, small.subarray(small.length - 12)]),
    ],
    ['JPEG FFD8FFE0 then zeros (10 MB)', pad(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))],
    [
      'JPEG FFD8 then fill bytes FF (10 MB)',
      Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(MAX_BYTES - 2, 0xff)]),
    ],
    ['JPEG 800x600 header then zero padding (10 MB)', pad(jpeg(800, 600))],
    ['not an image: 10 MB of 0x5a', Buffer.alloc(MAX_BYTES, 0x5a)],
  ];
}

type Reply = { url?: string; peak?: number; rss?: number; maxDelayMs?: number };

async function measure(name: string, data: Buffer) {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []),
    ],
  });
  const replies: Reply[] = [];
  let wake: () => void = () => undefined;
  child.on('message', (m: Reply) => {
    replies.push(m);
    wake();
  });
  const next = () =>
    new Promise<Reply>((resolve) => {
      if (replies.length) return resolve(replies.shift()!);
      wake = () => resolve(replies.shift()!);
    });
  const { url } = await next();
  const send = async (body: Buffer) => {
    const form = multipart({ model_slug: 'motion-lite-v1' }, { data: body });
    const res = await fetch(`${url}/v1/media/uploads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': form.contentType },
      body: form.body,
    });
    return `${res.status} ${((await res.json()) as { error?: { code: string } }).error?.code ?? ''}`.trim();
  };
  await send(png(64, 64)); // multer loads on the first upload
  child.send('begin');
  const before = await next();
  let answer = '';
  for (let i = 0; i < ROUNDS; i++) answer = await send(data);
  child.send('end');
  const after = await next();
  child.send('stop');
  const added = (after.peak! - Math.max(before.peak!, before.rss!)) / MB;
  return {
    name,
    bytes: data.length,
    answer,
    addedMb: Math.max(0, added),
    maxDelayMs: after.maxDelayMs!,
    ...(await checkCost(data)),
  };
}

/** The image checks alone, in this process: the sniff and the synchronous part of the pixel check (the longest of 3). */
async function checkCost(data: Buffer): Promise<{ checkMs: number }> {
  await sniffImage(data); // the first one imports image-size
  let checkMs = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    const header = await sniffImage(data);
    if (header) void imageProblem(header.format, data, nodeInflatedLength);
    checkMs = Math.max(checkMs, performance.now() - started);
  }
  return { checkMs };
}

if (process.argv.includes('--serve')) await serve();
else {
  const rows = [];
  for (const [name, data] of (await cases()).filter(([n]) => n.includes(process.env.BENCH_ONLY ?? ''))) {
    const row = await measure(name, data);
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  console.log(
    '\n| Upload | Size | Answer | Peak memory added | Longest event-loop stall (whole request) | Image checks on the loop |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.name} | ${(r.bytes / MB).toFixed(2)} MB | ${r.answer} | ${r.addedMb.toFixed(1)} MB | ${r.maxDelayMs.toFixed(1)} ms | ${r.checkMs.toFixed(1)} ms |`,
    );
}
