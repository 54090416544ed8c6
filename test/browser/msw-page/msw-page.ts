// A page that bundles the msw handler pack with setupWorker, driven by test/browser/msw-worker.test.ts.
import { setupWorker } from 'msw/browser';
import { createMediaHandlers } from '../../../src/msw/browser.js';
import type { MediaHandlers } from '../../../src/msw/media-handlers.js';

interface Started {
  apiKey: string;
  /** From worker.start() to the first answer (the SQLite WebAssembly was loaded before: createMediaHandlers). */
  firstAnswerMs: number;
  /** From createMediaHandlers() to the first answer. */
  coldMs: number;
}

let pack: MediaHandlers | undefined;

async function start(options: { persist: boolean }): Promise<Started> {
  const began = performance.now();
  pack = await createMediaHandlers({
    timing: 'manual',
    persist: options.persist,
    persistName: 'msw-page',
    wasmUrl: '/sql-wasm-browser.wasm',
    fallbackUrl: (name) => `/${name}`,
  });
  const worker = setupWorker(...pack.handlers);
  const starting = performance.now();
  await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true });
  const first = await fetch('/v1/media/models', { headers: { Authorization: `Bearer ${pack.apiKey}` } });
  if (first.status !== 200) throw new Error(`the first answer was ${first.status}`);
  const done = performance.now();
  return { apiKey: pack.apiKey, firstAnswerMs: done - starting, coldMs: done - began };
}

function control() {
  if (!pack) throw new Error('start() first');
  return pack.control;
}

/** Plays `url` in a video element and answers its duration in seconds. */
function videoDuration(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const video = document.createElement('video');
    video.muted = true;
    video.preload = 'metadata';
    video.onloadedmetadata = () => resolve(video.duration);
    video.onerror = () => reject(new Error(`the video did not load: ${video.error?.message ?? video.error?.code}`));
    video.src = url;
    document.body.append(video);
  });
}

Object.assign(globalThis, { mswPage: { start, control, videoDuration } });
