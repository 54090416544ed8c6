// An image output on an OffscreenCanvas, drawn as still-plan.ts draws it: colour, a sketch and the request text.
import { paletteFor } from '../ffmpeg/palette.js';
import type { RenderJob } from '../renderer.js';
import { createTextPainter } from './text-painter.js';
import { css } from './video-scene.js';

export type StillType = 'image/png' | 'image/webp';

/** WebP at quality 80, as libwebp is asked for in still-plan.ts; PNG is lossless. */
const WEBP_QUALITY = 0.8;

export function paintStill(job: RenderJob, fontFamily: string): OffscreenCanvas {
  const width = job.spec.width ?? 1024;
  const height = job.spec.height ?? 1024;
  const palette = paletteFor(job.index);
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = css(palette.background);
  ctx.fillRect(0, 0, width, height);
  // A "sketch": a sun-like square and a horizon band whose place depends on the index, so outputs differ in shape too.
  const sun = Math.round(Math.min(width, height) / 5);
  const sunX = Math.round((width - sun) * (0.2 + 0.2 * (job.index % 4)));
  ctx.fillStyle = css(palette.endBackground);
  ctx.fillRect(0, Math.round(height * 0.62), width, Math.round(height * 0.08));
  ctx.fillStyle = css(palette.accent);
  ctx.fillRect(sunX, Math.round(height * 0.38), sun, sun);
  ctx.drawImage(createTextPainter(job, width, height, fontFamily, 0).layer, 0, 0);
  return canvas;
}

/**
 * The canvas encoded as `type`. A browser that cannot write the type hands back PNG instead (the canvas spec's rule),
 * so the answer says which type the bytes really are.
 */
export async function encodeStill(
  canvas: OffscreenCanvas,
  type: StillType,
): Promise<{ data: Uint8Array; type: string }> {
  const blob = await canvas.convertToBlob(type === 'image/webp' ? { type, quality: WEBP_QUALITY } : { type });
  return { data: new Uint8Array(await blob.arrayBuffer()), type: blob.type };
}
