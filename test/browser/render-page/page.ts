// The browser-renderer test page: puts the renderer behind `globalThis.harness`, with players that report what they saw.
import { type BrowserRenderer, createBrowserRenderer } from '../../../src/infra/browser-renderer/browser-renderer.js';
import { createEncoderChoice } from '../../../src/infra/browser-renderer/encoder-choice.js';
import type { InMemoryFile, ReferenceImage, RenderJob } from '../../../src/infra/renderer.js';
import type { HarnessOptions, Played, RenderHarness, WireFile, WireImage, WireJob } from '../render-page-types.js';
import { probeWebCodecs } from './probe.js';
import { playMedia, pixelOf } from './players.js';

const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

const image = (wire: WireImage | undefined): ReferenceImage | undefined =>
  wire && { bytes: fromBase64(wire.base64), format: wire.format, width: wire.width, height: wire.height };

const jobOf = (wire: WireJob): RenderJob => ({
  ...wire,
  firstFrame: image(wire.firstFrame),
  lastFrame: image(wire.lastFrame),
});

const wire = (file: InMemoryFile): WireFile => ({
  key: file.key,
  mimeType: file.mimeType,
  bytes: file.bytes,
  cacheHit: file.cacheHit,
  base64: toBase64(file.data),
});

const blobOf = (file: WireFile): Blob =>
  new Blob([fromBase64(file.base64) as Uint8Array<ArrayBuffer>], { type: file.mimeType });

let renderer: BrowserRenderer | undefined;
let now = 0;
const logs: string[] = [];
const current = (): BrowserRenderer => {
  if (!renderer) throw new Error('harness.start() first');
  return renderer;
};

/**
 * Seeks and waits until the frame there is presented, not only decoded: in the fresh-machine container's Chromium
 * (software decoding, a loaded machine) a read right after 'loadeddata' or 'seeked' could still see another frame.
 * requestVideoFrameCallback fires once the new frame reaches the compositor; bounded at 2 s where it never fires.
 */
async function seekAndPresent(video: HTMLVideoElement, time: number): Promise<void> {
  const presented = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2000);
    video.requestVideoFrameCallback(() => {
      clearTimeout(timer);
      resolve();
    });
  });
  const seeked = new Promise((resolve) => video.addEventListener('seeked', resolve, { once: true }));
  video.currentTime = time;
  await Promise.all([seeked, presented]);
}

const harness: RenderHarness = {
  async start(options: HarnessOptions) {
    await renderer?.close();
    now = options.now ?? 0;
    logs.length = 0;
    renderer = await createBrowserRenderer({
      now: () => now,
      log: (line) => logs.push(line),
      videoCodecs: options.videoCodecs,
      audioCodecs: options.audioCodecs,
      maxStoreBytes: options.maxStoreBytes,
    });
    return { ...renderer.info };
  },
  setNow(value) {
    now = value;
  },
  render: async (job, retainUntil) => wire(await current().render(jobOf(job), retainUntil)),
  renderAll: async (jobs) => (await Promise.all(jobs.map((job) => current().render(jobOf(job))))).map(wire),
  get(key) {
    const file = current().get(key);
    return file ? wire(file) : null;
  },
  touch: (key, expiresAt) => current().touch(key, expiresAt),
  stats: () => ({ ...current().stats() }),
  logs: () => [...logs],
  async close() {
    await renderer?.close();
    renderer = undefined;
  },
  async playVideo(file, point): Promise<Played> {
    const video = document.createElement('video');
    const played = await playMedia(video, blobOf(file), async () => {
      // The middle of the first and of the last frame's slot, so each seek lands on that frame and no other.
      await seekAndPresent(video, 1 / 48);
      const first = pixelOf(video, point);
      await seekAndPresent(video, Math.max(0, video.duration - 1 / 48));
      return { first, last: pixelOf(video, point) };
    });
    return {
      duration: played.duration,
      videoWidth: video.videoWidth,
      videoHeight: video.videoHeight,
      audioBytes: played.audioBytes,
      videoBytes: played.videoBytes,
      firstPixel: played.pixels.first,
      lastPixel: played.pixels.last,
    };
  },
  async playAudio(file) {
    const audio = document.createElement('audio');
    const played = await playMedia(audio, blobOf(file), async () => undefined);
    return { duration: played.duration, audioBytes: played.audioBytes };
  },
  async decodeImage(file, point) {
    const img = document.createElement('img');
    img.src = URL.createObjectURL(blobOf(file));
    await img.decode();
    const canvas = new OffscreenCanvas(img.naturalWidth, img.naturalHeight);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    URL.revokeObjectURL(img.src);
    return {
      width: img.naturalWidth,
      height: img.naturalHeight,
      pixel: [...ctx.getImageData(point[0], point[1], 1, 1).data],
    };
  },
  renderInWorker: (job) =>
    new Promise((resolve, reject) => {
      const worker = new Worker('/assets/worker.js', { type: 'module' });
      worker.onerror = (event) => reject(new Error(event.message));
      worker.onmessage = ({ data }) => {
        worker.terminate();
        if (data.error) reject(new Error(data.error));
        else resolve({ mode: data.mode, mimeType: data.mimeType, base64: toBase64(data.data) });
      };
      worker.postMessage(job);
    }),
  probe: probeWebCodecs,
  async encodings(codec, sizes) {
    const choice = createEncoderChoice({ videoCodecs: [codec] });
    const found = await Promise.all(sizes.map(([width, height]) => choice.video(width, height)));
    return found.map((encoding) => encoding && `${encoding.config.codec} ${encoding.config.bitrateMode}`);
  },
  async time(job, rounds) {
    const times: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      await current().clear();
      const start = performance.now();
      await current().render(jobOf(job));
      times.push(performance.now() - start);
    }
    return times;
  },
};

(globalThis as unknown as { harness: RenderHarness }).harness = harness;
document.body.dataset.ready = 'yes';
