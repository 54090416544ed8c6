// What one output file must be (format, pixels, seconds, audio), derived from a model and its resolved params.
import type { ModelEntry } from './catalogue-schema.js';

export type { MediaFormat, MediaSpec } from '../infra/media-spec.js';
import type { MediaSpec } from '../infra/media-spec.js';

/** Video frame rate: modest, so renders stay fast, and every whole-second duration is a whole number of frames. */
export const VIDEO_FPS = 24;

/** Long side of still images: 1:1 gives 1024x1024, like common image APIs, and stays a quick single-frame render. */
export const IMAGE_LONG_SIDE = 1024;

export const VIDEO_QUALITIES = ['480p', '720p', '1080p'] as const;
export const ASPECTS = ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'] as const;

/** Fallbacks for a model whose catalogue entry lacks a group; the catalogue defaults normally win. */
const FALLBACK = { quality: '480p', aspect: '16:9', videoSeconds: 4, musicSeconds: 10, detail: 'low' } as const;

export interface FrameSize {
  width: number;
  height: number;
}

/** "16:9" -> [16, 9]; "1024x576" is handled by the callers as an exact size. */
function parseRatio(aspect: string): [number, number] | undefined {
  const m = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(aspect.trim());
  if (!m) return undefined;
  const w = Number(m[1]);
  const h = Number(m[2]);
  return w > 0 && h > 0 ? [w, h] : undefined;
}

function parseExact(size: string): FrameSize | undefined {
  const m = /^(\d+)x(\d+)$/.exec(size.trim());
  return m ? { width: even(Number(m[1])), height: even(Number(m[2])) } : undefined;
}

/** H.264 with yuv420p needs even dimensions: round to the nearest even number, never below 2. */
function even(n: number): number {
  return Math.max(2, Math.round(n / 2) * 2);
}

/** Video size from a short side ("480p" -> 480) and an aspect: 480p 16:9 -> 854x480, 720p 21:9 -> 1680x720. */
export function videoSize(quality: string, aspect: string): FrameSize {
  const exact = parseExact(aspect);
  if (exact) return exact;
  const short = Number(/^(\d+)p$/.exec(quality.trim())?.[1] ?? '480');
  const [rw, rh] = parseRatio(aspect) ?? [16, 9];
  return rw >= rh
    ? { width: even((short * rw) / rh), height: even(short) }
    : { width: even(short), height: even((short * rh) / rw) };
}

/** Still-image size from a long side and an aspect: 1:1 -> 1024x1024, 16:9 -> 1024x576, 3:4 -> 768x1024. */
export function imageSize(aspect: string, longSide = IMAGE_LONG_SIDE): FrameSize {
  const exact = parseExact(aspect);
  if (exact) return exact;
  const [rw, rh] = parseRatio(aspect) ?? [1, 1];
  return rw >= rh
    ? { width: even(longSide), height: even((longSide * rh) / rw) }
    : { width: even((longSide * rw) / rh), height: even(longSide) };
}

/** Every documented video size, for the README and the API docs: quality -> aspect -> size. */
export const VIDEO_SIZES: Record<string, Record<string, FrameSize>> = Object.fromEntries(
  VIDEO_QUALITIES.map((q) => [q, Object.fromEntries(ASPECTS.map((a) => [a, videoSize(q, a)]))]),
);

/** Every documented still-image size: aspect -> size. */
export const IMAGE_SIZES: Record<string, FrameSize> = Object.fromEntries(ASPECTS.map((a) => [a, imageSize(a)]));

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * The output spec for one generation. Group names have fixed meanings: duration (seconds), quality, size
 * (aspect), audio (on/off), count, detail. A model without a quality group uses output.default_quality.
 */
export function mediaSpecFor(model: ModelEntry, resolvedParams: Record<string, string>): MediaSpec {
  const param = (name: string): string | undefined =>
    resolvedParams[name] ?? model.option_groups.find((g) => g.name === name)?.default;
  const base = {
    kind: model.kind,
    format: model.output.format,
    mimeType: model.output.mime_type,
    count: positiveInt(param('count'), 1),
  };
  switch (model.kind) {
    case 'video': {
      const quality = param('quality') ?? model.output.default_quality ?? FALLBACK.quality;
      const aspect = param('size') ?? FALLBACK.aspect;
      return {
        ...base,
        ...videoSize(quality, aspect),
        durationSeconds: positiveInt(param('duration'), FALLBACK.videoSeconds),
        fps: VIDEO_FPS,
        audio: param('audio') === 'on',
        quality,
        aspect,
        referenceMode: model.reference_inputs?.slots.some((s) => s.role === 'last') ? 'first-last' : 'start',
      };
    }
    case 'image': {
      const aspect = param('size') ?? '1:1';
      return { ...base, ...imageSize(aspect), audio: false, aspect };
    }
    case 'music':
      return { ...base, durationSeconds: positiveInt(param('duration'), FALLBACK.musicSeconds), audio: true };
    case '3d':
      return { ...base, audio: false, detail: param('detail') ?? FALLBACK.detail };
  }
}
