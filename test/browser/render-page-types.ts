// What crosses between the browser-renderer test page and Node: plain data only (bytes as base64), no DOM types.
import type { RenderJob } from '../../src/infra/renderer.js';

export interface WireImage {
  base64: string;
  format: 'png' | 'jpeg' | 'webp';
  width: number;
  height: number;
}

export interface WireJob extends Omit<RenderJob, 'firstFrame' | 'lastFrame'> {
  firstFrame?: WireImage;
  lastFrame?: WireImage;
}

export interface WireFile {
  key: string;
  mimeType: string;
  bytes: number;
  cacheHit: boolean;
  base64: string;
}

export interface HarnessOptions {
  videoCodecs?: Array<'avc' | 'vp9'>;
  audioCodecs?: Array<'aac' | 'opus'>;
  maxStoreBytes?: number;
  /** The emulator clock the store judges URL expiry by; the page keeps it and `setNow` moves it. */
  now?: number;
}

/** What a <video> (or <audio>) element made of the bytes. */
export interface Played {
  duration: number;
  videoWidth: number;
  videoHeight: number;
  /** Chromium's decoded byte counters after playing to the end: > 0 exactly when the track is there and plays. */
  audioBytes: number;
  videoBytes: number;
  /** RGB at the sample point in the first frame and in the last one. */
  firstPixel: [number, number, number];
  lastPixel: [number, number, number];
}

export interface RenderHarness {
  start(options: HarnessOptions): Promise<Record<string, unknown>>;
  setNow(now: number): void;
  render(job: WireJob, retainUntil?: number): Promise<WireFile>;
  renderAll(jobs: WireJob[]): Promise<WireFile[]>;
  get(key: string): WireFile | null;
  touch(key: string, expiresAt: number): void;
  stats(): Record<string, number>;
  logs(): string[];
  close(): Promise<void>;
  playVideo(file: WireFile, point: [number, number]): Promise<Played>;
  playAudio(file: WireFile): Promise<{ duration: number; audioBytes: number }>;
  decodeImage(file: WireFile, point: [number, number]): Promise<{ width: number; height: number; pixel: number[] }>;
  /** The same job rendered by a fresh renderer in a dedicated worker (worker.ts). */
  renderInWorker(job: WireJob): Promise<{ mode: string; mimeType: string; base64: string }>;
  /** What WebCodecs says it can encode here, codec string by codec string. */
  probe(): Promise<Record<string, boolean | string>>;
  /** The configuration the renderer would encode each size with, `codec-string bitrate-mode`, or null where none. */
  encodings(codec: 'avc' | 'vp9', sizes: Array<[number, number]>): Promise<Array<string | null>>;
  /** Encodes `job` `rounds` times, the store cleared between, and answers each render's milliseconds. */
  time(job: WireJob, rounds: number): Promise<number[]>;
}

/** The page sets `globalThis.harness`; page.evaluate reaches it through this. */
export interface HarnessGlobals {
  harness: RenderHarness;
}
