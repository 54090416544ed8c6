// One video frame at a time on a 2D canvas, drawn as video-plan.ts's filter graph draws it, frame for frame.
import { type OutputPalette, paletteFor } from '../ffmpeg/palette.js';
import type { RenderJob } from '../renderer.js';
import { referencePlate } from './reference-plate.js';
import { createTextPainter } from './text-painter.js';

/** Model B: hold the first frame for a quarter, cross-fade for half, hold the last frame (video-plan.ts). */
const HOLD_SHARE = 0.25;
/** Model A: the start image drifts left by this share of the width over the whole clip (video-plan.ts). */
const PAN_SHARE = 0.15;

export interface VideoScene {
  width: number;
  height: number;
  fps: number;
  /** Frames in the clip: durationSeconds x fps, at least 2. */
  frames: number;
  canvas: OffscreenCanvas;
  /** Draws frame `n` (0-based) onto `canvas`. */
  paint(n: number): void;
}

/** ffmpeg colour syntax (0xRRGGBB) to CSS. */
export const css = (color: string): string => `#${color.slice(2)}`;

/** Which frames carry the overlays: the ones that must equal a reference image stay clean (video-plan.ts's `enable`). */
function overlayFrames(job: RenderJob, frames: number): (n: number) => boolean {
  const mode = job.spec.referenceMode ?? (job.lastFrame ? 'first-last' : 'start');
  if (mode === 'first-last' && (job.firstFrame || job.lastFrame)) {
    if (job.firstFrame && job.lastFrame) return (n) => n >= 1 && n <= frames - 2;
    return job.firstFrame ? (n) => n >= 1 : (n) => n <= frames - 2;
  }
  return job.firstFrame ? (n) => n >= 1 : () => true;
}

/** The picture under the overlays: a flat background, the start image panning, or first and last cross-fading. */
async function backdrop(
  job: RenderJob,
  palette: OutputPalette,
  width: number,
  height: number,
  frames: number,
): Promise<(ctx: OffscreenCanvasRenderingContext2D, n: number) => void> {
  const fill = (ctx: OffscreenCanvasRenderingContext2D, color: string): void => {
    ctx.fillStyle = css(color);
    ctx.fillRect(0, 0, width, height);
  };
  const mode = job.spec.referenceMode ?? (job.lastFrame ? 'first-last' : 'start');
  if (mode === 'first-last' && (job.firstFrame || job.lastFrame)) {
    const first = job.firstFrame && (await referencePlate(job.firstFrame, width, height));
    const last = job.lastFrame && (await referencePlate(job.lastFrame, width, height));
    const hold = Math.round(frames * HOLD_SHARE);
    const fade = frames - 2 * hold;
    return (ctx, n) => {
      if (first) ctx.drawImage(first, 0, 0);
      else fill(ctx, palette.background);
      const share = Math.min(1, Math.max(0, (n - hold) / fade));
      if (share === 0) return;
      ctx.globalAlpha = share;
      if (last) ctx.drawImage(last, 0, 0);
      else fill(ctx, palette.endBackground);
      ctx.globalAlpha = 1;
    };
  }
  if (job.firstFrame) {
    const still = await referencePlate(job.firstFrame, width, height);
    return (ctx, n) => {
      fill(ctx, palette.background);
      ctx.drawImage(still, Math.round((-width * PAN_SHARE * n) / frames), 0);
    };
  }
  return (ctx) => fill(ctx, palette.background);
}

export async function createVideoScene(job: RenderJob, fontFamily: string): Promise<VideoScene> {
  const { spec } = job;
  const width = spec.width ?? 854;
  const height = spec.height ?? 480;
  const fps = spec.fps ?? 24;
  const frames = Math.max(2, Math.round((spec.durationSeconds ?? 4) * fps));
  const palette = paletteFor(job.index);
  const accent = css(palette.accent);
  const square = Math.max(8, Math.round(Math.min(width, height) / 8 / 2) * 2);
  const bar = Math.max(4, Math.round(Math.min(width, height) / 80 / 2) * 2);
  const clockY = (height + square) / 2 + Math.round(square / 4);
  const text = createTextPainter(job, width, height, fontFamily, bar);
  const overlays = overlayFrames(job, frames);
  const under = await backdrop(job, palette, width, height, frames);
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  return {
    width,
    height,
    fps,
    frames,
    canvas,
    paint(n) {
      const t = n / fps;
      under(ctx, n);
      if (!overlays(n)) return;
      ctx.drawImage(text.layer, 0, 0);
      // The square swings across the middle every 2 s; the bar fills to the full width on the last frame.
      ctx.fillStyle = accent;
      ctx.fillRect(
        Math.round(((width - square) * (1 - Math.cos((Math.PI * t) / 2))) / 2),
        (height - square) / 2,
        square,
        square,
      );
      ctx.fillRect(0, height - bar, Math.round((width * (n + 1)) / frames), bar);
      text.clock(ctx, t, clockY);
    },
  };
}
